import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport
import TransitTestSupport

/// The Mobility Database catalog (issue 33): a v2 CSV built by scripts/make-catalog-csv.py from
/// the pack's JSON files, checked against the header and rows of the published file the pack's
/// README quotes, then served by the loopback server to the binary.
@Suite(.enabled(if: Reference.isPresent, Reference.absent), .enabled(if: Paths.python != nil, "needs python3 (scripts/setup)"))
struct CatalogTests {
    static let sources = "catalog/mdb-catalogs/catalogs/sources"

    /// The README's v2 header and its two real rows, as a file.
    static func publishedRows() throws -> String {
        let readme = try String(contentsOfFile: Reference.path("catalog/README.md"), encoding: .utf8)
        let blocks = readme.components(separatedBy: "```").enumerated().filter { $0.offset % 2 == 1 }.map { $0.element.trimmingCharacters(in: .newlines) }
        let header = try #require(blocks.first { $0.hasPrefix("id,data_type") })
        let rows = try #require(blocks.first { $0.hasPrefix("mdb-645") })
        let file = Paths.temporary() + "/published.csv"
        try (header + "\n" + rows + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// The catalog as our script writes it, each row's fields changed where `change` says (by id,
    /// then column): the tests point download URLs at the loopback server.
    static func catalog(_ change: [String: [String: String]] = [:]) async throws -> Data {
        let out = Paths.temporary() + "/feeds_v2.csv"
        let run = try await Run.transitLike([try #require(Paths.python), Paths.root.appendingPathComponent("scripts/make-catalog-csv.py").path,
                                             Reference.path(sources), out], env: ["PATH": "/usr/bin:/bin"])
        #expect(run.status == 0, "\(run.stderr)")
        guard !change.isEmpty else { return try Data(contentsOf: URL(fileURLWithPath: out)) }
        let parsed = try FeedCatalog(file: out, what: "ours")
        var lines = try String(contentsOfFile: out, encoding: .utf8).components(separatedBy: "\n")
        for (id, fields) in change {
            let feed = try #require(parsed.feed(id))
            let index = try #require(lines.firstIndex { $0.hasPrefix(id + ",") })
            var cells = FeedCatalog.header.map { column in Self.cell(feed, column) }
            for (column, value) in fields { cells[try #require(FeedCatalog.header.firstIndex(of: column))] = value }
            lines[index] = cells.map { $0.contains(",") || $0.contains("\"") ? "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : $0 }.joined(separator: ",")
        }
        return Data(lines.joined(separator: "\n").utf8)
    }

    /// A feed's cell as the v2 file writes it (the columns the tests rewrite rows from).
    static func cell(_ feed: CatalogFeed, _ column: String) -> String {
        switch column {
        case "id": feed.id
        case "data_type": feed.dataType
        case "entity_type": feed.entityTypes.joined(separator: "|")
        case "location.country_code": feed.countryCode
        case "location.subdivision_name": feed.subdivision
        case "location.municipality": feed.municipality
        case "provider": feed.provider
        case "is_official": feed.isOfficial.map { $0 ? "True" : "False" } ?? ""
        case "name": feed.name
        case "static_reference": feed.staticReference.joined(separator: "|")
        case "urls.direct_download": feed.directDownload
        case "urls.authentication_type": feed.authenticationType.map(String.init) ?? ""
        case "urls.authentication_info": feed.authenticationInfo
        case "urls.api_key_parameter_name": feed.apiKeyParameterName
        case "urls.latest": feed.latest
        case "urls.license": feed.license
        case "location.bounding_box.minimum_latitude": feed.boundingBox.map { "\($0.south)" } ?? ""
        case "location.bounding_box.maximum_latitude": feed.boundingBox.map { "\($0.north)" } ?? ""
        case "location.bounding_box.minimum_longitude": feed.boundingBox.map { "\($0.west)" } ?? ""
        case "location.bounding_box.maximum_longitude": feed.boundingBox.map { "\($0.east)" } ?? ""
        case "status": feed.status
        case "features": feed.features.joined(separator: "|")
        case "redirect.id": feed.redirectID
        case "redirect.comment": feed.redirectComment
        default: ""
        }
    }

    static func serving(_ routes: @escaping @Sendable (String) -> LoopbackServer.Behavior?) throws -> LoopbackServer {
        try LoopbackServer { request in routes(request.path) ?? .status(404, "not here") }
    }

    static func env(_ cache: String, _ server: LoopbackServer, _ extra: [String: String] = [:]) -> [String: String] {
        Run.environment(["TRANSIT_CACHE_DIR": cache, "TRANSIT_CATALOG_URL": server.baseURL + "/feeds_v2.csv"].merging(extra) { $1 })
    }

    static func csv(_ data: Data) -> LoopbackServer.Behavior { .respond(status: 200, headers: ["Content-Type": "text/csv"], body: data, delay: 0) }

    /// Our file has the published header, column for column, and our reader reads the published
    /// rows: mdb-668 deprecated for mdb-3048 (its comment `nan`, pandas' empty), mdb-645's ten
    /// features. Where the pack's JSON (2026-08) and the README's file (2026-04) say the same
    /// thing, our rows say it too: ids, kinds, country, provider, download URL, licence,
    /// bounding box, status, redirect. (The municipality, the copy's URL, the extraction date,
    /// the features and 645's `is_official` changed between the two.)
    @Test func theScriptWritesThePublishedV2File() async throws {
        let published = try FeedCatalog(file: try Self.publishedRows(), what: "the README's rows")
        let ours = try await Self.catalog()
        let file = Paths.temporary() + "/ours.csv"
        try ours.write(to: URL(fileURLWithPath: file))
        let header = try String(contentsOfFile: try Self.publishedRows(), encoding: .utf8).components(separatedBy: "\n")[0]
        #expect(String(decoding: ours.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self) == header)
        #expect(header.components(separatedBy: ",") == FeedCatalog.header)
        let catalog = try FeedCatalog(file: file, what: "ours")
        #expect(catalog.feeds.count == 3_434 && catalog.feeds.filter(\.isRealtime).count == 993)

        let old = try #require(published.feed("mdb-668"))
        #expect(old.status == "deprecated" && old.redirectID == "mdb-3048" && old.redirectComment.isEmpty && old.isOfficial == true)
        // A status in capitals is the same status, for the search as for the feed made of the row.
        let shouting = Paths.temporary() + "/shouting.csv"
        try String(contentsOfFile: try Self.publishedRows(), encoding: .utf8).replacingOccurrences(of: ",deprecated,", with: ",DEPRECATED,")
            .write(toFile: shouting, atomically: true, encoding: .utf8)
        let loud = try FeedCatalog(file: shouting, what: "capitals")
        #expect(loud.feed("mdb-668")?.isCurrent == false && loud.search([]).map(\.id) == ["mdb-645"] && loud.search([], all: true).count == 2)
        #expect(published.feed("mdb-645")?.features.count == 10 && published.feed("mdb-645")?.features.first == "Continuous Stops")
        for id in ["mdb-645", "mdb-668"] {
            let theirs = try #require(published.feed(id)), mine = try #require(catalog.feed(id))
            for column in ["id", "data_type", "entity_type", "location.country_code", "provider", "urls.direct_download", "urls.license", "status", "redirect.id"] {
                #expect(Self.cell(mine, column) == Self.cell(theirs, column), "\(id) \(column)")
            }
            let a = try #require(mine.boundingBox), b = try #require(theirs.boundingBox)
            #expect(zip([a.south, a.north, a.west, a.east], [b.south, b.north, b.west, b.east]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(id)")
        }
    }

    /// BART, Caltrain and Halifax found by name and by place, each with its real-time kinds and
    /// keys; accents folded; the catalog downloaded once, then read from the cache for 7 days.
    @Test func searchFindsFeedsByNameAndPlace() async throws {
        let body = try await Self.catalog()
        let server = try Self.serving { $0 == "/feeds_v2.csv" ? Self.csv(body) : nil }
        defer { server.stop() }
        let cache = Paths.temporary()
        func search(_ args: [String], now: String = "2026-11-22T20:00:00Z") async throws -> [[String: Any]] {
            let run = try await Run.transit(["gtfs", "catalog", "search"] + args + ["--format", "json"], env: Self.env(cache, server, ["TRANSIT_NOW": now]))
            #expect(run.status == 0, "\(args): \(run.stderr)")
            return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        }
        func ids(_ records: [[String: Any]]) -> [String] { records.compactMap { ($0["feed"] as? [String: Any])?["id"] as? String } }
        func realtime(_ record: [String: Any]?) -> [String] { ((record?["realtime_feeds"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String } }

        let bart = try await search(["bart"])
        #expect(ids(bart).first == "mdb-53")
        // Whole words before prefixes before the inside of a word (issue 44: Hobart after BART).
        let kinds = bart.compactMap { record -> FeedCatalog.Match? in
            let feed = record["feed"] as? [String: Any] ?? [:]
            let text = FeedCatalog.fold([feed["provider"], feed["name"], feed["place"]].compactMap { $0 as? String }.joined(separator: " "))
            return FeedCatalog.match(Array(text.utf8), Array("bart".utf8))
        }
        #expect(kinds.count == bart.count && kinds == kinds.sorted() && kinds.first == .word, "\(kinds)")
        #expect(FeedCatalog.match(Array("metro tasmania hobart".utf8), Array("bart".utf8)) == .inside
                && FeedCatalog.match(Array("bay area rapid transit (bart)".utf8), Array("bart".utf8)) == .word
                && FeedCatalog.match(Array("bartlett".utf8), Array("bart".utf8)) == .prefix)
        #expect(realtime(bart.first) == ["mdb-1385", "mdb-1386"])
        #expect(try await search(["RAPID", "transit", "california"]).count >= 1)
        let caltrain = try await search(["caltrain"])
        #expect(ids(caltrain).first == "mdb-54" && realtime(caltrain.first) == ["mdb-3053", "mdb-3054", "mdb-3055"])
        let halifax = try await search(["halifax", "transit"])
        #expect(ids(halifax) == ["mdb-734"] && realtime(halifax.first) == ["mdb-1605", "mdb-1606", "mdb-1607"])
        // By place: the point in Halifax, the country; accents folded both ways.
        let near = try await search(["--near", "44.6488,-63.5752"])
        #expect(ids(near).contains("mdb-734") && ids(near).allSatisfy { id in !id.isEmpty })
        #expect(ids(try await search(["halifax", "--country", "ca"])) == ["mdb-734"])
        #expect(ids(try await search(["halifax", "--country", "us"])).isEmpty)
        #expect(ids(try await search(["societe", "outaouais"])) == ["mdb-740"])
        #expect(ids(try await search(["Société", "OUTAOUAIS"])) == ["mdb-740"])
        // Deprecated feeds only with --all.
        #expect(!ids(try await search(["translink", "queensland"])).contains("mdb-668"))
        #expect(ids(try await search(["translink", "queensland", "--all"])).contains("mdb-668"))
        #expect(server.requests.count == 1, "downloaded once, then read from the cache")
        _ = try await search(["bart"], now: "2026-12-01T20:00:00Z")
        #expect(server.requests.count == 2, "downloaded again after 7 days")

        // tsv's columns; show lists the real-time feeds.
        let tsv = try await Run.transit(["gtfs", "catalog", "search", "bart", "--format", "tsv"], env: Self.env(cache, server))
        #expect(tsv.stdoutLines.first == "mdb-53\tBay Area Rapid Transit (BART)\t\tSan Francisco, California, US\tactive\ttu,sa\tnone\thttp://www.bart.gov/schedules/developers/developer-license-agreement")
        let show = try await Run.transit(["gtfs", "catalog", "show", "mdb-54", "--format", "table"], env: Self.env(cache, server))
        #expect(show.status == 0 && show.stdout.contains("mdb-3054 tu active key: query (api_key) http://api.511.org/transit/tripupdates?agency=CT"), "\(show.stdout)")
        // One field a line, as `git show` (issue 44: a one-row table 900 characters wide): the
        // labels aligned, each real-time feed a line under `realtime:`.
        #expect(show.stdoutLines.first == "id:        mdb-54", "\(show.stdout)")
        #expect(show.stdoutLines.allSatisfy { $0.range(of: #"^([a-z]+:\s+|\s{11})\S"#, options: .regularExpression) != nil }, "\(show.stdout)")
        #expect(show.stdoutLines.filter { $0.contains("mdb-305") }.count == 3 && show.stdoutLines.contains { $0.hasPrefix("realtime:  mdb-3053 ") }, "\(show.stdout)")
        // A terminal of 100 columns: the provider and the id whole, the licence's URL cut first.
        let narrow = try await Run.inTerminal(["gtfs", "catalog", "search", "bart"], env: Self.env(cache, server, ["NO_COLOR": "1"]), columns: 100)
        #expect(narrow.stdoutLines.dropFirst().first?.hasPrefix("mdb-53    Bay Area Rapid Transit (BART)  ") == true, "\(narrow.stdout)")
        #expect(narrow.stdoutLines.allSatisfy { TextWidth.of($0) <= 100 } && narrow.stdoutLines.dropFirst().first?.hasSuffix("  http:/…") == true, "\(narrow.stdout)")
    }

    /// `import mdb-54`: the feed's own URL fails, the catalog's copy is fetched; named after its
    /// provider; its three real-time feeds remembered with the key as `$TRANSIT_KEY_CALTRAIN`, a
    /// variable the catalog does not choose (a notice says to set it, and a query without it is one
    /// line, exit 2); its catalog id kept. A deprecated id follows its redirect with a notice.
    /// A row whose key parameter is `AWS_SECRET_ACCESS_KEY` gets that variable's value sent
    /// nowhere (issue 41, item 12): the parameter keeps its name, the value is the user's key.
    @Test func importByIDRemembersTheRealtimeFeeds() async throws {
        let zip = try Data(contentsOf: URL(fileURLWithPath: Reference.feed("caltrain-20160406/caltrain_20160406.zip")))
        let box = Locked(Data())
        let server = try Self.serving { path in
            switch path {
            case "/feeds_v2.csv": return Self.csv(box.current)
            case "/copy/caltrain.zip": return .respond(status: 200, headers: ["Content-Type": "application/zip"], body: zip, delay: 0)
            default: return nil
            }
        }
        defer { server.stop() }
        let body = try await Self.catalog(["mdb-54": ["urls.direct_download": server.baseURL + "/gone/caltrain.zip", "urls.latest": server.baseURL + "/copy/caltrain.zip"],
                                           "mdb-668": ["redirect.id": "mdb-54"]])
        box.withLock { $0 = body }
        let cache = Paths.temporary()
        let imported = try await Run.transit(["gtfs", "import", "mdb-54"], env: Self.env(cache, server))
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderrLines.contains { $0.hasPrefix("mdb-54: HTTP 404") && $0.hasSuffix("; trying the catalog's copy") }, "\(imported.stderr)")
        #expect(imported.stderr.contains("mdb-3054 needs a key: set TRANSIT_KEY_CALTRAIN (a key from https://511.org/open-data/token)"), "\(imported.stderr)")
        let feeds = try await Run.transit(["gtfs", "feeds", "--format", "json"], env: Self.env(cache, server))
        let list = try #require(try JSONSerialization.jsonObject(with: Data(feeds.stdout.utf8)) as? [[String: Any]])
        #expect(list.first?["name"] as? String == "caltrain" && list.first?["catalog"] as? String == "mdb-54")
        #expect(list.first?["realtime"] as? [String] == ["http://api.511.org/transit/vehiclepositions?agency=CT&api_key=$TRANSIT_KEY_CALTRAIN",
                                                          "http://api.511.org/transit/tripupdates?agency=CT&api_key=$TRANSIT_KEY_CALTRAIN",
                                                          "http://api.511.org/transit/servicealerts?agency=CT&api_key=$TRANSIT_KEY_CALTRAIN"])
        let unset = try await Run.transit(["gtfs", "departures", "--stop", "70011", "--date", "2016-04-06"], env: Self.env(cache, server))
        #expect(unset.status == 2 && unset.stderrLines.count == 1 && unset.stderr.contains("needs $TRANSIT_KEY_CALTRAIN, which is not set"), "\(unset.stderr)")

        // A hostile row: its key parameter names a variable of the user's environment, and its URL is ours.
        let hostile = try await Self.catalog(["mdb-54": ["urls.direct_download": server.baseURL + "/copy/caltrain.zip"],
                                              "mdb-3054": ["urls.direct_download": server.baseURL + "/rt", "urls.api_key_parameter_name": "AWS_SECRET_ACCESS_KEY"]])
        box.withLock { $0 = hostile }
        let secret = "aws-secret-value-77c1", other = Paths.temporary()
        let env = Self.env(other, server, ["AWS_SECRET_ACCESS_KEY": secret, "TRANSIT_KEY_CALTRAIN": "the-users-511-key"])
        _ = try await Run.transit(["gtfs", "catalog", "update"], env: env)
        let again = try await Run.transit(["gtfs", "import", "mdb-54"], env: env)
        #expect(again.status == 0, "\(again.stderr)")
        let asked = try await Run.transit(["gtfs", "departures", "--stop", "70011", "--date", "2016-04-06"], env: env)
        #expect(asked.status == 0, "\(asked.stderr)")
        let sent = server.requests.filter { $0.path == "/rt" }
        #expect(sent.count == 1 && sent.allSatisfy { $0.value("AWS_SECRET_ACCESS_KEY") == "the-users-511-key" }, "\(sent.map(\.target))")
        #expect(!server.requests.contains { $0.target.contains(secret) || $0.headers.values.contains(secret) })

        let redirected = try await Run.transit(["gtfs", "import", "mdb-668", "--name", "ct2"], env: Self.env(cache, server))
        #expect(redirected.status == 0 && redirected.stderr.contains("mdb-668 is deprecated: importing mdb-54, which replaces it"), "\(redirected.stderr)")
    }

    /// What goes wrong is one line, the right status, and nothing lost: a file that is not the
    /// catalog, one cut short, an empty one, no network and no copy, an unknown id, a real-time
    /// id, a feed URL that answers HTML; a failed download beside a copy answers from the copy
    /// (with a notice), `catalog update` that fails leaves the copy as it was. And mutated
    /// catalogs never trap the reader.
    @Test func badCatalogsAndIDsAreOneLineAndLoseNothing() async throws {
        let body = try await Self.catalog()
        let mode = Locked("good")
        let server = try Self.serving { path in
            guard path == "/feeds_v2.csv" else { return path == "/html.zip" ? .ok("<html><body>Sign in</body></html>", type: "text/html") : nil }
            switch mode.current {
            case "good": return Self.csv(body)
            case "header": return Self.csv(Data("id,name\nmdb-1,x\n".utf8))
            case "cut": return .truncate(status: 200, body: body, bytes: body.count / 3)
            case "empty": return Self.csv(Data())
            default: return .close
            }
        }
        defer { server.stop() }
        let cache = Paths.temporary()
        for (kind, words) in [("header", "not the catalog's v2 CSV"), ("cut", "could not"), ("empty", "empty"), ("close", "could not")] {
            mode.withLock { $0 = kind }
            let run = try await Run.transit(["gtfs", "catalog", "search", "bart"], env: Self.env(cache, server))
            #expect(run.status == 1 && run.stdout.isEmpty && run.stderrLines.count == 1 && run.stderr.contains(words), "\(kind): \(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: cache + "/catalog/feeds_v2.csv"), "\(kind): nothing kept")
        }
        mode.withLock { $0 = "good" }
        #expect(try await Run.transit(["gtfs", "catalog", "update"], env: Self.env(cache, server)).status == 0)
        let kept = try Data(contentsOf: URL(fileURLWithPath: cache + "/catalog/feeds_v2.csv"))
        mode.withLock { $0 = "header" }
        let update = try await Run.transit(["gtfs", "catalog", "update"], env: Self.env(cache, server))
        #expect(update.status == 1 && update.stderrLines.count == 1, "\(update.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: cache + "/catalog/feeds_v2.csv")) == kept)
        // Old enough to fetch again, and the fetch fails: the copy answers, with a notice.
        let late = try await Run.transit(["gtfs", "catalog", "search", "bart"], env: Self.env(cache, server, ["TRANSIT_NOW": "2027-01-01T00:00:00Z"]))
        #expect(late.status == 0 && late.stdoutLines.first?.hasPrefix("mdb-53\t") == true && late.stderr.contains("using the copy of"), "\(late.stderr)")
        let offline = try await Run.transit(["gtfs", "catalog", "search", "bart", "--offline"], env: Self.env(cache, server, ["TRANSIT_NOW": "2027-01-01T00:00:00Z"]))
        #expect(offline.status == 0 && offline.stderr.contains("offline: the catalog as downloaded on"), "\(offline.stderr)")

        for (args, words) in [(["gtfs", "import", "mdb-999999"], "no feed 'mdb-999999' in the catalog"), (["gtfs", "import", "mdb-1386"], "is a GTFS-Realtime feed of mdb-53"),
                              (["gtfs", "catalog", "show", "nope-1"], "no feed 'nope-1'"), (["gtfs", "catalog", "frobnicate"], "catalog takes search WORDS"),
                              (["gtfs", "catalog", "search", "x", "--near", "north"], "--near takes LAT,LON")] {
            let run = try await Run.transit(args, env: Self.env(cache, server))
            #expect(run.status == 2 && run.stdout.isEmpty && run.stderrLines.first?.contains(words) == true, "\(args): \(run.stderr)")
        }
        // A mistyped path is a path, not a catalog id; an id is one.
        #expect(!CatalogImport.isID("bart-feed") && !CatalogImport.isID("./mdb-53") && !CatalogImport.isID("m-53") && CatalogImport.isID("mdb-53") && CatalogImport.isID("tld-a1b"))
        let typo = try await Run.transit(["gtfs", "import", "bart-feed"], env: Self.env(cache, server))
        #expect(typo.status == 2 && typo.stderr.hasPrefix("transit: no feed at bart-feed"), "\(typo.stderr)")
        // A feed URL that answers an HTML page: exit 1, no feed.
        mode.withLock { $0 = "good" }
        let html = try await Self.catalog(["mdb-53": ["urls.direct_download": server.baseURL + "/html.zip", "urls.latest": ""]])
        let htmlCache = Paths.temporary()
        try FileManager.default.createDirectory(atPath: htmlCache + "/catalog", withIntermediateDirectories: true)
        try html.write(to: URL(fileURLWithPath: htmlCache + "/catalog/feeds_v2.csv"))
        let page = try await Run.transit(["gtfs", "import", "mdb-53"], env: Self.env(htmlCache, server))
        #expect(page.status == 1 && page.stderrLines.count == 2 && page.stderrLines.first?.contains("but got an HTML page") == true, "\(page.stderr)")
        #expect(!FileManager.default.fileExists(atPath: htmlCache + "/gtfs/bart.timetable"))

        // Mutated catalogs: an error or a catalog, never a trap.
        var generator = SplitMix(seed: 33)
        let file = Paths.temporary() + "/mutated.csv"
        let small = Data(body.prefix(40_000))
        for _ in 0..<300 {
            var bytes = small
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = [UInt8(ascii: ","), UInt8(ascii: "\""), UInt8(ascii: "\n"), 0xC3, 0, UInt8.random(in: 0...255, using: &generator)][Int.random(in: 0..<6, using: &generator)]
            }
            try bytes.write(to: URL(fileURLWithPath: file))
            if let catalog = try? FeedCatalog(file: file, what: "x") { _ = catalog.search(["a"], near: Coordinate(latitude: 40, longitude: -70), all: true) }
        }
    }
}

/// The catalog's fold (lower case, accents dropped) by table equals Foundation's on whole
/// names: Latin letters of every accent, mixed with ASCII, other scripts and marks (which go
/// through Foundation), and cut UTF-8.
@Suite struct CatalogFoldTests {
    @Test func theFoldIsFoundations() {
        let names = ["Société de transport de l'Outaouais", "São Paulo Transporte (SPTrans)", "ZÜRICH Hauptbahnhof", "Łódź Kaliska", "Ærøskøbing",
                     "Île-de-France Mobilités", "Θεσσαλονίκη", "東京都交通局", "Ñuñoa – Ŝ ǅ Ǆ", "e\u{301}cole", "ASCII only, Upper & lower 123"]
            + [String((0xC0...0x24F).compactMap { Unicode.Scalar(UInt32($0)) }.map(Character.init))]
        for name in names {
            #expect(FeedCatalog.fold(name) == String(decoding: FeedCatalog.foundationFold(Array(name.utf8)), as: UTF8.self), "\(name)")
        }
        #expect(FeedCatalog.fold("Société") == "societe")
        // A lead byte with nothing after it is not read past the end.
        #expect(FeedCatalog.fold([0x41, 0xC3]) == FeedCatalog.foundationFold([0x41, 0xC3]))
    }
}
