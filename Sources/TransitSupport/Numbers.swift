import Foundation

public enum Numbers {
    /// `value` rounded to `places` decimals, for output.
    public static func round(_ value: Double, _ places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded() / scale
    }
}
