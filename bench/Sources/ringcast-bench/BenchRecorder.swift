import RingCastTransport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Tallies what every viewer received: frames, bytes and `seq` for all of them, for a sample
/// the moment each latency probe's value first showed up, optionally the time between
/// consecutive frames of every viewer, and the whole frames of a few (to replay or compare).
///
/// Events arrive on the viewer client's thread, one at a time; the bench's main thread reads and
/// marks the measurement window in between. Messages are read outside the lock.
final class BenchRecorder: Sendable {
    enum ViewerState: Sendable {
        case connecting, open, ended
    }

    struct Viewer: Sendable {
        var state = ViewerState.connecting
        /// The WebSocket handshake completed (the viewer may have ended since).
        var opened = false
        var frames = 0
        var bytes = 0
        var lastSeq: UInt64 = 0
        /// Frames whose `seq` was not above the previous one (must stay 0).
        var outOfOrder = 0
        /// Open when the measurement window started: only these are measured.
        var inWindow = false
        var windowFrames = 0
        var windowBytes = 0
        /// The probe ring's progress in the latest frame (sampled viewers only).
        var lastProbeProgress: Double?
        /// When the previous frame of the window arrived (`measuresFrameGaps` only).
        var lastWindowFrameAt: UInt64?
        /// The local port of its connection, once connected (the raw client reports it): with
        /// cluster nodes sharing a port, it tells which node holds the viewer.
        var localPort: UInt16?
    }

    /// One latency probe: the value pushed, when its 2xx was read, and when each sampled viewer
    /// first received a frame showing it (BenchSystem.now() nanoseconds).
    struct Probe: Sendable {
        var value: Double
        var sentAt: UInt64?
        var acknowledgedAt: UInt64?
        var receivedAt: [UInt64?]
    }

    struct State: Sendable {
        var viewers: [Viewer]
        var maxSeq: UInt64 = 0
        var windowStartSeq: UInt64?
        var windowEndSeq: UInt64?
        var probes: [Probe] = []
        var probeByValue: [UInt64: Int] = [:]
        /// Why connections failed or ended early, with how many.
        var endings: [String: Int] = [:]
        var unreadableMessages = 0
        /// The recorded viewers' frames from the window, whole, by viewer (`recordedViewers` only).
        var recordings: [Int: [[UInt8]]] = [:]
        /// Time between consecutive frames of the window, over every measured viewer
        /// (`measuresFrameGaps` only).
        var frameGaps = BenchHistogram()
    }

    /// The most frames a recorded viewer keeps: a minute at 60 fps.
    static let recordingLimit = 3600

    /// Viewer index → sample slot, for the viewers that measure latency.
    let sampleSlots: [Int: Int]
    /// The viewers whose frames from the window are kept whole (up to `recordingLimit` each).
    let recordedViewers: Set<Int>
    /// Time every frame's arrival, for `State.frameGaps`.
    let measuresFrameGaps: Bool
    private let reader: any BenchFrameReader
    private let state: Mutex<State>

    init(
        viewers: Int, sampled: Int, reader: any BenchFrameReader, recordedViewers: Set<Int> = [],
        measuresFrameGaps: Bool = false
    ) {
        var slots: [Int: Int] = [:]
        for (slot, viewer) in Self.spread(sampled, over: viewers).enumerated() {
            slots[viewer] = slot
        }
        self.sampleSlots = slots
        self.recordedViewers = recordedViewers
        self.measuresFrameGaps = measuresFrameGaps
        self.reader = reader
        self.state = Mutex(State(viewers: Array(repeating: Viewer(), count: viewers)))
    }

    // MARK: - The viewer client's thread

    /// An event from RingCastTransport's `WebSocketClient` (the `--client lws` engine).
    func handle(viewer index: Int, _ event: WebSocketEvent) {
        switch event {
        case .open:
            opened(viewer: index)
        case .text(let message):
            message.withUnsafeBytes { received($0, isBinary: false, viewer: index) }
        case .binary(let message):
            message.withUnsafeBytes { received($0, isBinary: true, viewer: index) }
        case .closed(let code):
            ended(viewer: index, reason: code.map { "closed by the server with code \($0)" } ?? "connection closed")
        case .failed(let reason):
            ended(viewer: index, reason: reason)
        }
    }

    /// The viewer's connection is bound to local port `port`.
    func bound(viewer index: Int, localPort port: UInt16) {
        state.withLock { $0.viewers[index].localPort = port }
    }

    /// The viewer's WebSocket handshake completed.
    func opened(viewer index: Int) {
        state.withLock { state in
            state.viewers[index].state = .open
            state.viewers[index].opened = true
        }
    }

