/// The body of `POST /api/v1/boards/{board}/rings`: a ring definition as `RingSpec` reads it at the request
/// boundary, and `"group":ID`, the ring whose concentric group the new ring joins (inside it).
public struct NewRing: Sendable, Equatable, Decodable {
    public var ring: RingSpec
    public var group: String?

    public init(ring: RingSpec, group: String? = nil) {
        self.ring = ring
        self.group = group
    }

    public init(from decoder: any Decoder) throws {
        // `group` is this request's own key; the rest is the definition, read by its one codec.
        let object = try decoder.container(keyedBy: AnyCodingKey.self)
        group = try RequestField.string("group", in: object)
        ring = try RingSpec(from: GroupFreeDecoder(decoder), at: .request)
    }
}

/// A decoder that reads an object without its `group` key, so that the ring codec's strict key check sees only
/// the definition.
private struct GroupFreeDecoder: Decoder {
    let base: any Decoder

    init(_ base: any Decoder) {
        self.base = base
    }

    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Filtered<Key>(base: try base.container(keyedBy: type)))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { try base.unkeyedContainer() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { try base.singleValueContainer() }

    private struct Filtered<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let base: KeyedDecodingContainer<Key>
        var codingPath: [any CodingKey] { base.codingPath }
        var allKeys: [Key] { base.allKeys.filter { $0.stringValue != "group" } }
        func contains(_ key: Key) -> Bool { key.stringValue != "group" && base.contains(key) }
        func decodeNil(forKey key: Key) throws -> Bool { try base.decodeNil(forKey: key) }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try base.decode(type, forKey: key) }
        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type, forKey key: Key
        ) throws -> KeyedDecodingContainer<NestedKey> {
            try base.nestedContainer(keyedBy: type, forKey: key)
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try base.nestedUnkeyedContainer(forKey: key)
        }
        func superDecoder() throws -> any Decoder { try base.superDecoder() }
        func superDecoder(forKey key: Key) throws -> any Decoder { try base.superDecoder(forKey: key) }
    }
}
