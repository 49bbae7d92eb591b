import Foundation

public enum Numbers {
    /// `value` rounded to `places` decimals, for output.
    public static func round(_ value: Double, _ places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded() / scale
    }

    /// `5000000` as a reader counts it, `5,000,000` (limits in messages).
    public static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (k, c) in digits.enumerated() {
            if k > 0 && (digits.count - k) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (value < 0 ? "-" : "") + out
    }
}

extension Int {
    /// `value` rounded toward minus infinity, total on any Double: NaN is 0, and values beyond
    /// ±2^62 stop there (`Int(Double)` traps on outside data: a GTFS-Realtime time of −9.2e18,
    /// a coordinate of 1e14).
    public init(saturating value: Double) {
        let limit = 4.611686018427388e18  // 2^62, exactly representable
        guard !value.isNaN else { self = 0; return }
        self = Int(Swift.min(Swift.max(value.rounded(.down), -limit), limit))
    }
}
