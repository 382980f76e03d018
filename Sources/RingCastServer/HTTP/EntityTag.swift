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

    /// `"PREFIX-` and the 64-bit FNV-1a hash of `body` in hex`"`: for large answers asked for often (a ring's history:
    /// 10,000 points are 360 KB, whose SHA-256 took a third of the answer's time). A tag only tells a client whether
    /// its copy is current; two answers of one ring and span that differ yet hash alike are not a risk worth the time.
    static func hash(of body: [UInt8], prefix: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        body.withUnsafeBufferPointer { bytes in
            for byte in bytes {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
        }
        let hex = String(hash, radix: 16)
        return "\"\(prefix)-\(String(repeating: "0", count: 16 - hex.count))\(hex)\""
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
