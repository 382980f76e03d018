import Testing

@testable import RingCastCore

/// `StructuralDigest`, which `ClusterUpdate.digest(of:)` hashes states with: equal values agree whatever order a
/// dictionary holds its keys in; any change of a number, string, key or order of an array shows.
@Suite struct StructuralDigestTests {
    struct Sample: Encodable {
        var numbers: [Double]
        var byName: [String: Int]
        var label: String?
        var flag: Bool
    }

    static let sample = Sample(numbers: [0.25, -1, 3], byName: ["a": 1, "b": 2, "c": 3], label: "x", flag: true)

    @Test func equalValues_haveOneDigest_whateverTheDictionarysOrder() throws {
        var reordered = Self.sample
        var names = [String: Int](minimumCapacity: 4096)
        for key in ["c", "a", "b"] { names[key] = Self.sample.byName[key] }
        reordered.byName = names
        #expect(try StructuralDigest.digest(of: reordered) == StructuralDigest.digest(of: Self.sample))
    }

    @Test(arguments: 0..<8)
    func anyChange_changesTheDigest(_ index: Int) throws {
        var changed = Self.sample
        switch index {
        case 0: changed.numbers[0] = 0.2500000000000001
        case 1: changed.numbers.swapAt(0, 2)
        case 2: changed.byName["a"] = 4
        case 3: changed.byName["d"] = 1
        case 4: changed.byName = ["a": 1, "b": 3, "c": 2]
        case 5: changed.label = nil
        case 6: changed.label = "y"
        default: changed.flag = false
        }
        #expect(try StructuralDigest.digest(of: changed) != StructuralDigest.digest(of: Self.sample))
    }

    @Test func zeroAndMinusZero_areOneNumber_andANonFiniteOneHasNoDigest() throws {
        var negative = Self.sample
        negative.numbers = [0, -1, 3]
        var positive = negative
        positive.numbers[0] = -0.0
        #expect(try StructuralDigest.digest(of: negative) == StructuralDigest.digest(of: positive))
        positive.numbers[2] = .nan
        #expect(throws: EncodingError.self) { try StructuralDigest.digest(of: positive) }
    }

    /// Segments are digested directly (`StructuralDigest.digest(of:at:)`), not through `Encodable`: the two agree, for
    /// every kind of segment (one pass, counted passes, forever; -0; the numbers a push makes), so nodes of builds
    /// before the direct digest and after it compare the same digests.
    @Test func aSegmentsDirectDigest_isTheOneItsEncodingGives() throws {
        var generator = SystemRandomNumberGenerator()
        let repetitions: [BoardState.RepetitionState?] = [
            nil, .init(count: 3, forever: nil, autoreverse: true), .init(count: 2, forever: nil, autoreverse: false),
            .init(count: nil, forever: true, autoreverse: false), .init(count: nil, forever: true, autoreverse: true),
        ]
        var seen: Set<UInt64> = []
        for index in 0..<200 {
            let segment = BoardState.Segment(
                start: index == 0 ? -0.0 : Double.random(in: 0...1e6, using: &generator).rounded() / 60,
                duration: [0, 1, 0.35, Double.random(in: 0...10, using: &generator)][index % 4],
                curve: (0..<4).map { _ in Double.random(in: -1...2, using: &generator) },
                target: index == 1 ? 0 : Double.random(in: -5...5, using: &generator),
                repetition: repetitions[index % repetitions.count])
            // Through `Encodable` for the segment itself; directly for the array's element.
            let encoded = try StructuralDigest.digest(of: segment)
            let direct = try StructuralDigest.digest(of: [segment])
            #expect(StructuralDigest.fnv(encoded, from: StructuralDigest.fnv([3])) == direct, "\(segment)")
            seen.insert(direct)
        }
        #expect(seen.count == 200, "different segments, different digests")
        // A value holding an array of them (a ring's progress) digests the array without a node each: the same again.
        struct Holder: Encodable { var segments: [BoardState.Segment] }
        let segments = (0..<5).map { index in
            BoardState.Segment(
                start: Double(index), duration: 1, curve: [0.42, 0, 0.58, 1], target: Double(index) / 5,
                repetition: repetitions[index])
        }
        var array = StructuralDigest.fnv([3])
        for segment in segments { array = StructuralDigest.fnv(try StructuralDigest.digest(of: segment), from: array) }
        let holder = StructuralDigest.fnv(
            StructuralDigest.mix(StructuralDigest.fnv(array, from: StructuralDigest.fnv("segments".utf8))),
            from: StructuralDigest.fnv([2]))
        #expect(try StructuralDigest.digest(of: Holder(segments: segments)) == holder)
        let broken = BoardState.Segment(start: 0, duration: .infinity, curve: [0, 0, 1, 1], target: 1, repetition: nil)
        #expect(throws: EncodingError.self) { try StructuralDigest.digest(of: [broken]) }
    }

    /// Nodes of different builds compare digests (a rolling upgrade): the rules may be restated, never changed. This
    /// value is what the build before the rules were shared by `Node` and the direct segment digest gave (2540726).
    @Test func theDigestOfAFixedValue_isPinned() throws {
        struct Holder: Encodable {
            var sample: Sample
            var segments: [BoardState.Segment]
        }
        let segments = [
            BoardState.Segment(start: 1.5, duration: 0.35, curve: [0.42, 0, 0.58, 1], target: 0.75, repetition: nil),
            BoardState.Segment(
                start: -0.0, duration: 2, curve: [0, 0, 1, 1], target: 0,
                repetition: .init(count: 3, forever: nil, autoreverse: true)),
            BoardState.Segment(
                start: 10, duration: 1, curve: [0.25, 0.1, 0.25, 1], target: 1,
                repetition: .init(count: nil, forever: true, autoreverse: false)),
        ]
        let digest = try StructuralDigest.digest(of: Holder(sample: Self.sample, segments: segments))
        #expect(String(digest, radix: 16) == "224f896c0353957a")
    }
}
