internal import CLibWebSockets

/// One-shot timers on a service thread, all driven by a single `lws_sul` that is armed for the
/// earliest deadline. Owns that sul's memory.
///
/// Service thread only (and the creating thread before the loop starts).
final class TimerQueue {
    typealias Fired = @convention(c) (UnsafeMutablePointer<lws_sorted_usec_list_t>?) -> Void

    private struct Entry {
        let deadline: Int64  // lws_now_usecs() clock
        let order: UInt64
        let body: () -> Void

        func precedes(_ other: Entry) -> Bool {
            (deadline, order) < (other.deadline, other.order)
        }
    }

    private let slot: UnsafeMutablePointer<clws_timer>
    private let fired: Fired
    private var heap: [Entry] = []
    private var nextOrder: UInt64 = 0
    private var armedFor: Int64?
    private var context: OpaquePointer?

    /// `fired` is the C callback lws calls; it finds the owning loop through the slot's context
    /// and calls `runDue()`.
    init(fired: Fired) {
        self.fired = fired
        self.slot = .allocate(capacity: 1)
        slot.initialize(to: clws_timer())
    }

    deinit {
        precondition(armedFor == nil, "TimerQueue freed while its sul is scheduled; call cancelAll() first")
        slot.deinitialize(count: 1)
        slot.deallocate()
    }

    func attach(to context: OpaquePointer) {
        self.context = context
        slot.pointee.context = context
    }

    var isEmpty: Bool { heap.isEmpty }

    /// Runs `body` after `microseconds`. Delays are rounded up to a whole millisecond: the 4.1
    /// poll loop rounds its wait down to whole milliseconds and then spins with `poll(…, 0)`
    /// until a sub-millisecond deadline is ripe.
    func schedule(afterMicroseconds microseconds: Int64, _ body: @escaping () -> Void) {
        let delay = Self.roundedUpToMillisecond(max(0, microseconds))
        push(Entry(deadline: lws_now_usecs() + delay, order: nextOrder, body: body))
        nextOrder &+= 1
        arm()
    }

    /// Runs every timer whose deadline has passed (in deadline order), then re-arms for the next.
    /// Timers scheduled by those bodies wait for the next round, even with a zero delay.
    func runDue() {
        armedFor = nil
        let now = lws_now_usecs()
        var due: [Entry] = []
        while let first = heap.first, first.deadline <= now {
            due.append(pop())
        }
        for entry in due {
            entry.body()
        }
        arm()
    }

    /// Drops every pending timer and unschedules the sul; required before the context goes.
    func cancelAll() {
        heap.removeAll()
        if armedFor != nil {
            lws_sul_cancel(&slot.pointee.sul)
            armedFor = nil
        }
    }

    static func roundedUpToMillisecond(_ microseconds: Int64) -> Int64 {
        (microseconds + 999) / 1000 * 1000
    }

    private func arm() {
        guard let context, let first = heap.first else { return }
        if let armedFor, armedFor <= first.deadline { return }
        let delay = Self.roundedUpToMillisecond(max(0, first.deadline - lws_now_usecs()))
        lws_sul_schedule(context, 0, &slot.pointee.sul, fired, delay)
        armedFor = first.deadline
    }

    // MARK: - Binary min-heap on (deadline, order)

    private func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func pop() -> Entry {
        let top = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < heap.count, heap[left].precedes(heap[smallest]) { smallest = left }
                if right < heap.count, heap[right].precedes(heap[smallest]) { smallest = right }
                if smallest == parent { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return top
    }
}

@available(*, unavailable)
extension TimerQueue: Sendable {}
