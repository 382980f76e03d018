import Foundation
import RingCastTLS

/// ETags that digest the bytes they tag (SVG pictures, a ring's history): the same bytes, the same tag, on every
/// node and after every restart.
enum EntityTag {
    /// `"PREFIX-` and the first 12 bytes of the SHA-256 of `body` in hex`"`.
    static func digest(of body: [UInt8], prefix: String) -> String {
        let digits = Array("0123456789abcdef")
        let hex = SHA256Digest(of: body).bytes.prefix(12).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }
        return "\"\(prefix)-\(String(hex))\""
    }

    /// Whether `If-None-Match` (`ifNoneMatch`) names `etag`, weakly or as `*`.
    static func matches(_ ifNoneMatch: String?, _ etag: String) -> Bool {
        guard let ifNoneMatch else { return false }
        return ifNoneMatch.split(separator: ",").contains { tag in
            let tag = tag.trimmingCharacters(in: .whitespaces)
            return tag == etag || tag == "W/" + etag || tag == "*"
        }
    }
}
