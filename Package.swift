// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "SAXDispatch",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "SAXDispatch", targets: ["SAXDispatch"]),
        // Inputs made of Foundation types (FileHandle), kept out of the core, which imports
        // only FoundationEssentials on Linux.
        .library(name: "SAXDispatchFoundation", targets: ["SAXDispatchFoundation"]),
        // Compressed input (gzip, bzip2, xz, zstd) over the system's libraries, kept out of
        // the core so that it depends on libexpat and the toolchain only.
        .library(name: "SAXDispatchCompression", targets: ["SAXDispatchCompression"]),
        .executable(name: "saxdispatch", targets: ["saxdispatch"]),
    ],
    dependencies: [
        // Used by the command-line tool only; the library depends on libexpat and the toolchain.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CExpat",
            pkgConfig: "expat",
            providers: [.apt(["libexpat1-dev"]), .brew(["expat"])]
        ),
        // Expat's heap budget: allocation functions for XML_ParserCreate_MM (C, no dependency).
        .target(name: "CExpatMemory"),
        .target(
            name: "SAXDispatch",
            dependencies: ["CExpat", "CExpatMemory"],
            // The encodings expat does not read itself go through iconv: part of the C library
            // on Linux, a library of its own (libiconv) on Apple platforms.
            linkerSettings: [.linkedLibrary("iconv", .when(platforms: [.macOS, .iOS, .tvOS, .watchOS, .visionOS]))]
        ),
        .target(name: "SAXDispatchFoundation", dependencies: ["SAXDispatch"]),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        // Debian's libbz2-dev has no pkg-config file: the header is on the default path.
        .systemLibrary(name: "CBzip2", providers: [.apt(["libbz2-dev"]), .brew(["bzip2"])]),
        .systemLibrary(
            name: "CLzma",
            pkgConfig: "liblzma",
            providers: [.apt(["liblzma-dev"]), .brew(["xz"])]
        ),
        // libzstd loaded at run time (dlopen): machines often have the library but not its headers.
        .target(name: "CZstdLoader", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        .target(
            name: "SAXDispatchCompression",
            dependencies: ["SAXDispatch", "CZlib", "CBzip2", "CLzma", "CZstdLoader"]
        ),
        // The command-line tool's logic, kept in a library so tests can call it directly.
        .target(
            name: "SAXDispatchTools",
            dependencies: ["SAXDispatch", "SAXDispatchCompression"]
        ),
        .executableTarget(
            name: "saxdispatch",
            dependencies: [
                "SAXDispatchTools",
                "SAXDispatchCompression",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "ZooExample", dependencies: ["SAXDispatch"], path: "Examples/Zoo"),
        .executableTarget(name: "BordersExample", dependencies: ["SAXDispatch"], path: "Examples/Borders"),
        .executableTarget(name: "FeedExample", dependencies: ["SAXDispatch"], path: "Examples/Feed"),
        .executableTarget(
            name: "RecurlyAccountExample", dependencies: ["SAXDispatch"], path: "Examples/RecurlyAccount"),
        .executableTarget(name: "WikiDumpExample", dependencies: ["SAXDispatch"], path: "Examples/WikiDump"),
        .executableTarget(name: "WikiFilterExample", dependencies: ["SAXDispatch"], path: "Examples/WikiFilter"),
        // What both test targets share: fixture paths, temporary files, running the built tool.
        .target(name: "SAXDispatchTestSupport", path: "Tests/TestSupport", resources: [.copy("Resources")]),
        .testTarget(
            name: "SAXDispatchTests",
            dependencies: [
                "SAXDispatch", "SAXDispatchFoundation", "SAXDispatchCompression", "SAXDispatchTools", "SAXDispatchTestSupport",
                "CExpat",
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "SAXDispatchCommandLineTests",
            dependencies: ["SAXDispatch", "SAXDispatchTools", "SAXDispatchTestSupport"]
        ),
        .testTarget(
            name: "SAXDispatchCompressionTests",
            dependencies: ["SAXDispatch", "SAXDispatchCompression", "SAXDispatchTools", "SAXDispatchTestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "ExamplesTests",
            dependencies: ["ZooExample", "BordersExample", "FeedExample", "RecurlyAccountExample", "WikiDumpExample",
                "WikiFilterExample", "SAXDispatchTools",
            ],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
