// swift-tools-version: 6.0
import PackageDescription

// A program that embeds TransitGTFS as another project would: through the package's library
// product and its public API alone, built from outside the package (scripts/test-install).
let package = Package(
    name: "embedding",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "transit", path: "../..")],
    targets: [
        .executableTarget(name: "embed-gtfs", dependencies: [.product(name: "TransitGTFS", package: "transit")], path: "Sources"),
    ]
)
