import DequeModule

extension AnimatedValue {
    /// The running timing-curve segments of a value, oldest first, kept so that what a push and a tick ask of them
    /// costs the same with one segment in flight as with thousands (issue 32): appending one, finding the newest
    /// that has finished, dropping the finished ones from the front, and asking whether a repetition still runs.
    ///
    /// The segments and the finishers are `ChunkedQueue`s, so the copies of a value a board keeps share them.
    /// Segments are numbered in the order they were appended (`first` is the number of the oldest held), so the
    /// two indexes below survive dropping from the front. Equal when the segments are: the indexes follow from them.
    struct Segments: Sendable, Hashable, RandomAccessCollection {
        private var items = ChunkedQueue<Segment>()
        /// The number of `items[0]`.
        private(set) var first = 0
        /// The segments that end before every later one, by number: their ends ascend. The newest segment that
        /// has finished by time t is the last of them with end ≤ t (every later one ends after t, so after it),
        /// found by bisection; appending pops those that end no earlier than the new one, each once.
        private var finishers = ChunkedQueue<Int>()
        /// The repeating segments, by number, ascending.
        private var repeating: Deque<Int> = []

        init() {}

        init(_ segments: some Sequence<Segment>) {
            for segment in segments { append(segment) }
        }

        static func == (lhs: Self, rhs: Self) -> Bool { lhs.items.elementsEqual(rhs.items) }

        func hash(into hasher: inout Hasher) {
            hasher.combine(items.count)
            for segment in items { hasher.combine(segment) }
        }

        var startIndex: Int { 0 }
        var endIndex: Int { items.count }
        subscript(position: Int) -> Segment { items[position] }

        /// Calls `body` on each segment from `position` on, oldest first.
        func forEach(from position: Int, _ body: (Segment) -> Void) {
            items.forEach(from: position, body)
        }

        /// The number the next appended segment gets.
        var next: Int { first + items.count }

        mutating func append(_ segment: Segment) {
            while let last = finishers.last, items[last - first].end >= segment.end { finishers.removeLast() }
            finishers.append(next)
            if segment.repetition != nil { repeating.append(next) }
            items.append(segment)
        }

        mutating func removeAll() {
            first = next
            items.removeAll()
            finishers.removeAll()
            repeating.removeAll()
        }

        /// Drops the oldest `count` segments.
        mutating func removeFirst(_ count: Int) {
            items.removeFirst(count)
            first += count
            while let number = finishers.first, number < first { finishers.removeFirst(1) }
            while let number = repeating.first, number < first { repeating.removeFirst() }
        }

        /// The position of the newest segment that has finished at `time` (`time >= end`), nil when none has.
        func lastFinished(at time: Double) -> Int? {
            var low = 0
            var high = finishers.count
            while low < high {
                let middle = (low + high) / 2
                if time >= items[finishers[middle] - first].end { low = middle + 1 } else { high = middle }
            }
            return low == 0 ? nil : finishers[low - 1] - first
        }

        /// Whether a repeating segment sits after position `position` (−1: anywhere).
        func hasRepetition(after position: Int) -> Bool {
            guard let newest = repeating.last else { return false }
            return newest - first > position
        }
    }
}
