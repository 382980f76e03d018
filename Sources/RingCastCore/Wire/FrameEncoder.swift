/// Encodes the WebSocket messages as JSON text (`&format=json`), once per board per tick; every viewer of the
/// board gets these same bytes. The shapes are in /work/contract/protocol-json.md; keys are sorted.
public enum FrameEncoder {
    /// A `frame` message as UTF-8 JSON. Empty only if the frame held a non-finite number, which neither
    /// `FrameComposer` nor the validated API can produce.
    public static func json(_ frame: Frame) -> [UInt8] {
        (try? JSONBytes.encode(frame)) ?? []
    }

    /// An `event` message as UTF-8 JSON.
    public static func json(_ event: BoardEvent) -> [UInt8] {
        (try? JSONBytes.encode(event)) ?? []
    }

    /// A `layout` message as UTF-8 JSON; empty only if the layout held a non-finite number.
    public static func json(_ layout: Layout) -> [UInt8] {
        (try? JSONBytes.encode(layout)) ?? []
    }
}
