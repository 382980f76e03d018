import Dispatch
import Foundation
import Synchronization

/// The threads a load scenario starts for its window (the pushers, the joiner) and, once they have
/// finished, what each came to.
final class BenchLoadThreads<Tally: Sendable>: Sendable {
    private let outcomes = Mutex<[Result<Tally, BenchFailure>]>([])
    private let finished = DispatchSemaphore(value: 0)
    private let count: Int
    private let lateFailure: String

    /// Starts `count` threads, thread i running `body(i)`. `lateFailure` is the message when one
    /// has not finished by the deadline `wait` is given.
    init(count: Int, lateFailure: String, _ body: @escaping @Sendable (_ thread: Int) throws(BenchFailure) -> Tally) {
        self.count = count
        self.lateFailure = lateFailure
        for thread in 0..<count {
            Thread.detachNewThread { [self] in
                let outcome = Result { () throws(BenchFailure) in try body(thread) }
                outcomes.withLock { $0.append(outcome) }
                finished.signal()
            }
        }
    }

    /// Every thread's tally once all have finished; the first failure a thread met, if any.
    func wait(until deadline: UInt64) throws(BenchFailure) -> [Tally] {
        for _ in 0..<count {
            let now = BenchSystem.now()
            guard now < deadline, finished.wait(timeout: .now() + .nanoseconds(Int(deadline - now))) == .success else {
                throw BenchFailure(lateFailure)
            }
        }
        var tallies: [Tally] = []
        for outcome in outcomes.withLock({ $0 }) { tallies.append(try outcome.get()) }
        return tallies
    }
}
