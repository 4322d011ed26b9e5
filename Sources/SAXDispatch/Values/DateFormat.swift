#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How a date field reads its text: ISO 8601 (the default), RFC 822 (RSS), seconds
/// since 1970, or your own function.
///
/// ```swift
/// .date("pubDate", format: .rfc822)
/// .date("updated")                                  // ISO 8601
/// .date("day", format: .custom { text in try parseMyFormat(text) })
/// ```
public struct DateFormat: Sendable {
    let parse: @Sendable (String) throws -> Date
    /// Names the format in error messages.
    let name: String

    /// A format of your own: a function from text to date that throws for bad text.
    public static func custom(_ name: String = "custom date", _ parse: @escaping @Sendable (String) throws -> Date)
        -> DateFormat
    {
        DateFormat(parse: parse, name: name)
    }

    /// ISO 8601: a date (`2024-03-01`) or a date and time (`2024-03-01T12:30`,
    /// `2024-03-01T12:30:05Z`, `2024-03-01T12:30:05.250+01:00`); seconds and fractional
    /// seconds optional, a space accepted for the `T`. Text without a time zone is read as UTC.
    public static let iso8601 = DateFormat(parse: { try ISO8601Reader.date(from: $0) }, name: "ISO 8601 date")

    /// RFC 822 / RFC 1123, as RSS uses it: `Tue, 10 Jun 2003 04:00:00 GMT`; the day name and
    /// the seconds optional, two-digit years read as 19xx/20xx, zones as `+hhmm`, `GMT`,
    /// `UT`, `Z` or the North American abbreviations (`EST`, `PDT`, …).
    public static let rfc822 = DateFormat(parse: { try RFC822Reader.date(from: $0) }, name: "RFC 822 date")

    /// A number of seconds since 1970-01-01T00:00:00Z, with an optional fraction, less
    /// than 10^14 either way (about three million years: beyond, no calendar date).
    public static let secondsSince1970 = DateFormat(
        parse: { text in
            // Decimal syntax only: not `Double(xmlText:)`, whose INF and NaN are no points in time.
            var text = text
            let seconds: Double? =
                switch text.withUTF8(DecimalSyntax.scan) {
                case .exact(let value): value
                case .decimal: Double(text)
                case .invalid: nil
                }
            guard let seconds else { throw ValueConversionError("expected seconds since 1970") }
            guard abs(seconds) < 1e14 else {
                throw ValueConversionError("seconds since 1970 beyond 10^14, about three million years")
            }
            return Date(timeIntervalSince1970: seconds)
        }, name: "seconds since 1970")

    /// Reads a date.
    /// - Throws: ``ValueConversionError`` (or your function's error) when the text is not a date in this format.
    public func date(from text: String) throws -> Date {
        try parse(text)
    }
}

/// Calendar arithmetic for the readers: days since 1970-01-01 in the proleptic Gregorian calendar.
enum CivilDate {
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func isValid(year: Int, month: Int, day: Int) -> Bool {
        guard (1...12).contains(month), day >= 1 else { return false }
        let lengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        return day <= lengths[month - 1] + (month == 2 && leap ? 1 : 0)
    }

    static func date(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, fraction: Double, offsetSeconds: Int
    ) throws -> Date {
        guard isValid(year: year, month: month, day: day) else { throw ValueConversionError("no such day") }
        guard hour <= 24, minute <= 59, second <= 60, hour < 24 || (minute == 0 && second == 0 && fraction == 0) else {
            throw ValueConversionError("no such time of day")
        }
        let seconds = days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSince1970: Double(seconds - offsetSeconds) + fraction)
    }
}

/// A cursor over ASCII bytes for the date readers.
struct DateScanner {
    let bytes: [UInt8]
    var index = 0

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    var isAtEnd: Bool { index == bytes.count }
    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func take(_ byte: Character) -> Bool {
        guard current == byte.asciiValue else { return false }
        index += 1
        return true
    }

