// swift-tools-version:6.0
import PackageDescription

/// The root package's compiler settings (../Package.swift), for every target here too.
let swiftSettings: [SwiftSetting] = [
    // Tools 6.0 already builds in the Swift 6 language mode (complete strict concurrency);
    // spelling it out keeps a downgrade of the tools line from silently relaxing it.
    .swiftLanguageMode(.v6),
    // `any P` everywhere makes existential costs visible in review.
    .enableUpcomingFeature("ExistentialAny"),
]

/// The load generator, `ringcast-bench`: viewers, pushers and join storms against a running server,
/// and the docs/BENCHMARKS.md report. A package of its own, so neither the server binary nor the
/// server's build carries any of it (`make bench` builds it: ../Makefile).
let package = Package(
    name: "RingCastBench",
    // Synchronization.Mutex needs macOS 15 where the package is built on a Mac.
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "ringcast-bench", targets: ["ringcast-bench"])
    ],
    dependencies: [
        // Named, so the products below do not depend on what the checkout directory is called.
        .package(name: "RingCast", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // The client `ringcast push` uses, the libwebsockets viewer (`--client lws`) and the binary
        // frame decoder (RingCastCore's `BinaryFrame`).
        .executableTarget(
            name: "ringcast-bench",
            dependencies: [
                .product(name: "RingCastClient", package: "RingCast"),
                .product(name: "RingCastTransport", package: "RingCast"),
                .product(name: "RingCastCore", package: "RingCast"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // A real `ringcast serve` (RINGCAST_BIN, ../.build/debug/ringcast by default) measured by the
        // `ringcast-bench` built beside these tests, and the frame reader against RingCastCore's encoder.
        .testTarget(
            name: "RingCastBenchTests",
            dependencies: [
                "ringcast-bench",
                .product(name: "RingCastCore", package: "RingCast"),
                .product(name: "ChildProcessSupport", package: "RingCast"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