    /// One whole message; the bytes are only lent for the call.
    func received(_ message: UnsafeRawBufferPointer, isBinary: Bool, viewer index: Int) {
        let kind = reader.sequence(in: message, isBinary: isBinary)
        var progress: Double?
        var receivedAt: UInt64 = 0
        let slot = sampleSlots[index]
        if slot != nil || measuresFrameGaps, case .frame = kind {
            receivedAt = BenchSystem.now()
            if slot != nil { progress = reader.probeProgress(in: message) }
        }
        state.withLock { state in
            state.viewers[index].bytes += message.count
            guard case .frame(let seq) = kind else {
                if kind == .unreadable { state.unreadableMessages += 1 }
                return
            }
            var viewer = state.viewers[index]
            viewer.frames += 1
            if seq <= viewer.lastSeq { viewer.outOfOrder += 1 }
            viewer.lastSeq = max(viewer.lastSeq, seq)
            state.maxSeq = max(state.maxSeq, seq)
            if viewer.inWindow, let start = state.windowStartSeq, seq > start, seq <= state.windowEndSeq ?? .max {
                viewer.windowFrames += 1
                viewer.windowBytes += message.count
                if recordedViewers.contains(index), state.recordings[index, default: []].count < Self.recordingLimit {
                    state.recordings[index, default: []].append(Array(message))
                }
                if measuresFrameGaps {
                    if let previous = viewer.lastWindowFrameAt { state.frameGaps.record(from: previous, to: receivedAt) }
                    viewer.lastWindowFrameAt = receivedAt
                }
            }
            if let slot, let progress, progress != viewer.lastProbeProgress {
                viewer.lastProbeProgress = progress
                if let probe = state.probeByValue[progress.bitPattern], state.probes[probe].receivedAt[slot] == nil {
                    state.probes[probe].receivedAt[slot] = receivedAt
                }
            }
            state.viewers[index] = viewer
        }
    }

    /// The connection failed or ended; `reason` is counted in the result.
    func ended(viewer index: Int, reason: String) {
        state.withLock { state in
            state.viewers[index].state = .ended
            state.endings[reason, default: 0] += 1
        }
    }

    // MARK: - Main thread

    /// Viewers connecting, open and ended.
    func census() -> (connecting: Int, open: Int, ended: Int) {
        state.withLock { state in
            var census = (connecting: 0, open: 0, ended: 0)
            for viewer in state.viewers {
                switch viewer.state {
                case .connecting: census.connecting += 1
                case .open: census.open += 1
                case .ended: census.ended += 1
                }
            }
            return census
        }
    }

    /// Starts counting frames after the newest `seq` any viewer has seen, for the viewers open
    /// now. Returns that `seq`.
    func startWindow() -> UInt64 {
        state.withLock { state in
            state.windowStartSeq = state.maxSeq
            for index in state.viewers.indices where state.viewers[index].state == .open {
                state.viewers[index].inWindow = true
            }
            return state.maxSeq
        }
    }

    /// Frames after the newest `seq` seen now are no longer counted. Returns that `seq`.
    func endWindow() -> UInt64 {
        state.withLock { state in
            state.windowEndSeq = state.maxSeq
            return state.maxSeq
        }
    }

    /// The lowest `seq` received by a measured viewer that is still open (nil when none is).
    private func slowestOpenSeq() -> UInt64? {
        state.withLock { state in
            state.viewers.lazy.filter { $0.inWindow && $0.state == .open }.map(\.lastSeq).min()
        }
    }

    /// Lets frames up to `seq` arrive: waits until every measured viewer still open has received
    /// it, 2 s at most.
    func settle(upTo seq: UInt64) {
        let deadline = BenchSystem.now() + 2_000_000_000
        while BenchSystem.now() < deadline, let slowest = slowestOpenSeq(), slowest < seq {
            usleep(10_000)
        }
    }

    /// Registers a probe value before it is pushed, so a frame that beats the 2xx still counts.
    func registerProbe(value: Double) -> Int {
        state.withLock { state in
            state.probes.append(Probe(value: value, receivedAt: Array(repeating: nil, count: sampleSlots.count)))
            state.probeByValue[reader.wireValue(of: value).bitPattern] = state.probes.count - 1
            return state.probes.count - 1
        }
    }

    func probeSent(_ probe: Int, at time: UInt64) {
        state.withLock { $0.probes[probe].sentAt = time }
    }

    func probeAcknowledged(_ probe: Int, at time: UInt64) {
        state.withLock { $0.probes[probe].acknowledgedAt = time }
    }

    /// `count` viewer indices evenly spread over `viewers` (the connection order), so early and
    /// late joiners are both among them.
    static func spread(_ count: Int, over viewers: Int) -> [Int] {
        let count = min(count, viewers)
        return (0..<count).map { $0 * viewers / count }
    }

    func snapshot() -> State {
        state.withLock { $0 }
    }
}
