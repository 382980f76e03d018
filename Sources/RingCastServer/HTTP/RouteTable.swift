import RingCastCore

extension Router {
    /// Every route the server answers. Adding an endpoint is one line here and one handler method;
    /// 404, 405, `Allow`, HEAD, metrics labels and the transport's prefixes all follow from it.
    static func api(
        boards: BoardHandler,
        rings: RingHandler,
        background: BackgroundHandler,
        countdown: CountdownHandler,
        operator: OperatorHandler,
        playlists: PlaylistHandler,
        svg: SVGHandler,
        history: HistoryHandler
    ) -> Router {
        var router = Router()
        router.get("/healthz", label: "healthz", access: .open, use: `operator`.health)
        router.get("/readyz", label: "readyz", access: .open, use: `operator`.ready)
        router.get("/metrics", label: "metrics", use: `operator`.metrics)
        router.get("/api/v1/openapi.yaml", label: "openapi", use: `operator`.openAPI)
        router.get("/api/v1/boards", label: "boards", use: boards.list)
        // Before `:board` and `:ring`, which a name with a suffix would match too (names never hold a `.`).
        router.get("/api/v1/boards/:board.svg", label: "board_svg", later: svg.board)
        router.get("/api/v1/boards/:board/rings/:ring.svg", label: "ring_svg", later: svg.ring)
        router.get("/api/v1/boards/:board", label: "board", use: boards.show)
        router.write(
            "PATCH", "/api/v1/boards/:board", label: "board", body: BoardPatch.self, needsBoard: false, permission: .write,
            autoCreates: true, use: boards.patch)
        router.write(
            "PUT", "/api/v1/boards/:board", label: "board", body: BoardDefinition.self, needsBoard: false, use: boards.put)
        router.write(
            "DELETE", "/api/v1/boards/:board", label: "board", body: NoBody.self, permission: .admin, use: boards.delete)
        router.write(
            "DELETE", "/api/v1/boards/:board/shape", label: "board_shape", body: NoBody.self, use: boards.resetShape)
        router.write("POST", "/api/v1/boards/:board/rings", label: "rings", body: NewRing.self, use: rings.add)
        router.write("DELETE", "/api/v1/boards/:board/rings/:ring", label: "ring", body: NoBody.self, use: rings.delete)
        router.get("/api/v1/boards/:board/rings/:ring", label: "ring", use: rings.show)
        router.get("/api/v1/boards/:board/rings/:ring/history", label: "ring_history", later: history.ring)
        router.write(
            "PUT", "/api/v1/boards/:board/rings/:ring", label: "ring", body: RingUpdate.self, needsBoard: false,
            permission: .write, autoCreates: true, use: rings.update)
        router.write(
            "PUT", "/api/v1/boards/:board/background", label: "background", body: BackgroundUpdate.self, use: background.update)
        router.write(
            "POST", "/api/v1/boards/:board/countdown", label: "countdown", body: CountdownStart.self, use: countdown.start)
        router.write("DELETE", "/api/v1/boards/:board/countdown", label: "countdown", body: NoBody.self, use: countdown.cancel)
        router.get("/api/v1/playlists", label: "playlists", use: playlists.list)
        router.get("/api/v1/playlists/:playlist", label: "playlist", use: playlists.show)
        router.commit("PUT", "/api/v1/playlists/:playlist", label: "playlist", use: playlists.put)
        router.commit("DELETE", "/api/v1/playlists/:playlist", label: "playlist", use: playlists.delete)
        return router
    }
}
