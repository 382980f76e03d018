import RingCastCore
import Testing

@Suite struct PercentLabelTests {
    /// Expected values reasoned from the binary doubles, as NumberFormatter sees them:
    /// - 0.505 is 0.50500000000000000444…; ×100 rounds to exactly 50.5; half-to-even gives 50.
    /// - 0.575 is 0.57499999999999995559…; ×100 is 57.4999999999999955…, which rounds to the double just
    ///   below 57.5 (57.49999999999999289), so 57.
    /// - 0.735 is 6620291452234629·2⁻⁵³ = 0.73499999999999998668…; ×100 is 73.5 − 1.3·10⁻¹⁵, nearer 73.5
    ///   than the next double down (an ulp there is 1.4·10⁻¹⁴), so exactly 73.5; half-to-even gives 74.
    /// - 1.555 is 7003097420561121·2⁻⁵² = 1.555 − 6.2·10⁻¹⁷; ×100 is 155.5 − 6.2·10⁻¹⁵, within half an ulp
    ///   (1.4·10⁻¹⁴) of 155.5, so exactly 155.5; half-to-even gives 156.
    /// - 0.025 is 0.025000000000000001387…; ×100 rounds to exactly 2.5; half-to-even gives 2.
    @Test(
        arguments: [
            (0.0, "0%"),
            (0.505, "50%"),
            (0.575, "57%"),
            (0.735, "74%"),
            (1.0, "100%"),
            (1.555, "156%"),
            (10.0, "1,000%"),
            (0.73, "73%"),
            (0.025, "2%"),
            (0.015, "2%"),
            (-0.5, "-50%"),
            (-0.001, "-0%"),
            (-12.345, "-1,234%"),
            (1234.5678, "123,457%"),
            (100_000.0, "10,000,000%"),
        ] as [(Double, String)])
    func label_followsNumberFormatterPercent(p: Double, expected: String) {
        #expect(PercentLabel.string(for: p) == expected)
    }

    @Test func noData_showsADash() {
        #expect(PercentLabel.string(for: nil) == "—")
    }

    @Test func nonFiniteOrHugeValues_showADashInsteadOfCrashing() {
        #expect(PercentLabel.string(for: .nan) == "—")
        #expect(PercentLabel.string(for: .infinity) == "—")
        #expect(PercentLabel.string(for: 1e300) == "—")
    }
}
