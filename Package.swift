// swift-tools-version:6.0
import PackageDescription

// Module layout and dependency direction: docs/architecture.md (design.md §3).

/// Release builds of the hot modules skip the run-time exclusivity checks (their class state is
/// touched from one thread at a time, per row or per event); debug builds and tests keep them.
let uncheckedExclusivityInRelease: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]
/// libphonenumber and what it needs, from their static archives (Debian's -dev packages ship
/// them): shared, their loading and relocation cost every command about 6 M instructions and
/// 3 MB before `main`, phones or not (docs/benchmarks.md). Order matters: each archive before
/// the ones it calls. ICU's code is static too, without its 30 MB data package, which no phone
/// needs (CLeadPhone/icu_common_data.c); no shared ICU is loaded until a workbook's libxml2.
let staticPhoneLibraries: [LinkerSetting] = [
    "phonenumber", "protobuf", "absl_raw_hash_set", "absl_hashtablez_sampler", "absl_hash", "absl_city", "absl_low_level_hash",
    "absl_strings", "absl_strings_internal", "absl_throw_delegate", "absl_raw_logging_internal", "icui18n", "icuuc",
].map { .linkedLibrary(":lib\($0).a") } + ["z", "pthread", "dl", "m"].map { .linkedLibrary($0) }
let package = Package(
    name: "LeadPort",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "leadport", targets: ["leadport"]),
        // For Swift programs (FLYR's): the readers, the mapping, the rules and the lead model
        // behind one `import LeadPortKit` (docs/library.md; Examples/CleanList uses it).
        .library(name: "LeadPortKit", targets: ["LeadPortKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
    ],
    targets: [
        .target(name: "LeadCore", swiftSettings: uncheckedExclusivityInRelease),
        // libcurl, loaded with dlopen by HTTPKit's transport (its header only at build time).
        .target(name: "CLeadCurl", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "HTTPKit", dependencies: ["CLeadCurl"]),
        // libpq, loaded with dlopen by the PostgreSQL destination.
        .target(name: "CLeadPQ", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "LeadConnectors", dependencies: ["LeadCore", "LeadStore", "HTTPKit", "CLeadPQ", .product(name: "Crypto", package: "swift-crypto"), .product(name: "Yams", package: "Yams")],
                swiftSettings: uncheckedExclusivityInRelease),
        // libzip and libxml2, loaded with dlopen when a command first opens a workbook or writes a
        // ZIP (their headers only at build time; libxml2's live under /usr/include/libxml2).
        .target(name: "CLeadZip", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CLeadXML2", cSettings: [.unsafeFlags(["-I/usr/include/libxml2"])], linkerSettings: [.linkedLibrary("dl")]),
        .target(
            name: "LeadReaders",
            dependencies: ["LeadCore", "CLeadZip", "CLeadXML2"],
            // The readers' hot loops touch class state per byte and per SAX event; they have no
            // overlapping accesses, and the dynamic exclusivity checks cost ~10% of XLSX time.
            swiftSettings: uncheckedExclusivityInRelease
        ),
        // libphonenumber (C++) behind a C header (CLeadPhoneAPI), implemented by CLeadPhone and
        // linked into every binary, so that any build (`swift build`, `-c release`,
        // `--product leadport`) parses phones; see docs/architecture.md. Linked statically with
        // what it needs (`staticPhoneLibraries`).
        .target(name: "CLeadPhoneAPI"),
        .target(name: "CLeadPhone", dependencies: ["CLeadPhoneAPI"], linkerSettings: staticPhoneLibraries),
        .target(name: "LeadNormalize", dependencies: ["LeadCore", "CLeadPhoneAPI", "CLeadPhone", .product(name: "Yams", package: "Yams")],
                swiftSettings: uncheckedExclusivityInRelease),
        // Re-exports LeadCore, LeadReaders and LeadNormalize, and holds what joins them: the
        // column plan, the lead builder and `LeadList` (a file's rows as cleaned leads).
        .target(name: "LeadPortKit", dependencies: ["LeadCore", "LeadReaders", "LeadNormalize"], swiftSettings: uncheckedExclusivityInRelease),
        .target(name: "LeadWriters", dependencies: ["LeadCore", "CLeadZip"]),
        .target(name: "LeadStore", dependencies: ["LeadCore", .product(name: "GRDB", package: "GRDB.swift"),
                                                 .product(name: "GRDBSQLite", package: "GRDB.swift")],
                swiftSettings: uncheckedExclusivityInRelease),
        .target(name: "LeadEngine", dependencies: ["LeadCore", "LeadReaders", "LeadNormalize", "LeadPortKit", "LeadWriters", "LeadStore", "LeadConnectors", "LeadEnrich", "HTTPKit",
                                                  .product(name: "Crypto", package: "swift-crypto"), .product(name: "Yams", package: "Yams")],
                swiftSettings: uncheckedExclusivityInRelease),
        // libqrencode and libpng behind one C function (libpng reports errors by longjmp, which
        // must stay in C), both opened with dlopen on the first QR code; LeadPrint: `leadport
        // export vdp` (QR codes, manifest, ZIP).
        .target(name: "CLeadQR", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "LeadPrint", dependencies: ["LeadCore", "LeadConnectors", "LeadStore", "LeadWriters", "CLeadQR", "CLeadZip"]),
        .target(name: "LeadEnrich", dependencies: ["LeadCore", "HTTPKit", .product(name: "Crypto", package: "swift-crypto"), .product(name: "Yams", package: "Yams")]),
        // The nightly sync: jobs, their sources and watermarks, locks, logs, status, workers and
        // their leases, and where undo finds a run; it runs the engine through an ImportRequest.
        .target(name: "LeadSync", dependencies: ["LeadEngine", "LeadCore", "LeadNormalize", "LeadStore", "LeadConnectors", "LeadWriters", "HTTPKit",
                                                .product(name: "Crypto", package: "swift-crypto"), .product(name: "Yams", package: "Yams")]),
        // jemalloc in place of glibc's malloc, for the whole process (CLeadAlloc/alloc.c has its
        // settings; docs/benchmarks.md what it saves).
        .target(name: "CLeadAlloc", linkerSettings: [.linkedLibrary("jemalloc")]),
        .executableTarget(
            name: "leadport",
            dependencies: [
                "CLeadAlloc", "LeadEngine", "LeadSync", "LeadPrint", "LeadPortKit", "LeadCore", "LeadReaders", "LeadNormalize", "LeadWriters", "LeadStore", "LeadConnectors",
                "LeadEnrich", "HTTPKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(name: "LeadTesting", dependencies: ["LeadCore", "LeadReaders", "LeadConnectors", "LeadStore", "HTTPKit"], path: "Sources/LeadTesting"),
        .testTarget(name: "LeadCoreTests", dependencies: ["LeadCore"]),
        .testTarget(name: "LeadEnrichTests", dependencies: ["LeadEnrich", "LeadTesting"]),
        .testTarget(name: "LeadEngineTests", dependencies: ["LeadEngine", "LeadCore", "LeadNormalize", "LeadConnectors", "LeadStore", "LeadTesting"]),
        .testTarget(name: "LeadReadersTests", dependencies: ["LeadReaders", "LeadTesting"]),
        .testTarget(name: "LeadNormalizeTests", dependencies: ["LeadNormalize", "LeadTesting"]),
        .testTarget(name: "LeadPortKitTests", dependencies: ["LeadPortKit", "LeadTesting"]),
        .testTarget(name: "LeadSyncTests", dependencies: ["LeadSync", "LeadEngine", "LeadCore", "LeadStore", "HTTPKit", "LeadTesting"]),
        .testTarget(name: "LeadStoreTests", dependencies: ["LeadStore", "LeadCore", "LeadTesting", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "LeadWritersTests", dependencies: ["LeadWriters", "LeadReaders", "LeadTesting"]),
        .testTarget(name: "HTTPKitTests", dependencies: ["HTTPKit", "LeadTesting"]),
        .testTarget(name: "LeadConnectorsTests", dependencies: ["LeadConnectors", "HTTPKit", "LeadTesting", "CLeadPQ"]),
        .testTarget(name: "LeadPrintTests", dependencies: ["LeadPrint", "LeadStore", "LeadCore"]),
        .testTarget(name: "LeadportCLITests", dependencies: ["LeadTesting", "LeadStore", "LeadConnectors", "HTTPKit", .product(name: "GRDB", package: "GRDB.swift")]),
    ],
    cxxLanguageStandard: .cxx17
)

// libFuzzer targets (docs/fuzzing.md): declared only when LEADPORT_FUZZ=1, so `swift build` and
// `make test` never see them. `make fuzz` builds them with -sanitize=fuzzer in .build-fuzz.
if Context.environment["LEADPORT_FUZZ"] == "1" {
    package.targets.append(.executableTarget(
        name: "leadport-fuzz",
        dependencies: ["LeadEngine", "LeadReaders", "LeadNormalize", "LeadCore"],
        path: "fuzz/Sources",
        swiftSettings: [.unsafeFlags(["-parse-as-library"])]
    ))
    package.products.append(.executable(name: "leadport-fuzz", targets: ["leadport-fuzz"]))
}
