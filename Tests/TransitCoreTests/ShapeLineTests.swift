import Foundation
import Testing
@testable import TransitCore
import TransitSupport

/// Issue 45, item 2, through the binary: a journey's GeoJSON is a MultiLineString, a line a leg,
/// each ride along its trip's shape from its boarding stop to its alighting stop; `--geometry`
/// gives each leg's line in JSON as an encoded polyline.
@Suite struct ShapeLineTests {
    /// A file's rows as dictionaries (the pack's CSVs here hold no comma inside a field; BART's
    /// quote every field).
    static func rows(_ path: String) throws -> [[String: String]] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(whereSeparator: \.isNewline)
        func fields(_ line: Substring) -> [String] {
            line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" \r")) }
        }
        guard let head = lines.first else { return [] }
        let keys = fields(head)
        return lines.dropFirst().map { Dictionary(zip(keys, fields($0))) { a, _ in a } }
    }

    static func meters(_ line: [[Double]]) -> Double {
        zip(line, line.dropFirst()).reduce(0) { total, pair in
            total + Coordinate(latitude: pair.0[1], longitude: pair.0[0]).meters(to: Coordinate(latitude: pair.1[1], longitude: pair.1[0]))
        }
    }

    /// Each ride's line of `features`: (its leg's record, its coordinates).
    static func rides(_ run: Run) throws -> [(leg: [String: Any], line: [[Double]])] {
        let collection = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stderr)")
        var out: [(leg: [String: Any], line: [[Double]])] = []
        for feature in collection["features"] as? [[String: Any]] ?? [] {
            let geometry = try #require(feature["geometry"] as? [String: Any])
            #expect(geometry["type"] as? String == "MultiLineString")
            let lines = try #require(geometry["coordinates"] as? [[[Double]]])
            let legs = try #require((feature["properties"] as? [String: Any])?["legs"] as? [[String: Any]])
            #expect(lines.count == legs.count, "a line a leg")
            for (leg, line) in zip(legs, lines) where leg["mode"] as? String == "ride" { out.append((leg, line)) }
        }
        return out
    }

    /// BART 2022: each ride's line starts at its boarding stop and ends at its alighting stop,
    /// and is as long as stop_times.txt's shape_dist_traveled says the ride is (in feet there,
    /// read by hand here), within 2 % + 150 m.
    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func bartsRidesFollowTheirShapes() async throws {
        let dir = Reference.path("realdata/bart_gtfs/gtfs-lite_2022/unz")
        let env = Run.environment()
        #expect(try await Run.transit(["gtfs", "import", dir, "--name", "bart"], env: env).status == 0)
        let stopTimes = try Self.rows(dir + "/stop_times.txt"), stops = try Self.rows(dir + "/stops.txt")
        var checked = 0
        for (from, to) in [("24TH", "MLBR"), ("DUBL", "EMBR"), ("RICH", "FRMT"), ("ANTC", "SFIA")] {
            let run = try await Run.transit(["gtfs", "trips", "--from", from, "--to", to, "--date", "2022-10-12", "--after", "08:00", "--limit", "2",
                                             "--format", "geojson"], env: env)
            for (leg, line) in try Self.rides(run) {
                let trip = try #require(leg["trip_id"] as? String), board = try #require(leg["from"] as? String), alight = try #require(leg["to"] as? String)
                let calls = stopTimes.filter { $0["trip_id"] == trip }.sorted { Int($0["stop_sequence"] ?? "") ?? 0 < Int($1["stop_sequence"] ?? "") ?? 0 }
                let a = try #require(calls.firstIndex { $0["stop_id"] == board }), b = try #require(calls.indices.first { $0 > a && calls[$0]["stop_id"] == alight })
                let feet = (Double(calls[b]["shape_dist_traveled"] ?? "") ?? 0) - (Double(calls[a]["shape_dist_traveled"] ?? "") ?? 0)
                let expected = feet * 0.3048, length = Self.meters(line)
                #expect(abs(length - expected) <= 0.02 * expected + 150, "\(trip) \(board)→\(alight): \(Int(length)) m drawn, \(Int(expected)) m by stop_times")
                for (stop, point) in [(board, line.first), (alight, line.last)] {
                    let record = try #require(stops.first { $0["stop_id"] == stop })
                    #expect(point == [Double(record["stop_lon"] ?? "") ?? 0, Double(record["stop_lat"] ?? "") ?? 0], "\(stop)")
                }
                #expect(line.count > calls[a...b].count, "along the shape, not stop to stop")
                checked += 1
            }
        }
        #expect(checked >= 8)
    }

    /// OpenTripPlanner's shape_dist_traveled case: on trip shape_dist_ok the stop_times and shapes
    /// distances agree (kilometres); on shape_dist_ahead stop_times' run ahead of the geometry, so
    /// the length is the boarding stop's nearest point along the shape to the last (projected
    /// here, independently: each segment's nearest point).
    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func otpsTripsAreAsLongAsTheirShapeSays() async throws {
        let dir = Reference.feed("otp-shape_dist_traveled")
        let env = Run.environment()
        let ok = try Self.rides(try await Run.transit(["gtfs", "trips", "--feed", dir, "--from", "211763", "--to", "92777", "--date", "2022-08-14",
                                                        "--format", "geojson"], env: env))
        #expect(ok.count == 1 && ok.first?.leg["trip_id"] as? String == "shape_dist_ok")
        let okLength = Self.meters(try #require(ok.first?.line))
        #expect(abs(okLength - 33_671.1) <= 0.02 * 33_671.1 + 150, "\(okLength)")
        let ahead = try Self.rides(try await Run.transit(["gtfs", "trips", "--feed", dir, "--from", "92776", "--to", "186632", "--date", "2022-08-15",
                                                           "--format", "geojson"], env: env))
        #expect(ahead.count == 1 && ahead.first?.leg["trip_id"] as? String == "shape_dist_ahead")
        // The shape (286) as a line, and Kuusa E (92776) projected onto it.
        let points = try Self.rows(dir + "/shapes.txt").filter { $0["shape_id"] == "286" }
            .sorted { Int($0["shape_pt_sequence"] ?? "") ?? 0 < Int($1["shape_pt_sequence"] ?? "") ?? 0 }
            .map { [Double($0["shape_pt_lon"] ?? "") ?? 0, Double($0["shape_pt_lat"] ?? "") ?? 0] }
        let stop = [25.942705, 62.454511], kx = cos(62.45 * .pi / 180)
        var best = (distance: Double.infinity, index: 0, point: [Double]())
        for j in 0..<(points.count - 1) {
            let a = points[j], b = points[j + 1], vx = (b[0] - a[0]) * kx, vy = b[1] - a[1]
            let f = max(0, min(1, ((stop[0] - a[0]) * kx * vx + (stop[1] - a[1]) * vy) / max(1e-18, vx * vx + vy * vy)))
            let p = [a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1])]
            let d = hypot((p[0] - stop[0]) * kx, p[1] - stop[1])
            if d < best.distance { best = (d, j, p) }
        }
        let along = Self.meters([best.point] + Array(points[(best.index + 1)...]))
        let drawn = Self.meters(try #require(ahead.first?.line))
        #expect(abs(drawn - along) <= 0.02 * along + 150, "\(Int(drawn)) m drawn, \(Int(along)) m along the shape from the stop's nearest point")
    }

    /// `--geometry`: each leg's line in JSON, an encoded polyline; decoded, the GeoJSON's line
    /// to 1e-5 degrees. Without it, no geometry.
    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func theGeometryIsTheGeoJSONsLine() async throws {
        let dir = Reference.feed("otp-shape_dist_traveled")
        let query = ["gtfs", "trips", "--feed", dir, "--from", "211763", "--to", "92777", "--date", "2022-08-14"]
        let json = try await Run.transit(query + ["--geometry", "--format", "json"], env: Run.environment())
        let leg = try #require((try json.records().first?["legs"] as? [[String: Any]])?.first)
        let decoded = Self.decode(try #require(leg["geometry"] as? String))
        let line = try #require(try Self.rides(try await Run.transit(query + ["--format", "geojson"], env: Run.environment())).first?.line)
        #expect(decoded.count == line.count)
        #expect(zip(decoded, line).allSatisfy { abs($0.0 - $1[1]) < 6e-6 && abs($0.1 - $1[0]) < 6e-6 })
        let plain = try await Run.transit(query + ["--format", "json"], env: Run.environment())
        #expect((try plain.records().first?["legs"] as? [[String: Any]])?.first?["geometry"] == nil)
    }

    /// Google's own example: (38.5, −120.2), (40.7, −120.95), (43.252, −126.453).
    @Test func polylinesEncodeAsGooglesExampleSays() {
        #expect(Polyline.encode([(38.5, -120.2), (40.7, -120.95), (43.252, -126.453)]) == "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
        #expect(Self.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@").map { [$0.0, $0.1] } == [[38.5, -120.2], [40.7, -120.95], [43.252, -126.453]])
        #expect(Polyline.encode([]) == "")
    }

    /// The test's own decoder (the algorithm read the other way).
    static func decode(_ text: String) -> [(Double, Double)] {
        var values: [Int] = [], value = 0, shift = 0
        for byte in text.utf8 {
            let chunk = Int(byte) - 63
            value |= (chunk & 0x1F) << shift
            shift += 5
            if chunk < 0x20 {
                values.append(value & 1 == 1 ? ~(value >> 1) : value >> 1)
                value = 0
                shift = 0
            }
        }
        var out: [(Double, Double)] = [], lat = 0, lon = 0
        var k = 0
        while k + 1 < values.count {
            lat += values[k]
            lon += values[k + 1]
            out.append((Double(lat) / 1e5, Double(lon) / 1e5))
            k += 2
        }
        return out
    }
}
