/// The encoded polyline of Google's Maps APIs (precision 5), as OpenTripPlanner's `legGeometry`
/// and MOTIS write a leg's line: each point's change from the one before, in 1e-5 degrees,
/// zigzag-encoded in 5-bit chunks offset by 63.
package enum Polyline {
    package static func encode(_ points: [(latitude: Double, longitude: Double)]) -> String {
        var out: [UInt8] = []
        var last = (0, 0)
        for point in points where point.latitude.isFinite && point.longitude.isFinite {
            let here = (Int((point.latitude * 1e5).rounded()), Int((point.longitude * 1e5).rounded()))
            chunks(here.0 - last.0, into: &out)
            chunks(here.1 - last.1, into: &out)
            last = here
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func chunks(_ delta: Int, into out: inout [UInt8]) {
        var value = UInt64(bitPattern: Int64(delta < 0 ? ~(delta << 1) : delta << 1))
        while value >= 0x20 {
            out.append(UInt8(0x20 | (value & 0x1F)) + 63)
            value >>= 5
        }
        out.append(UInt8(value) + 63)
    }
}
