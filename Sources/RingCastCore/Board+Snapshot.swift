extension Board {
    /// Targets and presentation of every ring at `time`, for `GET /api/v1/boards/{board}`.
    public func snapshot(at time: Double) -> BoardSnapshot {
        let targetColors = targetColors
        return BoardSnapshot(
            board: spec.name,
            revision: revision,
            rings: spec.rings.map { ring in
                BoardSnapshot.Ring(
                    id: ring.id,
                    title: ring.title,
                    kind: ring.kind.name,
                    target: target(ofRing: ring.id),
                    progress: progress(ofRing: ring.id, at: time),
                    colors: targetColors[ring.id] ?? ring.colors,
                    animating: isAnimating(ring: ring.id, at: time)
                )
            },
            background: spec.background
        )
    }
}