    /// Exactly `count` digits, or nil.
    mutating func digits(_ count: Int) -> Int? {
        guard index + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[index..<index + count] {
            guard byte >= 48, byte <= 57 else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        index += count
        return value
    }

    /// One or more digits, as a count and value.
    mutating func someDigits(maximum: Int = 9) -> (count: Int, value: Int)? {
        var count = 0
        var value = 0
        while let byte = current, byte >= 48, byte <= 57, count < maximum {
            value = value * 10 + Int(byte - 48)
            count += 1
            index += 1
        }
        return count > 0 ? (count, value) : nil
    }

    mutating func skipSpaces() {
        while current == 0x20 || current == 0x09 { index += 1 }
    }

    /// Letters up to the next non-letter.
    mutating func word() -> String {
        let start = index
        while let byte = current, (byte | 0x20) >= 97, (byte | 0x20) <= 122 { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }
}

enum ISO8601Reader {
    static func date(from text: String) throws -> Date {
        let failure = ValueConversionError("expected an ISO 8601 date such as 2024-03-01 or 2024-03-01T12:30:00Z")
        var scanner = DateScanner(text)
        let negative = scanner.take("-")
        guard let year = scanner.digits(4), scanner.take("-"), let month = scanner.digits(2), scanner.take("-"),
            let day = scanner.digits(2)
        else { throw failure }
        var hour = 0
        var minute = 0
        var second = 0
        var fraction = 0.0
        var offset = 0
        if scanner.take("T") || scanner.take("t") || scanner.take(" ") {
            guard let h = scanner.digits(2), scanner.take(":"), let m = scanner.digits(2) else { throw failure }
            (hour, minute) = (h, m)
            if scanner.take(":") {
                guard let s = scanner.digits(2) else { throw failure }
                second = s
                if scanner.take(".") || scanner.take(",") {
                    let start = scanner.index
                    guard scanner.someDigits(maximum: 64) != nil else { throw failure }
                    let digits = String(decoding: scanner.bytes[start..<scanner.index], as: UTF8.self)
                    fraction = Double("0." + digits) ?? 0
                }
            }
            if scanner.take("Z") || scanner.take("z") {
                offset = 0
            } else if let sign = scanner.current, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                scanner.index += 1
                guard let offsetHours = scanner.digits(2) else { throw failure }
                _ = scanner.take(":")
                guard let offsetMinutes = scanner.digits(2), offsetHours <= 23, offsetMinutes <= 59 else { throw failure }
                offset = (offsetHours * 3600 + offsetMinutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
            }
        }
        guard scanner.isAtEnd else { throw failure }
        do {
            return try CivilDate.date(
                year: negative ? -year : year, month: month, day: day, hour: hour, minute: minute, second: second,
                fraction: fraction, offsetSeconds: offset)
        } catch {
            throw failure
        }
    }
}

enum RFC822Reader {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let zones: [String: Int] = [
        "gmt": 0, "ut": 0, "utc": 0, "z": 0, "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6,
        "pst": -8, "pdt": -7,
    ]

    static func date(from text: String) throws -> Date {
        let failure = ValueConversionError("expected an RFC 822 date such as Tue, 10 Jun 2003 04:00:00 GMT")
        var scanner = DateScanner(text)
        scanner.skipSpaces()
        // An optional day name and comma.
        let save = scanner.index
        if !scanner.word().isEmpty {
            guard scanner.take(",") else { throw failure }
            scanner.skipSpaces()
        } else {
            scanner.index = save
        }
        guard let day = scanner.someDigits(maximum: 2)?.value else { throw failure }
        scanner.skipSpaces()
        guard let month = months.firstIndex(of: scanner.word().lowercased()) else { throw failure }
        scanner.skipSpaces()
        guard let (yearDigits, rawYear) = scanner.someDigits(maximum: 4), yearDigits == 2 || yearDigits == 4 else {
            throw failure
        }
        let year = yearDigits == 4 ? rawYear : (rawYear < 50 ? 2000 + rawYear : 1900 + rawYear)
        scanner.skipSpaces()
        guard let hour = scanner.digits(2), scanner.take(":"), let minute = scanner.digits(2) else { throw failure }
        var second = 0
        if scanner.take(":") {
            guard let s = scanner.digits(2) else { throw failure }
            second = s
        }
        scanner.skipSpaces()
        var offset = 0
        if let sign = scanner.current, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            scanner.index += 1
            guard let hours = scanner.digits(2), let minutes = scanner.digits(2), minutes <= 59 else { throw failure }
            offset = (hours * 3600 + minutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
        } else {
            guard let hours = zones[scanner.word().lowercased()] else { throw failure }
            offset = hours * 3600
        }
        scanner.skipSpaces()
        guard scanner.isAtEnd else { throw failure }
        do {
            return try CivilDate.date(
                year: year, month: month + 1, day: day, hour: hour, minute: minute, second: second, fraction: 0,
                offsetSeconds: offset)
        } catch {
            throw failure
        }
    }
}
