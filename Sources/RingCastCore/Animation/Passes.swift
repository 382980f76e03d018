/// Where an instant falls among back-to-back passes of one length: a repeating animation's value is a pure
/// function of its start and this, never of state carried from tick to tick (docs/ANIMATION.md).
enum Passes {
    /// For `elapsed` ≥ 0 seconds into passes of `length` > 0 seconds: the pass index ⌊elapsed / length⌋ and the
    /// seconds into that pass, 0 ≤ into < length. `into` is fmod, which IEEE 754 computes exactly, so the phase
    /// never drifts however many passes have run; the index is (elapsed − into) / length rounded to the nearest
    /// whole number, which that quotient is up to a rounding. A Double, so `forever` may count past `Int.max`.
    static func locate(_ elapsed: Double, length: Double) -> (index: Double, into: Double) {
        let into = elapsed.truncatingRemainder(dividingBy: length)
        guard into >= 0 else { return (0, 0) }
        return (((elapsed - into) / length).rounded(), into)
    }
}
