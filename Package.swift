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
/// testing macros' own expansions warn), and `make lint` checks the formatting. This is the
/// package manager's own warning setting, not `unsafeFlags`: an app may depend on this package by
/// version (for `PagerClient`), which SwiftPM refuses for a target with unsafe flags, and SwiftPM
/// applies the setting only when this package is the one being built, never in an app's build.
let strictSettings: [SwiftSetting] = swiftSettings + [.treatAllWarnings(as: .error)]

/// The Apple platforms whose own HTTP stack (URLSession) carries the client; the others use
/// AsyncHTTPClient (docs/swift-client.md, «The transport»).
let applePlatforms: [Platform] = [.macOS, .macCatalyst, .iOS, .tvOS, .watchOS, .visionOS]

let package = Package(
    name: "pagerd",
    // The client's floor (docs/swift-client.md). The server targets build and run on Linux only
    // (libmicrohttpd, Task.immediate, Synchronization): they are never built for an app.
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .executable(name: "pagerd", targets: ["pagerd"]),
        // What an app depends on: typed requests, events and the façade; none of the server.
        .library(name: "PagerClient", targets: ["PagerdClient"]),
        .executable(name: "pagerctl", targets: ["pagerctl"]),
        // The model (prediction of a scroll's answer included), with no server code.
        .library(name: "PagerModel", targets: ["PagerModel", "JSON"]),
        // Prediction from pagerd's JSON documents as the JSON module parses them, read with the
        // server's own reader of the settings (PagerWire).
        .library(name: "PagerDocuments", targets: ["PagerDocuments", "PagerWire", "PagerModel", "JSON"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        // The client (PagerClient): the generated code's runtime and one transport per platform.
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.0"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession.git", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client.git", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.100.0"),
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
        .target(name: "PagerDocuments", dependencies: ["JSON", "PagerModel", "PagerWire"]),
        // The pager's values in JSON: the typed reader (request bodies, templates, stored records,
        // settings documents) and the one codec of the settings.
        .target(name: "PagerWire", dependencies: ["JSON", "PagerModel"]),
        .target(name: "PagerSessions", dependencies: ["PagerModel", "Locking"]),
        .target(
            name: "PagerStorage",
            dependencies: ["CSQLite", "CLibPQ", "JSON", "Locking", "PagerModel", "PagerSessions", "PagerWire"]),
        // Access tokens: the keys, verification under pagerd's rules and minting (JWTs through jwt-kit).
        .target(name: "PagerAccess", dependencies: ["JSON", .product(name: "JWTKit", package: "jwt-kit")]),
        .target(
            name: "PagerAPI",
            dependencies: [
                "MicroHTTP", "JSON", "Locking", "PagerModel", "PagerSessions", "PagerWire", "PagerAccess",
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
        // The Swift client: openapi.json's types and operations, generated by
        // tools/generate-client.sh and committed, behind the PagerClient façade, which predicts
        // scrolls with the model (PagerDocuments, PagerWire, PagerModel, JSON: pure Swift, none of
        // the server).
        .target(
            name: "PagerdOpenAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .target(
            name: "PagerdClient",
            dependencies: [
                "PagerdOpenAPI", "PagerDocuments", "PagerModel", "JSON",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(
                    name: "OpenAPIURLSession", package: "swift-openapi-urlsession",
                    condition: .when(platforms: applePlatforms)),
                .product(
                    name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client",
                    condition: .when(platforms: [.linux, .android])),
                .product(
                    name: "AsyncHTTPClient", package: "async-http-client",
                    condition: .when(platforms: [.linux, .android])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(platforms: [.linux, .android])),
            ]
        ),
        .executableTarget(name: "pagerctl", dependencies: ["PagerdClient"]),
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
                "PagerAPI", "PagerSessions", "PagerModel", "PagerWire", "JSON", "Locking", "MicroHTTP",
                "TestSupport", "PagerAccess",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]),
        .testTarget(name: "PagerAccessTests", dependencies: ["PagerAccess", "JSON", "TestSupport"]),
        .testTarget(
            name: "PredictionTests", dependencies: ["PagerDocuments", "PagerWire", "PagerModel", "JSON", "TestSupport"]),
        .testTarget(
            name: "PagerSessionsTests",
            dependencies: [
                "PagerSessions", "PagerModel", "JSON", "TestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]),
        .testTarget(
            name: "PagerAppTests",
            dependencies: ["PagerApp", "MicroHTTP", "TestSupport", .product(name: "Logging", package: "swift-log")]),
        .testTarget(
            name: "PagerStorageTests",
            dependencies: [
                "Locking", "PagerStorage", "PagerSessions", "PagerModel", "PagerWire", "JSON", "TestSupport",
            ]),
        // The client against the real server (started as a process), pagerctl, and an app package
        // outside the repository that depends on this one.
        .testTarget(
            name: "PagerdClientTests",
            dependencies: [
                "PagerdClient", "TestSupport", "PagerAccess",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]),
    ]
)

// The generated code is held to the settings but not to warnings as errors: each generated file
// imports Foundation and OpenAPIRuntime publicly whether it uses them or not, which Swift 6.3
// warns about (the generator silences that warning itself only from Swift 6.4 on).
for target in package.targets where target.type != .system && target.type != .plugin {
    let strict = target.type != .test && target.name != "PagerdOpenAPI"
    target.swiftSettings = (target.swiftSettings ?? []) + (strict ? strictSettings : swiftSettings)
}

// The sanitizer builds (`make test-tsan`, `make test-asan`) leave the client out
// (PAGERD_WITHOUT_CLIENT): it would add a build of SwiftNIO and AsyncHTTPClient under each
// sanitizer to CI for code that talks to the server only through them; `make test` runs its tests.
if ProcessInfo.processInfo.environment["PAGERD_WITHOUT_CLIENT"] != nil {
    let client: Set<String> = ["PagerdOpenAPI", "PagerdClient", "pagerctl", "PagerdClientTests"]
    package.targets.removeAll { client.contains($0.name) }
    package.products.removeAll { $0.name == "PagerClient" || $0.name == "pagerctl" }
    let clientPackages = [
        "swift-openapi-runtime", "swift-openapi-urlsession", "swift-openapi-async-http-client", "async-http-client",
        "swift-nio.git",
    ]
    package.dependencies.removeAll { dependency in
        guard case .sourceControl(_, let location, _) = dependency.kind else { return false }
        return clientPackages.contains { location.hasSuffix("/\($0)") || location.hasSuffix("/\($0).git") }
    }
}

// Micro-benchmarks stay out of the normal build: `make bench` sets PAGERD_BENCHMARKS.
if ProcessInfo.processInfo.environment["PAGERD_BENCHMARKS"] != nil {
    package.dependencies.append(
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]))
    package.targets.append(
        .executableTarget(
            name: "PagerBenchmarks",
            dependencies: [
                "JSON", "PagerModel", "PagerDocuments", "PagerSessions", "PagerAPI", "PagerWire",
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
