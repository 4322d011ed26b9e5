// generate-documents SHAPE BYTES FILE [--japanese PERCENT] [--encoding NAME] [proportions]:
// writes a benchmark document of about BYTES bytes (of its UTF-8 form); zoo and zoo-ns can
// have Japanese text, and then be written in Shift_JIS, EUC-JP or GB18030 as well. The
// proportions (--text-percent, --extra-elements, --extra-attributes, --break-percent,
// --extra-depth, --namespace-uris, --record-namespaces, --reference-percent, and the flags
// --no-indentation and --self-closing-extras) move the shape away from its own; see `Proportions`.
import BenchmarkDocuments

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

func usage() -> Never {
    let shapes = Shape.allCases.map(\.rawValue).joined(separator: "|")
    let encodings = DocumentEncoding.allCases.map(\.rawValue).joined(separator: "|")
    printError(
        "usage: generate-documents \(shapes) BYTES FILE [--japanese PERCENT] [--encoding \(encodings)]"
            + " [--text-percent N] [--extra-elements N] [--extra-attributes N] [--break-percent N] [--extra-depth N]"
            + " [--namespace-uris N] [--record-namespaces N] [--reference-percent N] [--no-indentation]"
            + " [--self-closing-extras]")
    exit(2)
}

let arguments = CommandLine.arguments
guard arguments.count >= 4, let shape = Shape(rawValue: arguments[1]), let size = Int(arguments[2]) else { usage() }
var generator = DocumentGenerator(shape: shape)
var index = 4
while index < arguments.count {
    switch arguments[index] {
    case "--no-indentation":
        generator.proportions.noIndentation = true
        index += 1
        continue
    case "--self-closing-extras":
        generator.proportions.selfClosingExtras = true
        index += 1
        continue
    default:
        break
    }
    guard index + 1 < arguments.count else { usage() }
    switch arguments[index] {
    case "--japanese":
        guard let percent = Int(arguments[index + 1]), (0...100).contains(percent) else { usage() }
        generator.japanesePercent = percent
    case "--encoding":
        guard let encoding = DocumentEncoding(named: arguments[index + 1]) else { usage() }
        generator.encoding = encoding
    case "--text-percent", "--extra-elements", "--extra-attributes", "--break-percent", "--extra-depth",
        "--namespace-uris", "--record-namespaces", "--reference-percent":
        guard let value = Int(arguments[index + 1]), value >= 0 else { usage() }
        switch arguments[index] {
        case "--text-percent": generator.proportions.textPercent = value
        case "--extra-elements": generator.proportions.extraElements = value
        case "--extra-attributes": generator.proportions.extraAttributes = value
        case "--break-percent": generator.proportions.breakPercent = min(value, 100)
        case "--extra-depth": generator.proportions.extraDepth = value
        case "--record-namespaces": generator.proportions.recordNamespaces = value
        case "--reference-percent": generator.proportions.referencePercent = min(value, 100)
        default: generator.proportions.namespaceURIs = value
        }
    default:
        usage()
    }
    index += 2
}
guard let file = fopen(arguments[3], "wb") else {
    printError("\(arguments[3]): cannot open for writing")
    exit(1)
}
do {
    try generator.generate(targetSize: size) { chunk in
        let written = chunk.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        if written != chunk.count { throw WriteError() }
    }
} catch is WriteError {
    printError("\(arguments[3]): write failed")
    exit(1)
} catch {
    printError("\(arguments[3]): \(error)")
    exit(1)
}
fclose(file)

struct WriteError: Error {}
