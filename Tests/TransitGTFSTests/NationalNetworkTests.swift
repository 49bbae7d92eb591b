import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

extension CPUBound {
    /// The national network of our own making (issue 47, `scripts/make-national-gtfs.py`) at 1/50
    /// size, generated once: what the script says it wrote is what the compiler reads, its
    /// calendar runs one variant of a trip a day, and the country is one network a rider crosses.
    @Suite struct NationalNetworkTests {
        struct Generated {
            var directory: String
            /// The script's own counts, from its last line.
            var counts: [String: Int]
        }

        static let fiftieth: Generated? = generate(seed: 1, scale: 0.02)

        /// Runs the generator; nil where it cannot (no python3).
        static func generate(seed: Int, scale: Double) -> Generated? {
            let out = Paths.temporary() + "/national"
            guard let said = RandomFeed.generateNational(seed: UInt64(seed), scale: scale, into: out) else { return nil }
            // "…: towns 80, stops 4906, …, weekday stop events 504788"
            var counts: [String: Int] = [:]
            for part in said.split(separator: ":").last?.split(separator: ",") ?? [] {
                let words = part.split(whereSeparator: \.isWhitespace)
                if words.count >= 2, let n = words.last.flatMap({ Int($0) }) { counts[words.dropLast().joined(separator: " ")] = n }
            }
            return Generated(directory: out, counts: counts)
        }

        @Test func theFiftiethIsWhatTheScriptSaysAndOneNetwork() throws {
            let generated = try #require(Self.fiftieth, "scripts/make-national-gtfs.py wrote no network (python3?)")
            let t = try GTFSCompiler.compile(try FeedFiles.open(generated.directory)).0
            let counts = generated.counts
            // Each town's street stops, and its station with two platforms.
            let towns = try #require(counts["towns"]), stops = try #require(counts["stops"])
            #expect(towns == 80 && (4_500...5_500).contains(stops), "\(counts)")
            #expect(t.stopCount == stops && t.routeCount == counts["routes"] && t.tripCount == counts["trips"]
                    && counts["stop_times rows"] == Int(t.sourceStopTimes), "\(counts)")

            // Stop events a day, trip by trip, as the compiled calendar runs them: a plain weekday
            // and a school-holiday weekday alike (the variant replaces its line's weekday trips),
            // the weekend half, a public holiday as the weekend.
            func events(_ day: LocalDate) -> Int {
                (0..<t.tripCount).reduce(0) { sum, trip in
                    t.serviceRuns(Int(t.tripService[trip]), day: day.dayNumber) ? sum + t.runs(ofTrip: trip).reduce(0) { $0 + t.patternLength($1.pattern) } : sum
                }
            }
            let weekday = events(LocalDate(year: 2027, month: 1, day: 12)), school = events(LocalDate(year: 2026, month: 12, day: 22))
            let saturday = events(LocalDate(year: 2027, month: 1, day: 16)), holiday = events(LocalDate(year: 2027, month: 5, day: 13))
            #expect(weekday == counts["weekday stop events"] && school == weekday, "weekday \(weekday), school holiday \(school), \(counts)")
            #expect(saturday < weekday * 6 / 10 && saturday > weekday * 4 / 10 && holiday == saturday, "Saturday \(saturday), holiday \(holiday)")
            // Half the lines write their weekday trips twice: the rows beyond one weekday and one
            // weekend are the variants.
            #expect(t.sourceStopTimes > weekday + saturday, "\(t.sourceStopTimes) rows")

            // From each of 12 towns' first street stop to another's, within 5 changes, a weekday
            // morning: every one is reached (one network, every stop one ride from its station).
            // `--earliest` there gives the first to arrive of the whole answer (issue 47, item 3).
            var g = SeededGenerator(seed: 47)
            let streetStops = (0..<t.stopCount).filter { t.stopIDs[$0].hasSuffix("_0_0") }
            #expect(streetStops.count == towns)
            var reached = 0
            func triples(_ journeys: [Router.Journey]) -> [[Int]] { journeys.map { [$0.departure, $0.arrival, $0.transfers] } }
            for _ in 0..<12 {
                let from = streetStops[g.int(0...streetStops.count - 1)], to = streetStops[g.int(0...streetStops.count - 1)]
                guard from != to else { reached += 1; continue }
                let query = Router.Query(origins: [from], destinations: [to], day: LocalDate(year: 2027, month: 1, day: 12).dayNumber,
                                         after: 7 * 3600, before: 9 * 3600, maxTransfers: 5, minTransfer: SearchDefaults.minTransferSeconds,
                                         walkMeters: SearchDefaults.walkMeters)
                let router = Router(t, query), whole = router.journeys()
                if !whole.isEmpty { reached += 1 }
                let byArrival = whole.sorted { ($0.arrival, $0.transfers, -$0.departure) < ($1.arrival, $1.transfers, -$1.departure) }
                for count in [1, 3] {
                    #expect(triples(router.earliest(count: count)) == triples(Array(byArrival.prefix(count))),
                            "\(t.stopIDs[from]) → \(t.stopIDs[to]): --earliest --limit \(count)")
                }
            }
            #expect(reached == 12, "\(reached) of 12 pairs reached")
        }

        /// The straight lines measured at import (`StraightLines`) are the script's: no ride covers
        /// its chord much faster than an intercity (45 m/s over 1.25 times the straight line, 36;
        /// measured 34.9, whole minutes rounded), and a change jumps no further than between a
        /// station's platforms, 40 m apart (the street stop beside it is 4 minutes away).
        @Test func theStraightLinesAreTheNetworksOwn() throws {
            let generated = try #require(Self.fiftieth, "scripts/make-national-gtfs.py wrote no network (python3?)")
            let t = try GTFSCompiler.compile(try FeedFiles.open(generated.directory)).0
            let speed = Double(t.straightLineSpeed) / 1000, gain = Double(t.straightLineChangeGain) / 1000
            #expect((30...60).contains(speed) && gain < 100, "\(speed) m/s, \(gain) m")
            // A stop's bound to itself is 0; across a country of 1/50 (about 90 by 120 km), tens of minutes.
            let bounds = TargetBounds.straightLines(t, destinations: [0], changes: 7)
            #expect(bounds.stop(0) == 0 && bounds.rising)
            let far = (0..<t.stopCount).max { bounds.stop($0) < bounds.stop($1) } ?? 0
            #expect(bounds.stop(far) > 1200, "the farthest stop \(t.stopIDs[far]) is \(bounds.stop(far)) s away")
        }

        /// The same seed and scale write the same bytes.
        @Test func theGeneratorIsDeterministic() throws {
            let first = try #require(Self.fiftieth), again = try #require(Self.generate(seed: 1, scale: 0.02))
            for name in ["stops.txt", "trips.txt", "stop_times.txt", "calendar_dates.txt", "transfers.txt"] {
                #expect(FileManager.default.contentsEqual(atPath: first.directory + "/" + name, andPath: again.directory + "/" + name), "\(name)")
            }
        }
    }
}
