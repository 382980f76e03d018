/// A libwebsockets call that reported failure. Callbacks turn it into "close this connection".
struct LWSFailure: Error, CustomStringConvertible {
    let operation: String
    let code: Int32

    var description: String { "\(operation) failed (\(code))" }
}

/// The one place where lws return codes become typed errors. Most lws calls return 0 for success
/// and nonzero for failure; `lws_write` returns the count written, so it passes its own `success`.
@discardableResult
func check(
    _ code: Int32,
    _ operation: @autoclosure () -> String,
    success: (Int32) -> Bool = { $0 == 0 }
) throws(LWSFailure) -> Int32 {
    guard success(code) else {
        throw LWSFailure(operation: operation(), code: code)
    }
    return code
}
