// swift-tools-version: 6.1
// The benchmark package: its own package, so that users of SAXDispatch never
// resolve benchmark dependencies. Run `Benchmarks/run` (see the README).
import PackageDescription

let package = Package(
    name: "SAXDispatchBenchmarks",
    platforms: [.macOS(.v13)],
    products: [
        // Loaded with LD_PRELOAD by the runner to count a contender's allocations.
        .library(name: "MallocCounter", type: .dynamic, targets: ["MallocCounter"]),
    ],
    dependencies: [
        .package(name: "SAXDispatch", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/drmohundro/SWXMLHash", exact: "8.1.1"),
        .package(url: "https://github.com/CoreOffice/XMLCoder", exact: "0.18.2"),
    ],
    targets: [
        .target(name: "BenchmarkDocuments"),
        // DWARF 4: valgrind 3.19 (Debian 12) cannot read the toolchain's default DWARF 5.
        .target(
            name: "CExpatTasks", cSettings: [.unsafeFlags(["-gdwarf-4"])], linkerSettings: [.linkedLibrary("expat")]),
        .target(name: "MallocCounter"),
        .executableTarget(name: "generate-documents", dependencies: ["BenchmarkDocuments"]),
        .executableTarget(name: "measure"),
        .executableTarget(
            name: "contender-c-expat", dependencies: ["CExpatTasks"], cSettings: [.unsafeFlags(["-gdwarf-4"])]),
        .executableTarget(
            name: "contender-saxdispatch",
            dependencies: ["BenchmarkDocuments", .product(name: "SAXDispatch", package: "SAXDispatch")]),
        // A per-byte async source against the same bytes in chunks (Results/AsyncBytes.md).
        .executableTarget(
            name: "async-bytes", dependencies: [.product(name: "SAXDispatch", package: "SAXDispatch")]),
        .executableTarget(name: "contender-foundation", dependencies: ["BenchmarkDocuments"]),
        .executableTarget(
            name: "contender-swxmlhash",
            dependencies: ["BenchmarkDocuments", .product(name: "SWXMLHash", package: "SWXMLHash")]),
        // The writing benchmark (`run --writing`): the same records written by each.
        .executableTarget(
            name: "writer-saxdispatch",
            dependencies: ["BenchmarkDocuments", .product(name: "SAXDispatch", package: "SAXDispatch")]),
        .executableTarget(name: "writer-foundation", dependencies: ["BenchmarkDocuments"]),
        .executableTarget(
            name: "writer-xmlcoder",
            dependencies: ["BenchmarkDocuments", .product(name: "XMLCoder", package: "XMLCoder")]),
        .executableTarget(
            name: "contender-xmlcoder",
            dependencies: ["BenchmarkDocuments", .product(name: "XMLCoder", package: "XMLCoder")]),
        // In-process measurements with ordo-one/benchmark: `swift package benchmark`.
        .executableTarget(
            name: "SAXDispatchBenchmarks",
            dependencies: [
                "BenchmarkDocuments", "CExpatTasks",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "SAXDispatch", package: "SAXDispatch"),
            ],
            path: "Benchmarks/SAXDispatchBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
