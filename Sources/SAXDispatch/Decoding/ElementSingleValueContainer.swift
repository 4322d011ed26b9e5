/// Reads one value: an element's text, an attribute's value, a token.
struct ElementSingleValueContainer: SingleValueDecodingContainer {
    let decoder: ElementDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.isNil }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(T.self) }

    func decode(_ type: Bool.Type) throws -> Bool { try decoder.convert(Bool.self) }
    func decode(_ type: String.Type) throws -> String { try decoder.convert(String.self) }
    func decode(_ type: Double.Type) throws -> Double { try decoder.convert(Double.self) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.convert(Float.self) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.convert(Int.self) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.convert(Int8.self) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.convert(Int16.self) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.convert(Int32.self) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.convert(Int64.self) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.convert(UInt.self) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.convert(UInt8.self) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.convert(UInt16.self) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.convert(UInt32.self) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.convert(UInt64.self) }
}
