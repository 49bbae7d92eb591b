import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

/// `FastDivisor` (issue 67) against Swift's `/` and `%`: every divisor up to 1,000 and random
/// ones up to 2^32 − 1, at the ends of the range it multiplies (0, d − 1, d, 2^31 − 1,
/// 2^32 − 1) and at random values below 2^32; past it (2^32 and more, negative) it divides.
@Suite struct FastDivisorTests {
    @Test func itSplitsAsDivisionDoes() {
        var random = SplitMix(seed: 67)
        let divisors = Array(1...1_000) + (0..<2_000).map { _ in Int(random.next() % UInt64(UInt32.max)) + 1 } + [Int(UInt32.max), Int(UInt32.max) + 1, 1 << 40]
        var wrong = 0
        for d in divisors {
            let divisor = FastDivisor(d)
            let values = [0, 1, d - 1, d, d + 1, 2 * d - 1, Int(Int32.max), Int(UInt32.max) - 1, Int(UInt32.max), Int(UInt32.max) + 1, 1 << 45, -1, -d]
                + (0..<50).map { _ in Int(random.next() % (UInt64(UInt32.max) + 1)) }
            for n in values where divisor.split(n) != (n / d, n % d) {
                if wrong < 5 { Issue.record("\(n) split by \(d): \(divisor.split(n)), not \((n / d, n % d))") }
                wrong += 1
            }
        }
        #expect(wrong == 0)
    }
}
