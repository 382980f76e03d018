extension BinaryFrame {
    /// A message's header (the byte diagram on `BinaryFrame`) and, for a frame, its `seq`, read in place without
    /// decoding the rest: for a client that reads every message of thousands of viewers (ringcast-bench) and
    /// cannot afford `decode` for each. Nil for bytes `decode` would refuse at the header.
    public struct Header: Sendable, Equatable {
        public var version: UInt8
        public var kind: Kind
        public var flags: UInt8
        /// A keyframe's or delta's `seq` (its low 32 bits); nil for a layout or an event.
        public var frameSeq: UInt32?

        public init?(_ bytes: UnsafeRawBufferPointer) {
            guard bytes.count >= 4, bytes[0] == magic, decodedVersions.contains(bytes[1]),
                let kind = Kind(rawValue: bytes[2])
            else { return nil }
            version = bytes[1]
            self.kind = kind
            flags = bytes[3]
            switch kind {
            case .keyframe, .delta:
                guard bytes.count >= 8 else { return nil }
                frameSeq = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[4 + $1]) << UInt32(8 * $1) }
            case .layout, .event:
                frameSeq = nil
            }
        }
    }

    /// Every version `decode` reads.
    static let decodedVersions: [UInt8] = [ringsVersion, version, staleVersion, sparkVersion]
}
