/// Encodes the WebSocket messages as JSON text (`&format=json`), once per board per tick; every viewer of the
/// board gets these same bytes. The shapes are in /work/contract/protocol-json.md; keys are sorted.
///
/// Each throws only for a non-finite number, which neither `FrameComposer` nor the validated API produces; a
/// message that cannot be encoded is not sent (the broadcaster logs it), never sent empty.
public enum FrameEncoder {
    /// A `frame` message as UTF-8 JSON.
    public static func json(_ frame: Frame) throws(EncodingFailure) -> [UInt8] {
        try JSONBytes.encode(frame)
    }

    /// An `event` message as UTF-8 JSON.
    public static func json(_ event: BoardEvent) throws(EncodingFailure) -> [UInt8] {
        try JSONBytes.encode(event)
    }

    /// A `layout` message as UTF-8 JSON.
    public static func json(_ layout: Layout) throws(EncodingFailure) -> [UInt8] {
        try JSONBytes.encode(layout)
    }
}
