import RingCastCore
import Testing

@Suite struct TimingCurveTests {
    /// Reference values from an independent exact-rational bisection of the Bézier in x (not this code).
    @Test(arguments: [
        (TimingCurve.easeIn, 0.1, 0.0170266097),
        (.easeIn, 0.25, 0.0934646507),
        (.easeIn, 0.5, 0.3153568126),
        (.easeIn, 0.75, 0.6218618692),
        (.easeIn, 0.9, 0.8394278458),
        (.easeOut, 0.1, 0.1605721542),
        (.easeOut, 0.25, 0.3781381308),
        (.easeOut, 0.5, 0.6846431874),
        (.easeOut, 0.75, 0.9065353493),
        (.easeOut, 0.9, 0.9829733903),
        (.easeInOut, 0.1, 0.0197224535),
        (.easeInOut, 0.25, 0.1291619310),
        (.easeInOut, 0.5, 0.5),
        (.easeInOut, 0.75, 0.8708380690),
        (.easeInOut, 0.9, 0.9802775465),
        (.linear, 0.3, 0.3),
    ])
    func namedCurve_matchesReferenceValue(curve: TimingCurve, fraction: Double, expected: Double) {
        #expect(abs(curve.progress(at: fraction) - expected) < 1e-9)
    }

    /// Chromium's own table for cubic-bezier(0.25, 0, 0.75, 1), ui/gfx/geometry/cubic_bezier_unittest.cc.
    @Test(arguments: [
        (0.05, 0.01136), (0.1, 0.03978), (0.15, 0.079780), (0.2, 0.12803), (0.25, 0.18235),
        (0.3, 0.24115), (0.35, 0.30323), (0.4, 0.36761), (0.45, 0.43345), (0.5, 0.5),
        (0.6, 0.63238), (0.65, 0.69676), (0.7, 0.75884), (0.75, 0.81764), (0.8, 0.87196),
        (0.85, 0.92021), (0.9, 0.96021), (0.95, 0.98863),
    ])
    func customCurve_matchesChromiumSamples(fraction: Double, expected: Double) {
        let curve = TimingCurve(x1: 0.25, y1: 0, x2: 0.75, y2: 1)
        #expect(abs(curve.progress(at: fraction) - expected) < 0.00015)
    }

    @Test(arguments: [TimingCurve.linear, .easeIn, .easeOut, .easeInOut])
    func everyCurve_isExactlyZeroAtStartAndOneAtEnd_andClampsOutside(curve: TimingCurve) {
        #expect(curve.progress(at: 0) == 0)
        #expect(curve.progress(at: 1) == 1)
        #expect(curve.progress(at: -0.5) == 0)
        #expect(curve.progress(at: 1.5) == 1)
        #expect(curve.progress(at: .nan) == 0)
    }

    @Test(arguments: [TimingCurve.linear, .easeIn, .easeOut, .easeInOut])
    func everyCurve_isMonotonic(curve: TimingCurve) {
        var previous = 0.0
        for step in 1...1000 {
            let value = curve.progress(at: Double(step) / 1000)
            #expect(value >= previous, "fraction \(Double(step) / 1000)")
            previous = value
        }
    }

    @Test func easeInAndEaseOut_areMirrorImages() {
        for step in 0...100 {
            let t = Double(step) / 100
            #expect(abs(TimingCurve.easeIn.progress(at: t) - (1 - TimingCurve.easeOut.progress(at: 1 - t))) < 1e-12)
        }
    }

    @Test func easeInOut_isPointSymmetricAroundItsMiddle() {
        for step in 0...100 {
            let t = Double(step) / 100
            #expect(abs(TimingCurve.easeInOut.progress(at: t) - (1 - TimingCurve.easeInOut.progress(at: 1 - t))) < 1e-12)
        }
    }

    @Test(arguments: ["linear", "easeIn", "easeOut", "easeInOut"])
    func namedCurve_roundTripsThroughItsName(name: String) {
        #expect(TimingCurve(name: name)?.name == name)
    }

    @Test func unknownName_givesNoCurve_andCustomCurveHasNoName() {
        #expect(TimingCurve(name: "ease") == nil)
        #expect(TimingCurve(name: "EaseIn") == nil)
        #expect(TimingCurve(x1: 0.1, y1: 0.2, x2: 0.3, y2: 0.4).name == nil)
    }

    @Test func linear_isTheIdentityExactly() {
        for step in 0...100 {
            let t = Double(step) / 100
            #expect(TimingCurve.linear.progress(at: t) == t)
        }
    }

    @Test func controlPointX_isClampedSoTheCurveStaysSolvable() {
        let curve = TimingCurve(x1: -1, y1: 0, x2: 2, y2: 1)
        #expect(curve.x1 == 0 && curve.x2 == 1)
        #expect(curve.progress(at: 0.5).isFinite)
    }

    @Test(arguments: [TimingCurve.linear, .easeIn, .easeOut, .easeInOut])
    func slope_isTheDerivativeOfProgress(curve: TimingCurve) {
        let h = 1e-6
        for step in 1...99 {
            let x = Double(step) / 100
            let difference = (curve.progress(at: x + h) - curve.progress(at: x - h)) / (2 * h)
            #expect(abs(curve.slope(at: x) - difference) < 1e-6, "at \(x)")
        }
        #expect(curve.slope(at: 1) == 0 && curve.slope(at: -0.1) == 0)
    }

    /// At an end where dx/dt = 0 the slope is y″/x″: easeOut starts, and easeIn ends, at
    /// (2·by)/(2·bx) = 3/(3·0.58) = 1.7241…; easeIn and easeInOut start flat. Just before easeIn's end the
    /// slope approaches the limit like the curve parameter, √(1 − x), so within 1e-3 at x = 1 − 1e-7.
    @Test(arguments: [
        (TimingCurve.easeOut, 0.0, 1 / 0.58, 1e-12), (.easeIn, 0, 0, 0), (.easeInOut, 0, 0, 0), (.linear, 0, 1, 0),
        (.easeIn, 0.999_999_9, 1 / 0.58, 1e-3),
    ])
    func slopeAtTheEnds_isTheLimit(curve: TimingCurve, fraction: Double, expected: Double, tolerance: Double) {
        #expect(abs(curve.slope(at: fraction) - expected) <= tolerance)
    }
}
