// swift-tools-version: 6.0
import PackageDescription

// Foundation only: no package dependencies (the user's requirement).
let package = Package(
    name: "transit",
    // Built and tested on Linux (CI: Debian with Swift 6). The system calls are imported from
    // Glibc or Darwin, so a macOS build is meant to work, but nothing here checks one.
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "transit", targets: ["TransitCLI"]),
        .library(name: "TransitCore", targets: ["TransitCore"]),
        // The GTFS engine alone, for a program that embeds it: reading, the compiled store,
        // routing and GTFS-Realtime, with no command line.
        .library(name: "TransitGTFS", targets: ["TransitGTFS"]),
    ],
    targets: [
        // The system zlib (scripts/setup installs zlib1g-dev): inflates GTFS zips.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // The layers, kept by the compiler: what every layer shares (errors, dates and clocks,
        // places, names), then the GTFS engine, then the providers and the command line.
        .target(name: "TransitSupport"),
        .target(name: "TransitGTFS", dependencies: ["TransitSupport", "CZlib"]),
        .target(name: "TransitCore", dependencies: ["TransitSupport", "TransitGTFS"]),
        // Writes the git commit into the binary for `transit --version` (Plugins/BuildCommit).
        .plugin(name: "BuildCommit", capability: .buildTool()),
        .executableTarget(name: "TransitCLI", dependencies: ["TransitCore"], plugins: ["BuildCommit"]),
        // The loopback HTTP server (POSIX sockets) that tests and the benchmark talk to.
        .target(name: "TransitTestSupport", dependencies: ["TransitCore"]),
        // Run on purpose, not in CI: `swift run -c release transit-bench`.
        .executableTarget(name: "transit-bench", dependencies: ["TransitCore", "TransitGTFS", "TransitSupport", "TransitTestSupport"],
                          path: "Sources/TransitBench"),
        // A test target per library: the engine's tests (TransitGTFS alone, and the binary as
        // a process), and the providers' and the command line's. What both use (the reference
        // pack's paths, running the binary, test feeds, the brute-force reference router) is
        // Tests/Shared, linked into each (a test target cannot depend on another).
        .testTarget(name: "TransitGTFSTests", dependencies: ["TransitGTFS", "TransitSupport", "CZlib"]),
        .testTarget(name: "TransitCoreTests", dependencies: ["TransitCore", "TransitGTFS", "TransitSupport", "TransitTestSupport", "CZlib"]),
    ]
)
