import Foundation

/// Division by a number fixed for a whole search, as two multiplications: a search across days
/// splits a pattern's index into its day and its pattern that day, and a call's into its day and
/// its call, at every read, and the `div` instruction's latency was a tenth of a whole day's
/// time on dense81 (issue 67; perf). Lemire, Kaser and Kurz, "Faster remainder by direct
/// computation" (2019): for n and d below 2^32, d > 1, n / d is the high word of M·n with
/// M = ⌊(2^64 − 1) / d⌋ + 1, and n % d the high word of (M·n mod 2^64)·d. Other values (a
/// negative or larger n, d of 1 or past 2^32) are divided as usual.
package struct FastDivisor: Sendable {
    package let divisor: Int
    private let magic: UInt64

    package init(_ divisor: Int) {
        self.divisor = divisor
        magic = divisor > 1 && divisor <= Int(UInt32.max) ? UInt64.max / UInt64(divisor) &+ 1 : 0
    }

    /// (n / divisor, n % divisor), as Swift's operators give them; the divisor is not 0.
    @inline(__always) package func split(_ n: Int) -> (quotient: Int, remainder: Int) {
        guard magic != 0, n >= 0, n <= Int(UInt32.max) else { return (n / divisor, n % divisor) }
        let low = magic &* UInt64(truncatingIfNeeded: n)
        return (Int(truncatingIfNeeded: magic.multipliedFullWidth(by: UInt64(truncatingIfNeeded: n)).high),
                Int(truncatingIfNeeded: low.multipliedFullWidth(by: UInt64(truncatingIfNeeded: divisor)).high))
    }
}
