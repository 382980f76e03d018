import RingCastCore

/// The body of `PUT /api/v1/boards/{board}` as `ringcast board create` sends it: a board made from
/// one of the server's templates (docs/openapi.yaml, `BoardTemplate`); what is nil is left out.
struct BoardTemplate: Encodable, Equatable {
    /// The templates the server knows, as `--template` lists them.
    static let names = RingCastCore.BoardTemplate.allCases.map(\.rawValue)

    var template: String
    /// Task rings, for the tasks template only (the server's default is 4).
    var count: Int?
    var title: String?
    var background: String?
    /// Seconds without a write before the board shows stale (DESIGN §13).
    var staleAfter: Int?
}
