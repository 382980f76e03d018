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
}
