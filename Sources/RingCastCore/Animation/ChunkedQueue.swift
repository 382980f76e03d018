import DequeModule

/// A queue appended at the back and dropped from the front whose copies share everything but their newest few
/// elements: the elements live in immutable chunks of `chunkSize`, shared by every copy, and a short mutable tail.
/// A board keeps several copies of its animated values (the board as it is, as it will be, as last stored), so
/// with a plain array or `Deque` a push that appends one segment to a value thousands deep copied them all
/// (issue 32); here it copies at most a tail and the chunks' references. `popLast` thaws the last chunk when the
/// tail is empty (at most `chunkSize` elements copied).
struct ChunkedQueue<Element: Sendable>: Sendable, RandomAccessCollection {
    static var chunkSize: Int { 64 }

    private final class Chunk: Sendable {
        let items: [Element]
        init(_ items: [Element]) { self.items = items }
    }

    private var chunks: Deque<Chunk> = []
    /// The elements after the chunks; fewer than `chunkSize`.
    private var tail: [Element] = []
    /// How many of the first chunk's elements were dropped (0 without chunks).
    private var head = 0

    init() {}

    var startIndex: Int { 0 }
    var endIndex: Int { chunks.count * Self.chunkSize - head + tail.count }

    subscript(position: Int) -> Element {
        let offset = head + position
        let chunk = offset / Self.chunkSize
        if chunk < chunks.count { return chunks[chunk].items[offset % Self.chunkSize] }
        return tail[offset - chunks.count * Self.chunkSize]
    }

    /// Calls `body` on each element from `position` on, in order: a chunk at a time, cheaper than subscripting
    /// each (a frame folds every running segment of a value).
    func forEach(from position: Int, _ body: (Element) -> Void) {
        var offset = head + position
        var chunk = offset / Self.chunkSize
        while chunk < chunks.count {
            let items = chunks[chunk].items
            for index in (offset - chunk * Self.chunkSize)..<items.count { body(items[index]) }
            chunk += 1
            offset = chunk * Self.chunkSize
        }
        for index in (offset - chunks.count * Self.chunkSize)..<tail.count { body(tail[index]) }
    }

    mutating func append(_ element: Element) {
        tail.append(element)
        if tail.count == Self.chunkSize {
            chunks.append(Chunk(tail))
            tail = []
        }
    }

    @discardableResult
    mutating func removeLast() -> Element {
        if tail.isEmpty, let last = chunks.popLast() {
            tail = last.items
            if chunks.isEmpty {
                tail.removeFirst(head)
                head = 0
            }
        }
        return tail.removeLast()
    }

    /// Drops the first `count` elements.
    mutating func removeFirst(_ count: Int) {
        precondition(count >= 0 && count <= self.count, "cannot drop \(count) of \(self.count) elements")
        var left = count
        while left > 0, !chunks.isEmpty {
            let inFirst = Self.chunkSize - head
            guard left >= inFirst else {
                head += left
                return
            }
            chunks.removeFirst()
            head = 0
            left -= inFirst
        }
        tail.removeFirst(left)
    }

    mutating func removeAll() {
        chunks.removeAll()
        tail.removeAll()
        head = 0
    }
}
