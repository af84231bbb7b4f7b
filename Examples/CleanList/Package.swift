// swift-tools-version:6.0
import PackageDescription

// An app of FLYR's kind using LeadPort as a library: it depends on the repository's root
// package by path, as an app in another repository would by URL and version.
let package = Package(
    name: "CleanList",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "LeadPort", path: "../.."),
    ],
    targets: [
        .executableTarget(name: "CleanList", dependencies: [.product(name: "LeadPortKit", package: "LeadPort")]),
    ]
)
