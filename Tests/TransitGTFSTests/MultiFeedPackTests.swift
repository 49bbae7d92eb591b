import Foundation
import Testing

/// The 19 multi-feed cases of ../shared/reference/gtfs-multi/TESTS.md, through the binary: the
/// pack's feeds imported under their names, each query asked as a user would, and the
/// (departure, arrival, transfers) triples compared with expected/T*.txt (its legs show one
/// representative per triple, so the triples are what is asserted, as TESTS.md says).
@Suite(.enabled(if: Reference.isPresent, Reference.absent))
struct MultiFeedPackTests {
    static let pack = "gtfs-multi/"

    /// A pair's two feeds under the names its ids carry (`bart`, `caltrain`), imported into a
    /// cache of its own, once for every case of the pair.
    final class Pair: Sendable {
        let feeds: [(name: String, path: String)]
        let environment: [String: String]

        init(_ feeds: [(name: String, path: String)]) {
            self.feeds = feeds
            environment = Run.environment()
            for (name, path) in feeds {
                let source = path.hasPrefix("../") ? Reference.path("gtfs/" + path.dropFirst(3)) : Reference.path(MultiFeedPackTests.pack + path)
                _ = try? Run.blockingTransit(["gtfs", "import", source, "--name", name], env: environment, interruptAfter: nil)
            }
        }

        var options: [String] { feeds.flatMap { ["--feed", $0.name] } }
    }

    static let A = Pair([("bart", "feeds/bart-2018/bart.zip"), ("caltrain", "feeds/caltrain-2018/caltrain.zip")])
    static let B = Pair([("bart", "feeds/bart-2023/bart-new.zip"), ("egr", "feeds/emerygoround-2023/eg.zip")])
    static let C = Pair([("cobb", "feeds/cobblinc-30-2021/cobblinc-bus-30-only.gtfs.zip"), ("marta", "feeds/marta-856-2021/marta-bus-856-only.gtfs.zip")])
    static let D = Pair([("v764", "feeds/vvs-764-2020/vvs-bus-764-only.gtfs.zip"), ("v752", "feeds/vvs-751-2020/vvs-bus-751-only.gtfs.zip")])
    static let E = Pair([("gtfs_0", "feeds/gh-sample-feed"), ("gtfs_1", "feeds/gh-another-sample-feed")])
    static let F = Pair([("bart", "feeds/bart-2016/bart.zip"), ("caltrain", "../feeds/caltrain-20160406/caltrain_20160406.zip")])

    /// TESTS.md's queries; `caltrain:*Palo Alto*` (a name in one feed) is written `caltrain:Palo Alto`.
    static let cases: [(id: String, pair: Pair, args: [String])] = [
        ("T1", A, ["--from", "bart:EMBR", "--to", "caltrain:Palo Alto", "--date", "2018-10-03", "--after", "07:00", "--before", "09:00"]),
        ("T2", A, ["--from", "caltrain:Palo Alto", "--to", "bart:EMBR", "--date", "2018-10-03", "--after", "17:00", "--before", "18:00"]),
        ("T2b", A, ["--from", "caltrain:Palo Alto", "--to", "bart:EMBR", "--date", "2018-10-03", "--after", "17:00", "--before", "17:30", "--min-transfer", "3"]),
        ("T3a", A, ["--from", "bart:EMBR", "--to", "caltrain:Palo Alto", "--date", "2018-10-03", "--after", "07:00", "--before", "09:00", "--link", "50"]),
        ("T3b", A, ["--from", "caltrain:Palo Alto", "--to", "bart:EMBR", "--date", "2018-10-03", "--after", "17:00", "--before", "18:00", "--link", "50"]),
        ("T4", A, ["--from", "caltrain:Hillsdale", "--to", "bart:SFIA", "--date", "2018-10-03", "--after", "08:00", "--before", "09:30"]),
        ("T5", A, ["--from", "bart:EMBR", "--to", "caltrain:Palo Alto", "--date", "2018-10-06", "--after", "09:00", "--before", "11:00"]),
        ("T6", A, ["--from", "37.7793,-122.4193", "--to", "caltrain:Palo Alto", "--date", "2018-10-03", "--after", "07:00", "--before", "08:00"]),
        ("T7", B, ["--from", "bart:place_EMBR", "--to", "egr:2318577", "--date", "2023-06-14", "--after", "07:00", "--before", "09:00"]),
        ("T8", B, ["--from", "bart:place_EMBR", "--to", "37.8400,-122.2920", "--date", "2023-06-14", "--after", "07:00", "--before", "08:00"]),
        ("T9", C, ["--from", "cobb:30", "--to", "marta:97266", "--date", "2021-10-13", "--after", "06:00", "--before", "08:00"]),
        ("T10", C, ["--from", "cobb:30", "--to", "marta:97266", "--date", "2021-07-10"]),
        ("T11", C, ["--from", "cobb:30", "--to", "marta:97266", "--date", "2021-08-14", "--after", "06:00", "--before", "09:00"]),
        ("T12", D, ["--from", "v764:de:08115:4189:0:4", "--to", "v752:de:08115:4208:0:4", "--date", "2020-07-15"]),
        ("T13", D, ["--from", "v752:de:08115:4208:0:3", "--to", "v764:de:08115:4189:0:4", "--date", "2020-07-15"]),
        ("T14", E, ["--from", "gtfs_1:NEXT_TO_MUSEUM", "--to", "gtfs_0:BULLFROG", "--date", "2007-01-01", "--after", "10:00"]),
        ("T15", E, ["--from", "gtfs_1:JUSTICE_COURT", "--to", "gtfs_1:AIRPORT", "--date", "2007-01-01", "--after", "08:30"]),
        ("T16", F, ["--from", "bart:EMBR", "--to", "caltrain:Palo Alto", "--date", "2016-04-06", "--after", "07:00", "--before", "09:00"]),
        ("T17", E, ["--from", "gtfs_1:JUSTICE_COURT", "--to", "gtfs_0:DADAN", "--date", "2007-01-01"]),
    ]

