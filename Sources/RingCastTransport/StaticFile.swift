#if canImport(Glibc)
    import Glibc
#endif

/// A file under the web root that answers a GET or HEAD: where it is on disk, its content type and
/// its entity tag.
///
/// The transport finds the file itself and hands it to `lws_serve_http_file` from a writeable
/// callback. lws's own file mount serves from inside its request parser and writes the response
/// head into the buffer that still holds the rest of what the client sent: a request pipelined
/// behind a static file was overwritten and answered with lws's 403 page (docs/HTTP-EDGES.md).
struct StaticFile: Equatable {
    /// The file system path.
    let path: String
    let contentType: String
    /// Quoted, from the size and modification time, as lws made it (`%08llX%08lX`).
    let entityTag: String

    /// The file for `urlPath` (decoded and normalised by lws: no `.`/`..` segments, no `//`) under
    /// `root`, `index.html` for a directory; for a path whose last segment has no `.` and names
    /// nothing, that name with `.html` (`/boards` is `boards.html`: a page's address without its
    /// suffix, its relative links resolving as the file's own would); nil when there is no regular
    /// file there.
    init?(urlPath: String, root: String, contentTypes: [(suffix: String, type: String)]) {
        guard urlPath.hasPrefix("/"), !urlPath.utf8.contains(0),
            !urlPath.split(separator: "/").contains(where: { $0 == ".." || $0 == "." })
        else { return nil }
        let base = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        var path = base + urlPath
        if Self.status(of: path) == nil, !urlPath.hasSuffix("/"), urlPath.split(separator: "/").last?.contains(".") == false {
            path += ".html"
        }
        guard var info = Self.status(of: path) else { return nil }
        if info.st_mode & S_IFMT == S_IFDIR {
            path += urlPath.hasSuffix("/") ? "index.html" : "/index.html"
            guard let index = Self.status(of: path) else { return nil }
            info = index
        }
        guard info.st_mode & S_IFMT == S_IFREG else { return nil }
        self.path = path
        self.contentType =
            contentTypes.first { $0.suffix != "*" && path.hasSuffix($0.suffix) }?.type
            ?? contentTypes.first { $0.suffix == "*" }?.type ?? "application/octet-stream"
        let size = String(UInt64(info.st_size), radix: 16, uppercase: true)
        let modified = String(UInt64(info.st_mtim.tv_sec), radix: 16, uppercase: true)
        self.entityTag = "\"" + Self.padded(size) + Self.padded(modified) + "\""
    }

    /// True when an `If-None-Match` value names this file's tag (weak comparison, RFC 9110 §13.1.2).
    func isNotModified(ifNoneMatch: String?) -> Bool {
        guard let ifNoneMatch else { return false }
        let bare = entityTag.dropFirst().dropLast()
        return ifNoneMatch.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingCharacters()
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = String(tag.dropFirst(2)) }
            // lws sent the tag unquoted; a client may still hold one of those.
            return tag == entityTag || tag == bare
        }
    }

    private static func status(of path: String) -> stat? {
        var info = stat()
        return stat(path, &info) == 0 ? info : nil
    }

    private static func padded(_ hex: String) -> String {
        String(repeating: "0", count: max(0, 8 - hex.count)) + hex
    }
}

extension Substring {
    fileprivate func trimmingCharacters() -> String {
        String(self).trimmingWhitespace()
    }
}
