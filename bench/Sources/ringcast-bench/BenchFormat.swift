import ArgumentParser

/// The viewer encoding to benchmark (`/ws?format=`), and the reader for its frames.
enum BenchFormat: String, CaseIterable, ExpressibleByArgument, Sendable {
    case json, binary

    /// The reader for this format; nil while the bench cannot read it yet.
    var readerType: (any BenchFrameReader.Type)? {
        switch self {
        case .json: JSONFrameReader.self
        case .binary: BinaryFrameReader.self
        }
    }

    func reader(probeRing: String) -> any BenchFrameReader {
        guard let readerType else { preconditionFailure("validated in Bench.validate()") }
        return readerType.init(probeRing: probeRing)
    }
}
