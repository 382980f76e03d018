import Foundation
internal import CCurl

/// One POST's curl easy handle, with its header list and error buffer, set up for one bounded try; all three
/// are freed in `deinit`. curl keeps a pointer to this object (CURLOPT_WRITEDATA, CURLOPT_HEADERDATA) while
/// the transfer runs: `HTTPPoster`'s loop holds it until curl reports it done.
///
/// Touched only on the poster's thread, made only once `HTTPPoster` has loaded libcurl (`ccurl_load`).
final class CurlTransfer {
    let post: HTTPPost
    let completion: @Sendable (Result<PostAnswer, PostFailure>) -> Void
    /// The CURL handle.
    let handle: UnsafeMutableRawPointer
    private var headers: UnsafeMutablePointer<curl_slist>?
    private let errorText: UnsafeMutablePointer<CChar>
    /// Answer bytes taken so far (head and body); the body itself is not kept.
    private(set) var answerBytes = 0
    /// Set when the answer went past `post.answerLimit` and the transfer was refused the bytes.
    private var overLimit = false

    init(post: HTTPPost, completion: @escaping @Sendable (Result<PostAnswer, PostFailure>) -> Void) throws(PostFailure) {
        guard let handle = ccurl_easy_init() else { throw .failed(reason: "curl_easy_init failed") }
        self.post = post
        self.completion = completion
        self.handle = handle
        errorText = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorText.initialize(to: 0)
        for line in ["Content-Type: \(post.contentType)", "Accept:", "Expect:"] {
            headers = ccurl_slist_append(headers, line)
        }
        try configure()
    }

    deinit {
        ccurl_easy_cleanup(handle)
        ccurl_slist_free_all(headers)
        errorText.deallocate()
    }

    private func configure() throws(PostFailure) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        try check(ccurl_setopt_string(handle, CURLOPT_URL, post.url))
        // Only http and https, for the request and for any redirect (none is followed anyway).
        try check(ccurl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"))
        try check(ccurl_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"))
        try check(ccurl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0))
        // No signals from curl (its resolver's alarm) in a threaded server.
        try check(ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
        try check(ccurl_setopt_long(handle, CURLOPT_TIMEOUT_MS, post.deadlineMilliseconds))
        // Straight to the receiver: the environment's proxy variables are not read.
        try check(ccurl_setopt_string(handle, CURLOPT_PROXY, ""))
        try check(ccurl_setopt_off(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(post.answerLimit)))
        try check(ccurl_setopt_long(handle, CURLOPT_POST, 1))
        try check(ccurl_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(post.body.count)))
        // COPYPOSTFIELDS copies the body now; an empty one still needs a valid pointer.
        let copied = post.body.withUnsafeBytes { bytes in
            ccurl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(errorText)))
        }
        try check(copied)
        try check(ccurl_setopt_list(handle, CURLOPT_HTTPHEADER, headers))
        try check(ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorText))
        try check(ccurl_setopt_callback(handle, CURLOPT_WRITEFUNCTION, curlTakeAnswer))
        try check(ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, context))
        try check(ccurl_setopt_callback(handle, CURLOPT_HEADERFUNCTION, curlTakeAnswer))
        try check(ccurl_setopt_pointer(handle, CURLOPT_HEADERDATA, context))
    }

    /// A setter's code as a typed failure: a URL too long or an option this libcurl lacks.
    private func check(_ code: CURLcode) throws(PostFailure) {
        guard code == CURLE_OK else { throw Self.failure(code, detail: "", post: post) }
    }

    /// Counts `count` answer bytes; false, refusing them (curl then ends the transfer), past the cap.
    func take(_ count: Int) -> Bool {
        answerBytes += count
        guard answerBytes <= post.answerLimit else {
            overLimit = true
            return false
        }
        return true
    }

    /// The try's outcome from curl's result code and the status read.
    func outcome(_ code: CURLcode) -> Result<PostAnswer, PostFailure> {
        if overLimit || code == CURLE_FILESIZE_EXCEEDED { return .failure(.answerTooLarge(limit: post.answerLimit)) }
        guard code == CURLE_OK else {
            return .failure(Self.failure(code, detail: String(cString: errorText), post: post))
        }
        var status = 0
        _ = ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        guard (200..<300).contains(status) else { return .failure(.httpStatus(status)) }
        return .success(PostAnswer(status: status, answerBytes: answerBytes))
    }

    /// The typed failure for curl's `code`; `detail` is curl's error buffer (more specific than its code's text).
    static func failure(_ code: CURLcode, detail: String, post: HTTPPost) -> PostFailure {
        let reason = detail.isEmpty ? String(cString: ccurl_easy_strerror(code)) : detail
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL:
            return .unsupportedScheme(post.url.split(separator: ":", maxSplits: 1).first.map(String.init) ?? post.url)
        case CURLE_URL_MALFORMAT: return .invalidURL(reason)
        case CURLE_COULDNT_RESOLVE_HOST: return .cannotResolve(host: URLComponents(string: post.url)?.host ?? post.url)
        case CURLE_OPERATION_TIMEDOUT: return .timedOut(milliseconds: post.deadlineMilliseconds)
        case CURLE_FILESIZE_EXCEEDED: return .answerTooLarge(limit: post.answerLimit)
        case CURLE_COULDNT_CONNECT, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE,
            CURLE_WEIRD_SERVER_REPLY:
            return .connectionFailed(reason: reason)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM,
            CURLE_SSL_CIPHER, CURLE_SSL_ENGINE_NOTFOUND, CURLE_USE_SSL_FAILED:
            return .tlsFailed(reason: reason)
        default: return .failed(reason: reason)
        }
    }
}

/// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION: counts the bytes against the cap and keeps none of them.
/// Returning fewer bytes than given makes curl end the transfer (CURLE_WRITE_ERROR).
private func curlTakeAnswer(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.take(size * count) ? size * count : 0
}
