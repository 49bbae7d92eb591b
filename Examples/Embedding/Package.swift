// swift-tools-version: 6.0
import PackageDescription

// Programs that embed transit's libraries as another project would: through the package's
// library products and their public API alone, built from outside the package
// (scripts/test-install): the GTFS engine (TransitGTFS), and a provider's client (TransitCore).
let package = Package(
    name: "embedding",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "transit", path: "../..")],
    targets: [
        .executableTarget(name: "embed-gtfs", dependencies: [.product(name: "TransitGTFS", package: "transit")], path: "GTFS"),
        .executableTarget(name: "embed-bart", dependencies: [.product(name: "TransitCore", package: "transit")], path: "BART"),
    ]
)
