import Foundation
import Synchronization
internal import CCurl

/// Runs POSTs concurrently on one thread of its own, through libcurl's multi interface, each try bounded by its
/// `HTTPPost` (a whole-try deadline, a cap on the answer read, http/https only, redirects never followed).
/// At most `maximumPerReceiver` tries run at once per receiver (scheme, host and port) and
/// `maximumRunning` in all; the others wait in order, so a slow receiver delays only its own POSTs.
///
/// Countdown webhooks use it (the server's `WebhookSender`, which makes its poster on the first delivery); the
/// CLI keeps its blocking `HTTPClient` (docs/WEBHOOKS.md says why).
///
/// Thread-safe: `post` and `stop` may be called from any thread; completions run on the poster's thread and
/// must not block.
public final class HTTPPoster: Sendable {
    public static let maximumPerReceiver = 2
    public static let maximumRunning = 32

    private let loop: PosterLoop

    /// Loads libcurl if this is the process's first poster (the shim opens it on first use rather than linking
    /// it: Sources/CCurl/shim.h says why) and starts the poster's thread; `.libcurlMissing` when it cannot be
    /// loaded.
    public init() throws(PostFailure) {
        if let reason = ccurl_load() { throw .libcurlMissing(String(cString: reason)) }
        loop = PosterLoop()
        let loop = loop
        let thread = Thread { loop.run() }
        thread.name = "ringcast-webhooks"
        thread.start()
    }

    deinit {
        loop.stop()
    }

    /// Starts `post` as soon as its receiver's bound allows; `completion` gets the outcome once, on the
    /// poster's thread (at once on the caller's when the poster has stopped).
    public func post(_ post: HTTPPost, completion: @escaping @Sendable (Result<PostAnswer, PostFailure>) -> Void) {
        loop.submit(post, completion: completion)
    }

    /// Ends every try under way or waiting, each completing with `.stopped`, and the thread; later posts
    /// complete with `.stopped` at once.
    public func stop() {
        loop.stop()
    }
}

/// The multi handle, freed in `deinit`. `curl_multi_wakeup` is the one call made from other threads (curl
/// allows it); everything else runs on the poster's thread.
private final class CurlMulti: @unchecked Sendable {
    let handle: UnsafeMutableRawPointer

    init() {
        // curl_multi_init only fails without memory.
        handle = ccurl_multi_init()!
        // Idle connections kept for reuse, across receivers.
        _ = ccurl_multi_setopt_long(handle, CURLMOPT_MAXCONNECTS, 16)
    }

    deinit {
        ccurl_multi_cleanup(handle)
    }

    func wake() {
        _ = ccurl_multi_wakeup(handle)
    }
}

/// The poster's thread: the inbox other threads fill, and the transfers only this thread touches.
private final class PosterLoop: @unchecked Sendable {
    private struct Submission {
        var post: HTTPPost
        var completion: @Sendable (Result<PostAnswer, PostFailure>) -> Void
    }

    private struct Inbox {
        var submissions: [Submission] = []
        var stopped = false
    }

    private let multi = CurlMulti()
    private let inbox = Mutex(Inbox())
    // The poster's thread only:
    private var running: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    private var runningPerReceiver: [String: Int] = [:]
    private var waiting: [CurlTransfer] = []

    func submit(_ post: HTTPPost, completion: @escaping @Sendable (Result<PostAnswer, PostFailure>) -> Void) {
        let accepted = inbox.withLock { inbox in
            guard !inbox.stopped else { return false }
            inbox.submissions.append(Submission(post: post, completion: completion))
            return true
        }
        guard accepted else { return completion(.failure(.stopped)) }
        multi.wake()
    }

    func stop() {
        inbox.withLock { $0.stopped = true }
        multi.wake()
    }

    func run() {
        while true {
            let (submissions, stopped) = inbox.withLock { inbox in
                defer { inbox.submissions.removeAll() }
                return (inbox.submissions, inbox.stopped)
            }
            if stopped {
                finishAll(submissions)
                return
            }
            for submission in submissions {
                do {
                    waiting.append(try CurlTransfer(post: submission.post, completion: submission.completion))
                } catch {
                    submission.completion(.failure(error))
                }
            }
            startWaiting()
            var stillRunning: Int32 = 0
            _ = ccurl_multi_perform(multi.handle, &stillRunning)
            collectFinished()
            // Wakes at curl's next timeout (a deadline, a retry of its own), on socket activity, or on `wake()`.
            _ = ccurl_multi_poll(multi.handle, nil, 0, 1000, nil)
        }
    }

    /// Starts the waiting transfers their receivers' bounds allow, oldest first.
    private func startWaiting() {
        var index = 0
        while index < waiting.count, running.count < HTTPPoster.maximumRunning {
            let transfer = waiting[index]
            let receiver = transfer.post.receiver
            guard runningPerReceiver[receiver, default: 0] < HTTPPoster.maximumPerReceiver else {
                index += 1
                continue
            }
            waiting.remove(at: index)
            let added = ccurl_multi_add_handle(multi.handle, transfer.handle)
            guard added == CURLM_OK else {
                transfer.completion(.failure(.failed(reason: String(cString: ccurl_multi_strerror(added)))))
                continue
            }
            running[transfer.handle] = transfer
            runningPerReceiver[receiver, default: 0] += 1
        }
    }

    /// Completes each transfer curl reports done, then starts those it made room for.
    private func collectFinished() {
        var finishedAny = false
        var left: Int32 = 0
        while let message = ccurl_multi_info_read(multi.handle, &left) {
            var handle: UnsafeMutableRawPointer?
            var code = CURLE_OK
            guard ccurl_message_done(message, &handle, &code) != 0, let handle, let transfer = running[handle] else {
                continue
            }
            remove(transfer)
            transfer.completion(transfer.outcome(code))
            finishedAny = true
        }
        if finishedAny { startWaiting() }
    }

    private func remove(_ transfer: CurlTransfer) {
        _ = ccurl_multi_remove_handle(multi.handle, transfer.handle)
        running[transfer.handle] = nil
        let receiver = transfer.post.receiver
        runningPerReceiver[receiver, default: 1] -= 1
        if runningPerReceiver[receiver] == 0 { runningPerReceiver[receiver] = nil }
    }

    /// At stop: every transfer running or waiting, and the submissions not yet taken, complete with `.stopped`.
    private func finishAll(_ submissions: [Submission]) {
        for transfer in Array(running.values) {
            remove(transfer)
            transfer.completion(.failure(.stopped))
        }
        for transfer in waiting { transfer.completion(.failure(.stopped)) }
        waiting.removeAll()
        for submission in submissions { submission.completion(.failure(.stopped)) }
    }
}
