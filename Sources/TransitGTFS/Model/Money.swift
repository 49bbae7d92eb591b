import Foundation

/// Amounts of money as the fare files write them: decimal text read exactly into the currency's
/// minor units (cents, fils, yen), kept as whole numbers (in a Double: exact up to 2^53, and the
/// pricing adds and compares them as it did prices), printed with the currency's own decimals.
/// 0.1 + 0.2 is 30 cents, not 0.30000000000000004; KWD 0.125 is 125 fils, printed 0.125; JPY 420
/// is 420 yen, printed 420.
package enum Money {
    /// ISO 4217's minor units where they are not 2 (the standard's table, as of 2024): our own
    /// list, since Foundation's `NumberFormatter` differs between platforms.
    static let decimalsByCurrency: [String: Int] = [
        "BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0, "PYG": 0, "RWF": 0, "UGX": 0,
        "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
        "BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
        "CLF": 4, "UYW": 4,
    ]

    /// The digits after the point a currency's amounts have.
    package static func decimals(_ currency: String) -> Int { decimalsByCurrency[currency] ?? 2 }

    /// 10 to the power `decimals`: minor units in a major one.
    static func scale(_ decimals: Int) -> Int64 { (0..<decimals).reduce(1) { product, _ in product * 10 } }

    /// The largest amount read, in minor units: exact in a Double with room for any sum of a journey's parts.
    static let largest: Int64 = 1_000_000_000_000

    /// `text` (`4.60`, `-1.45`, `420`, `.5`) in minor units of a currency with `decimals` digits;
    /// nil for anything else: a sign of `+`, an exponent, hex, spaces, more decimals than the
    /// currency has (`4.605` in dollars; `420.00` in yen is 420, its zeros add nothing), or more
    /// than a trillion minor units.
    package static func minorUnits(_ text: UnsafeBufferPointer<UInt8>, decimals: Int) -> Double? {
        var k = 0, negative = false
        if k < text.count, text[k] == UInt8(ascii: "-") { negative = true; k += 1 }
        var whole: Int64 = 0, fraction: Int64 = 0, digits = 0, fractionDigits = 0, seenPoint = false
        while k < text.count {
            let byte = text[k]
            k += 1
            if byte == UInt8(ascii: "."), !seenPoint { seenPoint = true; continue }
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            let digit = Int64(byte - 0x30)
            digits += 1
            if seenPoint {
                fractionDigits += 1
                if fractionDigits > decimals {
                    guard digit == 0 else { return nil }
                    continue
                }
                fraction = fraction * 10 + digit
            } else {
                whole = whole * 10 + digit
                guard whole <= largest else { return nil }
            }
        }
        guard digits > 0 else { return nil }
        fraction *= scale(decimals - min(fractionDigits, decimals))
        let (product, overflow) = whole.multipliedReportingOverflow(by: scale(decimals))
        guard !overflow, product + fraction <= largest else { return nil }
        let minor = product + fraction
        return Double(negative ? -minor : minor)
    }

    /// An amount in minor units as the currency writes it: `4.65`, `0.125`, `420`, `-1.45`.
    package static func text(_ minor: Double, currency: String) -> String {
        let decimals = decimals(currency)
        let units = Int64(exactly: minor.rounded()) ?? 0, unit = UInt64(scale(decimals))
        let magnitude = units.magnitude, whole = magnitude / unit, fraction = magnitude % unit
        var out = (units < 0 ? "-" : "") + String(whole)
        if decimals > 0 {
            let digits = String(fraction)
            out += "." + String(repeating: "0", count: decimals - digits.count) + digits
        }
        return out
    }

    /// An amount in minor units as a number of the currency's major unit (JSON's `4.65`).
    package static func major(_ minor: Double, currency: String) -> Double {
        minor / Double(scale(decimals(currency)))
    }
}
