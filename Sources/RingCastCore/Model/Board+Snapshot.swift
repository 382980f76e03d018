extension Board {
    /// Targets and presentation of every ring, the background colour and the countdown at `time`, for `GET /api/v1/boards/{board}`.
    public func snapshot(at time: Double) -> BoardSnapshot {
        BoardSnapshot(
            board: spec.name,
            title: spec.title,
            revision: revision,
            rings: spec.rings.map { ring in
                BoardSnapshot.Ring(
                    id: ring.id,
                    title: ring.title,
                    kind: ring.kind.name,
                    target: target(ofRing: ring.id),
                    progress: progress(ofRing: ring.id, at: time),
                    colors: targetColors(ofRing: ring.id),
                    animating: isAnimating(ring: ring.id, at: time),
                    label: ring.label,
                    max: ring.maximum,
                    text: label(ofRing: ring.id, at: time),
                    sources: ring.kind.sources,
                    countdown: ring.countdown,
                    status: status(ofRing: ring.id),
                    thresholds: thresholds(ofRing: ring.id)
                )
            },
            background: background,
            countdown: countdown.map { countdown in
                // Seconds left of the cycle running, for a board whose countdown ring restarts.
                let then = spec.rings.first { $0.kind.tag == .countdown }?.countdownOptions.then ?? .rest
                return BoardSnapshot.Countdown(
                    seconds: countdown.seconds, remaining: countdown.remaining(at: time, then: then),
                    animated: countdown.animated ? nil : false)
            }
        )
    }
}
