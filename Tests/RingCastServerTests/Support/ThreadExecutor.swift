import Foundation

/// A task executor with a thread of its own, for work that must go on while the tests around it hold
/// Swift's cooperative threads: a test run has only as many of those as the machine has cores (two
/// here), and a test that blocks in a socket read holds one until its read returns. Child processes
/// (`TestProcess`) are launched, drained and reaped here, so a busy run never keeps a child from
/// starting or its output from being read.
///
/// Jobs run one at a time, in the order they came; each must not block (swift-subprocess's do not:
/// its reads and waits are callbacks that enqueue the next job here).
final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    /// The jobs to run, guarded by `signal`.
    private var jobs: [UnownedJob] = []
    private let signal = NSCondition()

    /// The executor for every child process of the test run.
    static let processes = ThreadExecutor(name: "test-processes")

    init(name: String) {
        let thread = Thread { [unowned self] in run() }
        thread.name = name
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        signal.lock()
        jobs.append(job)
        signal.signal()
        signal.unlock()
    }

    private func run() {
        while true {
            signal.lock()
            while jobs.isEmpty { signal.wait() }
            let batch = jobs
            jobs.removeAll(keepingCapacity: true)
            signal.unlock()
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }
}
