/// What names a channel: any hashable value the application chooses (RingCast uses its board,
/// encoding and motion), handed back as it was given, never turned into a string and parsed.
/// `description` is only for logs.
public protocol ChannelKey: Hashable, Sendable, CustomStringConvertible {}

/// A plain name is a key too, for applications with one kind of channel.
extension String: ChannelKey {}

extension ChannelKey {
    /// The key as a dictionary key, whatever its type.
    var hashed: AnyHashable { AnyHashable(self) }
}
