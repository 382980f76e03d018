/// A 64-bit digest of a value's encoded form (its `Encodable` structure: keys, numbers, strings, nesting), computed
/// without making the encoding: what `ClusterUpdate.digest(of:)` hashes a board's state with on every cluster write
/// (issue 32: JSON-encoding the state was 70 % of a node's CPU under pushes with the default animation).
///
/// The same value gives the same digest in every process: numbers are hashed by their bits, strings by their UTF-8,
/// each keyed container as a sum over its entries (so a dictionary's order, which differs between processes, does
/// not matter), each unkeyed container in order. FNV-1a 64 underneath, with each entry's hash mixed
/// (SplitMix64's finaliser) before it is summed. Not a security measure. A non-finite number throws, as JSON would:
/// such a state has no digest.
enum StructuralDigest {
    static func digest(of value: some Encodable) throws -> UInt64 {
        let encoder = DigestEncoder()
        try value.encode(to: encoder)
        return encoder.node.value
    }

    /// FNV-1a 64 of `bytes`, from `hash`.
    static func fnv(_ bytes: some Sequence<UInt8>, from hash: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
        var hash = hash
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    static func fnv(_ value: UInt64, from hash: UInt64) -> UInt64 {
        var hash = hash
        var rest = value
        for _ in 0..<8 {
            hash ^= rest & 0xFF
            hash = hash &* 0x0000_0100_0000_01b3
            rest >>= 8
        }
        return hash
    }

    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9e37_79b9_7f4a_7c15
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    // MARK: The rules

    /// The hash of a leaf: a tag for its kind (2 Bool, 3 integer, 4 number, 5 string), then its bits.
    static func leaf(_ tag: UInt8, _ bits: UInt64) -> UInt64 { fnv(bits, from: fnv([1, tag])) }

    /// A number's leaf, or nil for one that is not finite (which JSON cannot hold, so a state with one has no digest).
    /// 0 and -0 are one number in JSON, and so here.
    static func number(_ value: Double) -> UInt64? {
        value.isFinite ? leaf(4, value == 0 ? 0 : value.bitPattern) : nil
    }

    /// One entry of a keyed container, from its key's hash (`fnv(key.utf8)`); the container sums them, so their order
    /// does not matter.
    static func entry(key: UInt64, _ value: UInt64) -> UInt64 { mix(fnv(value, from: key)) }

    /// A keyed container, from the sum of its entries.
    static func keyed(_ sum: UInt64) -> UInt64 { fnv(sum, from: fnv([2])) }

    /// The hash an unkeyed container starts from; each element is hashed on in order.
    static let unkeyedSeed = fnv([3])

    /// What one encoded value comes to: a leaf's hash, or a container's as its entries arrive.
    final class Node {
        enum Kind { case empty, leaf, keyed, unkeyed }
        var kind = Kind.empty
        var hash: UInt64 = 0
        var children: [(key: String?, node: Node)] = []
        /// Where the node is, for the path of an error only (built then: building it for every value was a seventh
        /// of the digest's time).
        unowned(unsafe) let parent: Node?
        let index: Int

        init(parent: Node? = nil, index: Int = 0) {
            self.parent = parent
            self.index = index
        }

        var codingPath: [any CodingKey] {
            guard let parent else { return [] }
            let key = parent.children[index].key
            return parent.codingPath + [key.map { Key(stringValue: $0) } ?? Key(intValue: parent.kind == .unkeyed ? index : 0)]
        }

        /// The node's digest: a tag for its kind, then its content.
        var value: UInt64 {
            switch kind {
            case .empty: return fnv([0])
            case .leaf: return hash
            case .keyed:
                var sum: UInt64 = 0
                for child in children { sum &+= entry(key: fnv(child.key!.utf8), child.node.value) }
                return keyed(sum)
            case .unkeyed:
                var hash = unkeyedSeed
                for child in children { hash = fnv(child.node.value, from: hash) }
                return hash
            }
        }

        func leaf(_ hash: UInt64) {
            kind = .leaf
            self.hash = hash
        }

        func leaf(_ tag: UInt8, _ bits: UInt64) { leaf(StructuralDigest.leaf(tag, bits)) }

        func leaf(_ text: String) { leaf(fnv(text.utf8, from: fnv([1, 5]))) }

        func child(_ key: String?) -> Node {
            let node = Node(parent: self, index: children.count)
            children.append((key, node))
            return node
        }
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(stringValue: String) { self.stringValue = stringValue }
        init(intValue: Int) { (stringValue, self.intValue) = (String(intValue), intValue) }
    }

    final class DigestEncoder: Encoder {
        let node: Node
        var codingPath: [any CodingKey] { node.codingPath }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        init(node: Node = Node()) {
            self.node = node
        }

        func container<K: CodingKey>(keyedBy type: K.Type) -> KeyedEncodingContainer<K> {
            node.kind = .keyed
            return KeyedEncodingContainer(Keyed<K>(node: node))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            node.kind = .unkeyed
            return Unkeyed(node: node)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            Single(node: node)
        }
    }

    /// Leaves, for every container kind.
    static func encode(_ value: some Encodable, into node: Node) throws {
        switch value {
        case let segments as [BoardState.Segment]:
            // An unkeyed container of them, without a node each.
            var hash = unkeyedSeed
            for segment in segments { hash = fnv(try digest(of: segment, at: node), from: hash) }
            node.leaf(hash)
        case let double as Double: node.leaf(try number(double, at: node))
        case let float as Float: node.leaf(try number(Double(float), at: node))
        case let string as String: node.leaf(string)
        case let bool as Bool: node.leaf(2, bool ? 1 : 0)
        case let int as Int: node.leaf(3, UInt64(bitPattern: Int64(int)))
        case let int as Int64: node.leaf(3, UInt64(bitPattern: int))
        case let int as Int32: node.leaf(3, UInt64(bitPattern: Int64(int)))
        case let int as UInt64: node.leaf(3, int)
        case let int as UInt32: node.leaf(3, UInt64(int))
        case let int as UInt8: node.leaf(3, UInt64(int))
        case let segment as BoardState.Segment: node.leaf(try digest(of: segment, at: node))
        default: try value.encode(to: DigestEncoder(node: node))
        }
    }

    // MARK: Segments, directly

    /// A segment's digest computed directly: the value `Encodable` would give (`StructuralDigestTests` compares them),
    /// without a node per field. Segments are most of a board that animates (a push adds one to a ring), so they were
    /// most of a cluster write's digest (issue 32: 25 % of a node's CPU under pushes with the default animation).
    static func digest(of segment: BoardState.Segment, at node: Node) throws -> UInt64 {
        func number(_ value: Double) throws -> UInt64 { try StructuralDigest.number(value, at: node) }
        var sum = entry(key: SegmentKeys.start, try number(segment.start))
        sum &+= entry(key: SegmentKeys.duration, try number(segment.duration))
        var curve = unkeyedSeed
        for point in segment.curve { curve = fnv(try number(point), from: curve) }
        sum &+= entry(key: SegmentKeys.curve, curve)
        sum &+= entry(key: SegmentKeys.target, try number(segment.target))
        if let repetition = segment.repetition {
            var passes: UInt64 = 0
            if let count = repetition.count {
                passes &+= entry(key: SegmentKeys.count, leaf(3, UInt64(bitPattern: Int64(count))))
            }
            if let forever = repetition.forever {
                passes &+= entry(key: SegmentKeys.forever, leaf(2, forever ? 1 : 0))
            }
            passes &+= entry(key: SegmentKeys.autoreverse, leaf(2, repetition.autoreverse ? 1 : 0))
            sum &+= entry(key: SegmentKeys.repetition, keyed(passes))
        }
        return keyed(sum)
    }

    /// The hashes of a segment's keys, computed once.
    private enum SegmentKeys {
        static let start = fnv("start".utf8)
        static let duration = fnv("duration".utf8)
        static let curve = fnv("curve".utf8)
        static let target = fnv("target".utf8)
        static let repetition = fnv("repetition".utf8)
        static let count = fnv("count".utf8)
        static let forever = fnv("forever".utf8)
        static let autoreverse = fnv("autoreverse".utf8)
    }

    /// `number(value)`, or the error JSON would give for a number that is not finite, at `node`'s path.
    private static func number(_ value: Double, at node: Node) throws -> UInt64 {
        guard let hash = number(value) else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: node.codingPath, debugDescription: "Unable to encode Double.\(value) directly in JSON."))
        }
        return hash
    }

    struct Keyed<K: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        var codingPath: [any CodingKey] { node.codingPath }

        mutating func encodeNil(forKey key: K) throws { node.child(key.stringValue).kind = .empty }

        mutating func encode<T: Encodable>(_ value: T, forKey key: K) throws {
            try StructuralDigest.encode(value, into: node.child(key.stringValue))
        }

        mutating func nestedContainer<N: CodingKey>(keyedBy type: N.Type, forKey key: K) -> KeyedEncodingContainer<N> {
            let child = node.child(key.stringValue)
            child.kind = .keyed
            return KeyedEncodingContainer(Keyed<N>(node: child))
        }

        mutating func nestedUnkeyedContainer(forKey key: K) -> any UnkeyedEncodingContainer {
            let child = node.child(key.stringValue)
            child.kind = .unkeyed
            return Unkeyed(node: child)
        }

        mutating func superEncoder() -> any Encoder { DigestEncoder(node: node.child("super")) }

        mutating func superEncoder(forKey key: K) -> any Encoder { DigestEncoder(node: node.child(key.stringValue)) }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let node: Node
        var codingPath: [any CodingKey] { node.codingPath }
        var count: Int { node.children.count }

        mutating func encodeNil() throws { node.child(nil).kind = .empty }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try StructuralDigest.encode(value, into: node.child(nil))
        }

        mutating func nestedContainer<N: CodingKey>(keyedBy type: N.Type) -> KeyedEncodingContainer<N> {
            let child = node.child(nil)
            child.kind = .keyed
            return KeyedEncodingContainer(Keyed<N>(node: child))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let child = node.child(nil)
            child.kind = .unkeyed
            return Unkeyed(node: child)
        }

        mutating func superEncoder() -> any Encoder { DigestEncoder(node: node.child(nil)) }
    }

    struct Single: SingleValueEncodingContainer {
        let node: Node
        var codingPath: [any CodingKey] { node.codingPath }

        mutating func encodeNil() throws { node.kind = .empty }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try StructuralDigest.encode(value, into: node)
        }
    }
}
