/// The body of `PUT /api/v1/boards/{board}` as `ringcast board create` sends it: a board made from
/// one of the server's templates (docs/openapi.yaml, `BoardTemplate`); what is nil is left out.
struct BoardTemplate: Encodable, Equatable {
    /// The templates the server knows, as `--template` lists them.
    static let names = ["activity", "tasks", "countdown", "single", "main"]
    /// How many task rings the tasks template may have: with its Overall ring, at most a board's 24.
    static let taskCounts = 1...23

    var template: String
    /// Task rings, for the tasks template only (the server's default is 4).
    var count: Int?
    var title: String?
    var background: String?
}
