/// Body of `POST /api/v1/boards/{board}/countdown`: `{"seconds":N}`.
struct CountdownStart: Decodable {
    var seconds: Double

    private enum CodingKeys: String, CodingKey { case seconds }

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(["seconds"])
        seconds = try decoder.container(keyedBy: CodingKeys.self).decode(Double.self, forKey: .seconds)
    }
}