    /// `HH:MM:SS HH:MM:SS K` per line of an expected file.
    static func expected(_ id: String) throws -> [String] {
        let text = String(decoding: try Reference.data(pack + "expected/\(id).txt"), as: UTF8.self)
        return text.split(separator: "\n").map { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return "\(fields[0]) \(fields[1]) \(fields[3].dropLast(2))"
        }
    }

    /// The same triples from `gtfs trips --format json` (local times: each feed's offset is in the
    /// text), an arrival on the next calendar day marked `+1`.
    static func triples(_ run: Run) throws -> [String] {
        let journeys = try run.records()
        return journeys.map { j in
            let text = { (key: String) in (j[key] as? String) ?? "" }
            let time = { (key: String) in String(text(key).dropFirst(11).prefix(8)) }
            let later = text("arrival").prefix(10) > text("departure").prefix(10) ? "+1" : ""
            return "\(time("departure")) \(time("arrival"))\(later) \((j["transfers"] as? Int) ?? -1)"
        }
    }

    /// Where our answer has more than the pack's, and why: the pack's planner searched one service
    /// day, ours lets a journey leaving on it ride the next day's runs (issue 64). After the day's
    /// last way through, the last bus still gets there, its rider waiting overnight at a change
    /// for the first 752 of the morning (T12: at Altes Rathaus, 04:53; T13: where the 23:00 ends),
    /// and nothing leaving later arrives sooner: a journey no one-day search can see.
    static let nextDay = [
        "T12": ["19:01:00 05:09:00+1 2"],
        "T13": ["23:00:00 06:56:00+1 2"],
    ]

    /// The night's last connection (issue 64): Embarcadero 23:30 → Millbrae, then Caltrain 198 of
    /// the next service day at 00:29. Were it missed, the alternatives go on into the morning's
    /// first trains (102 and 104 of the 4th), never the missed run itself; before, none was found.
    @Test func theAlternativesToTheNightsLastChangeAreTheMorningsFirst() async throws {
        let run = try await Run.transit(["gtfs", "trips"] + Self.A.options + ["--from", "bart:EMBR", "--to", "caltrain:Palo Alto", "--date", "2018-10-03",
                                         "--after", "23:30", "--limit", "1", "--alternatives", "2", "--format", "json"], env: Self.A.environment)
        #expect(run.status == 0, "\(run.stderr)")
        let legs = try #require(try run.records().first?["legs"] as? [[String: Any]], "\(run.stdout)")
        let caltrain = try #require(legs.last)
        #expect(caltrain["trip_id"] as? String == "caltrain:198" && caltrain["service_day"] as? String == "2018-10-04"
                && caltrain["departure"] as? String == "2018-10-04T00:29:00-07:00", "\(caltrain)")
        let instead = try #require(caltrain["alternatives"] as? [[String: Any]])
        let rides = instead.map { ($0["legs"] as? [[String: Any]] ?? []).compactMap { $0["trip_id"] as? String } }
        #expect(rides == [["caltrain:102"], ["caltrain:104"]] && instead.map { $0["departure"] as? String ?? "" }
                == ["2018-10-04T05:18:00-07:00", "2018-10-04T05:48:00-07:00"], "\(instead)")
    }

    @Test(arguments: 0..<19)
    func packCase(_ k: Int) async throws {
        let test = Self.cases[k]
        // The pack's answers walk between feeds only (TESTS.md: "nothing is generated between
        // stops of the same feed"): no change on foot within a feed unless a case asks for one.
        let walk = test.args.contains("--walk") ? [] : ["--walk", "0"]
        let run = try await Run.transit(["gtfs", "trips"] + test.pair.options + test.args + walk + ["--format", "json"], env: test.pair.environment)
        #expect(run.status == 0, "\(test.id): \(run.stderr)")
        #expect(try Self.triples(run) == (try Self.expected(test.id)) + (Self.nextDay[test.id] ?? []), "\(test.id)")
    }
}
