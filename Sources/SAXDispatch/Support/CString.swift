// Expat's NUL-terminated UTF-8 strings, read without copying them first.

/// A C string from expat as a Swift string, or nil for a null pointer.
func string(_ pointer: UnsafePointer<CChar>?) -> String? {
    pointer.map(UTF8Text.string(cString:))
}

/// Whether the NUL-terminated C string `cString` holds exactly `bytes`: how attribute
/// names and values are compared with a pattern's without making a `String` of them.
func cStringEquals(_ cString: UnsafePointer<CChar>, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    return cString.withMemoryRebound(to: UInt8.self, capacity: bytes.count + 1) { candidate in
        while index < bytes.count {
            if candidate[index] != bytes[index] { return false }
            index += 1
        }
        return candidate[index] == 0
    }
}
