// swift-tools-version: 6.2
import PackageDescription

import class Foundation.ProcessInfo

/// Settings applied to every target, so the whole package is held to one standard.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// The library and executable targets also treat warnings as errors (test targets cannot: the
/// testing macros' own expansions warn), and `make lint` checks the formatting.
let strictSettings: [SwiftSetting] = swiftSettings + [.unsafeFlags(["-warnings-as-errors"])]

let package = Package(
    name: "pagerd",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "pagerd", targets: ["pagerd"]),
        // For clients: the model (prediction of a scroll's answer included), with no server code.
        .library(name: "PagerModel", targets: ["PagerModel", "JSON"]),
        // Prediction from pagerd's JSON documents as the JSON module parses them.
        .library(name: "PagerDocuments", targets: ["PagerDocuments", "PagerModel", "JSON"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.7.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // Linux's epoll, for the peer watcher (Glibc's module does not export it).
        .systemLibrary(name: "CEpoll"),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .target(name: "Locking"),
        .target(
            name: "MicroHTTP",
            dependencies: [
                "CMicroHTTPD", "CEpoll", "Locking", .product(name: "HTTPTypes", package: "swift-http-types"),
            ]),
        .target(name: "JSON"),
        .target(name: "PagerModel", dependencies: ["JSON"]),
        .target(name: "PagerDocuments", dependencies: ["JSON", "PagerModel"]),
        .target(name: "PagerSessions", dependencies: ["PagerModel", "Locking"]),
        .target(
            name: "PagerStorage", dependencies: ["CSQLite", "CLibPQ", "JSON", "Locking", "PagerModel", "PagerSessions"]),
        // Access tokens: the keys, verification under pagerd's rules and minting (JWTs through jwt-kit).
        .target(name: "PagerAccess", dependencies: ["JSON", .product(name: "JWTKit", package: "jwt-kit")]),
        .target(
            name: "PagerAPI",
            dependencies: [
                "MicroHTTP", "JSON", "Locking", "PagerModel", "PagerSessions", "PagerAccess",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            plugins: ["EmbedOpenAPI"]
        ),
        // openapi.json, the contract written by hand, compiled into PagerAPI at build time.
        .plugin(name: "EmbedOpenAPI", capability: .buildTool(), dependencies: ["EmbedText"]),
        .executableTarget(name: "EmbedText", path: "Plugins/EmbedText"),
        .target(
            name: "PagerApp",
            dependencies: [
                "MicroHTTP", "JSON", "PagerModel", "PagerSessions", "PagerAPI", "PagerStorage", "PagerAccess",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(name: "pagerd", dependencies: ["PagerApp"]),
        .target(
            name: "TestSupport",
            dependencies: [
                "Locking", "MicroHTTP", "PagerModel", "PagerSessions", "PagerAccess",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Tests/TestSupport"),
        .testTarget(
            name: "MicroHTTPTests",
            dependencies: [
                "Locking", "MicroHTTP", "TestSupport", .product(name: "HTTPTypes", package: "swift-http-types"),
            ]),
        .testTarget(name: "JSONTests", dependencies: ["JSON"]),
        .testTarget(
            name: "PagerModelTests",
            dependencies: ["PagerModel", "JSON", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "PagerAPITests",
            dependencies: [
                "PagerAPI", "PagerSessions", "PagerModel", "JSON", "MicroHTTP", "TestSupport", "PagerAccess",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]),
        .testTarget(name: "PagerAccessTests", dependencies: ["PagerAccess", "JSON", "TestSupport"]),
        .testTarget(
            name: "PredictionTests", dependencies: ["PagerDocuments", "PagerModel", "JSON", "TestSupport"]),
        .testTarget(name: "PagerSessionsTests", dependencies: ["PagerSessions", "PagerModel", "TestSupport"]),
        .testTarget(
            name: "PagerAppTests",
            dependencies: ["PagerApp", "TestSupport", .product(name: "Logging", package: "swift-log")]),
        .testTarget(
            name: "PagerStorageTests",
            dependencies: ["Locking", "PagerStorage", "PagerSessions", "PagerModel", "JSON", "TestSupport"]),
    ]
)

for target in package.targets where target.type != .system && target.type != .plugin {
    target.swiftSettings = (target.swiftSettings ?? []) + (target.type == .test ? swiftSettings : strictSettings)
}

// Micro-benchmarks stay out of the normal build: `make bench` sets PAGERD_BENCHMARKS.
if ProcessInfo.processInfo.environment["PAGERD_BENCHMARKS"] != nil {
    package.dependencies.append(
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]))
    package.targets.append(
        .executableTarget(
            name: "PagerBenchmarks",
            dependencies: [
                "JSON", "PagerModel", "PagerDocuments", "PagerSessions", "PagerAPI",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/PagerBenchmarks",
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ))
}

// Fuzz targets for libFuzzer stay out of the normal build: `make fuzz` sets PAGERD_FUZZ and builds
// them with `-sanitize=fuzzer,address` in .build-fuzz.
if ProcessInfo.processInfo.environment["PAGERD_FUZZ"] != nil {
    // `make fuzz` passes -sanitize=fuzzer to every target it builds, which would make the
    // EmbedText tool a fuzzer too (it no longer links): the fuzz build leaves the plugin out, and
    // its PagerAPI serves an empty document at /openapi.json (OpenAPIDocument.swift).
    for target in package.targets where target.name == "PagerAPI" {
        target.plugins = []
        target.swiftSettings = (target.swiftSettings ?? []) + [.define("PAGERD_WITHOUT_OPENAPI")]
    }
    package.targets.append(contentsOf: [
        .target(name: "FuzzSupport", path: "Fuzz/FuzzSupport", swiftSettings: swiftSettings),
        .executableTarget(
            name: "FuzzJSON", dependencies: ["FuzzSupport", "JSON"], path: "Fuzz/FuzzJSON", swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "FuzzRequests",
            dependencies: [
                "FuzzSupport", "JSON", "MicroHTTP", "PagerModel", "PagerSessions", "PagerAPI",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Fuzz/FuzzRequests", swiftSettings: swiftSettings),
    ])
}
