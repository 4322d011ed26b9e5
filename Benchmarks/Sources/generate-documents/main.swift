// generate-documents SHAPE BYTES FILE: writes a benchmark document of about BYTES bytes.
import BenchmarkDocuments

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let arguments = CommandLine.arguments
guard arguments.count == 4, let shape = Shape(rawValue: arguments[1]), let size = Int(arguments[2]) else {
    printError("usage: generate-documents \(Shape.allCases.map(\.rawValue).joined(separator: "|")) BYTES FILE")
    exit(2)
}
guard let file = fopen(arguments[3], "wb") else {
    printError("\(arguments[3]): cannot open for writing")
    exit(1)
}
do {
    try DocumentGenerator(shape: shape).generate(targetSize: size) { chunk in
        let written = chunk.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        if written != chunk.count { throw WriteError() }
    }
} catch {
    printError("\(arguments[3]): write failed")
    exit(1)
}
fclose(file)

struct WriteError: Error {}
