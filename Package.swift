// swift-tools-version:6.0
import PackageDescription

/// One set of compiler settings for every target.
let swiftSettings: [SwiftSetting] = [
    // Tools 6.0 already builds in the Swift 6 language mode (complete strict concurrency);
    // spelling it out keeps a downgrade of the tools line from silently relaxing it.
    .swiftLanguageMode(.v6),
    // `any P` everywhere makes existential costs visible in review.
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "RingCast",
    // Synchronization.Mutex needs macOS 15 where the package is built on a Mac.
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "ringcast", targets: ["ringcast"]),
        // For the load generator, its own package in bench/ (bench/Package.swift): the client it shares
        // with `ringcast push`, the libwebsockets viewer (`--client lws`) and the frame decoder, so its
        // frames are read by the code the tests hold to the protocol.
        .library(name: "RingCastClient", targets: ["RingCastClient"]),
        .library(name: "RingCastTransport", targets: ["RingCastTransport"]),
        .library(name: "RingCastCore", targets: ["RingCastCore"]),
        // The one way a test starts a child process, for the bench package's tests too.
        .library(name: "ChildProcessSupport", targets: ["ChildProcessSupport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    ],
    targets: [
        // Debian's libwebsockets 4.1.6; the shim exposes what Swift cannot import directly.
        .systemLibrary(
            name: "CLibWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev", "libssl-dev", "libcap-dev"])]
        ),
        // Debian's SQLite 3.40; the shim exposes SQLITE_TRANSIENT, a cast Swift cannot import.
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        // Debian's OpenSSL 3 for `ringcast push` and `get` over https; the shim exposes the macros
        // Swift cannot import (SNI, minimum protocol version).
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        // Debian's hiredis 0.14 for cluster mode; the shim reads a reply's elements and a context's
        // error text, which Swift cannot reach directly. No pkgConfig: hiredis needs no flags, and
        // SwiftPM warns when it drops the `-D_FILE_OFFSET_BITS=64` that hiredis.pc carries.
        .systemLibrary(name: "CHiredis", path: "Sources/CHiredis", providers: [.apt(["libhiredis-dev"])]),
        // Debian's libcurl 7.88 (OpenSSL flavour) for countdown webhooks: a whole-try deadline, a cap on the
        // answer, http/https only, many transfers on one thread; the shim wraps its variadic setters. Not
        // linked (no pkgConfig: libcurl.pc says -lcurl): the shim dlopens it on the first webhook, so the
        // 27 libraries it pulls in stay out of every other `ringcast` process (Sources/CCurl/shim.h).
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // Pure Swift, no I/O: model, animation, geometry, frame encoding, API types.
        // DequeModule: the chunk list under an animated value's segments (`ChunkedQueue`).
        .target(
            name: "RingCastCore",
            dependencies: [.product(name: "DequeModule", package: "swift-collections")],
            swiftSettings: swiftSettings
        ),
        // A joinable POSIX thread, for the modules that run their own (transport, store, Redis).
        .target(name: "RingCastThreads", swiftSettings: swiftSettings),
        // The only module that imports libwebsockets; it knows bytes, not rings.
        .target(
            name: "RingCastTransport",
            dependencies: ["CLibWebSockets", "RingCastThreads"],
            swiftSettings: swiftSettings
        ),
        // The only module that imports SQLite: an embedded store of opaque per-board blobs.
        .target(name: "RingCastStorage", dependencies: ["CSQLite", "RingCastThreads"], swiftSettings: swiftSettings),
        // The only module that imports OpenSSL: a client TLS session, the check of a server's
        // certificate and key before libwebsockets loads them, and SHA-256 for the Idempotency-Key cache.
        .target(name: "RingCastTLS", dependencies: ["COpenSSL"], swiftSettings: swiftSettings),
        // The only module that imports hiredis: the Redis connection, the subscriber thread and the
        // one Lua script per board write that cluster mode runs on.
        .target(name: "RingCastCluster", dependencies: ["CHiredis", "RingCastThreads"], swiftSettings: swiftSettings),
        // The blocking HTTP/1.1 client that `ringcast push` and `get` and ringcast-bench (bench/) share;
        // Foundation, the C library, and RingCastTLS for https. And the only module that imports
        // libcurl: `HTTPPoster`, the webhooks' concurrent, bounded POSTs.
        .target(name: "RingCastClient", dependencies: ["RingCastTLS", "CCurl"], swiftSettings: swiftSettings),
        // Wiring: config, routes, broadcaster, buildServer.
        .target(
            name: "RingCastServer",
            dependencies: [
                "RingCastCore",
                "RingCastTransport",
                "RingCastStorage",
                "RingCastTLS",
                "RingCastCluster",
                // Countdown webhooks are POSTed with its libcurl poster, off the loop.
                "RingCastClient",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "ringcast",
            dependencies: [
                "RingCastServer",
                "RingCastCore",
                "RingCastClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "RingCastCoreTests", dependencies: ["RingCastCore"], swiftSettings: swiftSettings),
        .testTarget(
            name: "RingCastTransportTests",
            dependencies: ["RingCastTransport", "TLSTestSupport"],
            swiftSettings: swiftSettings
        ),
        // One lock for every test that runs a TLS context in the test process: libwebsockets 4.1.6
        // re-takes OpenSSL's ex-data index for each TLS context it creates, which breaks a TLS
        // handshake under way on another context (Tests/TLSTestSupport/TLSExclusion.swift).
        .target(name: "TLSTestSupport", path: "Tests/TLSTestSupport", swiftSettings: swiftSettings),
        .testTarget(name: "RingCastStorageTests", dependencies: ["RingCastStorage"], swiftSettings: swiftSettings),
        .testTarget(name: "RingCastClientTests", dependencies: ["RingCastClient"], swiftSettings: swiftSettings),
        // posix_spawn(3) and waitpid(2) for a test's child processes (redis-server, `ringcast`,
        // `ringcast-bench`): never Foundation's `Process` (Tests/ChildProcessSupport/ChildProcess.swift).
        .target(name: "ChildProcessSupport", path: "Tests/ChildProcessSupport", swiftSettings: swiftSettings),
        // A real `redis-server` on a free loopback port with its own directory and AOF, for the
        // Redis client's tests and the multi-node server tests (Makefile: deps installs it).
        .target(
            name: "RedisTestSupport",
            dependencies: ["RingCastCluster", "ChildProcessSupport"],
            path: "Tests/RedisTestSupport",
            swiftSettings: swiftSettings
        ),
        // Against a real `redis-server` each test starts on a free loopback port.
        .testTarget(
            name: "RingCastClusterTests",
            dependencies: ["RingCastCluster", "RedisTestSupport"],
            swiftSettings: swiftSettings
        ),
        // The `ringcast` commands' requests, built from their arguments without a server
        // (`@testable import` of the executable's module, which SwiftPM allows for tests).
        .testTarget(
            name: "RingCastCommandTests", dependencies: ["ringcast", "RingDefinitionFixtures"], swiftSettings: swiftSettings),
        // The ring definitions every boundary is held to (Tests/fixtures/ring-definitions.json): one reader for the
        // server's legs and the CLI's.
        .target(name: "RingDefinitionFixtures", path: "Tests/RingDefinitionFixtures", swiftSettings: swiftSettings),
        .testTarget(
            name: "RingCastServerTests",
            dependencies: [
                "RingCastServer",
                "RingCastCore",
                "RingCastTransport",
                "RingCastStorage",
                "RingCastTLS",
                // The webhook poster's own tests (a cap, a deadline, no redirects).
                "RingCastClient",
                "RedisTestSupport",
                "ChildProcessSupport",
                "TLSTestSupport",
                "RingDefinitionFixtures",
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
