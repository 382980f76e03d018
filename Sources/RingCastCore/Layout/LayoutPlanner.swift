/// Where the server's layouts get their plans (`Arranger.Plans`): remembered by shape, so a board laid out again in
/// a shape seen before costs no planning, and, inside `deferringNewBigShapes`, left to another thread when a big
/// shape is new.
///
/// Planning a board of hundreds of rings takes some 20 ms in a release build and many times that in a debug one;
/// on the service thread that would stall every viewer and request. The write pipeline prepares each write inside
/// `deferringNewBigShapes`: a big shape not planned yet gets a stand-in plan and is listed as wanted, the pipeline
/// throws that preparation away, plans the shapes on a worker (`Arranger.plans(for:)` is pure), `remember`s them
/// and prepares the write again. The stand-in never
/// leaves the pipeline, so every layout is `Arranger`'s own, on any thread. Touched only on the service thread.
public final class LayoutPlanner {
    /// Shapes of up to this many rings are planned where they are asked for: a few milliseconds at most.
    public static let immediateRings = 24

    /// Inside `deferringNewBigShapes`.
    private var deferring = false
    /// The big shapes asked for while `deferring` and not planned yet, in the order asked.
    private var wanted: [LayoutShape] = []

    private let capacity: Int
    private var remembered: [LayoutShape: Arranger.Plans] = [:]
    /// Shapes in the order remembered; the oldest is forgotten first.
    private var order: [LayoutShape] = []

    public init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
    }

    /// The plans of `shape`: remembered, planned now, or (a big new shape while `deferring`) a stand-in.
    func plans(for shape: LayoutShape) -> Arranger.Plans {
        if let plans = remembered[shape] { return plans }
        if deferring, shape.ringCount > Self.immediateRings {
            if !wanted.contains(shape) { wanted.append(shape) }
            return Arranger.Plans.standIn(for: shape)
        }
        let plans = Arranger.plans(for: shape)
        remember(plans, for: shape)
        return plans
    }

    /// Keeps `plans` of `shape`, planned elsewhere, for the layouts that ask for it.
    public func remember(_ plans: Arranger.Plans, for shape: LayoutShape) {
        if remembered.updateValue(plans, forKey: shape) == nil { order.append(shape) }
        while order.count > capacity {
            remembered[order.removeFirst()] = nil
        }
    }

    /// Runs `work` with big new shapes left unplanned: what it makes is good to keep only when the shapes it
    /// wanted (in the order asked) are none; otherwise plan them, `remember` them, and run it again.
    public func deferringNewBigShapes<Result>(_ work: () -> Result) -> (result: Result, wanted: [LayoutShape]) {
        deferring = true
        let result = work()
        deferring = false
        defer { wanted = [] }
        return (result, wanted)
    }
}

@available(*, unavailable)
extension LayoutPlanner: Sendable {}
