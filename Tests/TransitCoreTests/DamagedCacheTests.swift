import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import TransitGTFS
@testable import TransitSupport
import TransitTestSupport

/// What the cache holds can be damaged, left half written by a killed process, or raced by two
/// writers (issue 30, items 4 and 10–13): each case through the binary, as a user meets it.
@Suite struct DamagedCacheTests {
    func env(_ cache: String) -> [String: String] { Run.environment(["TRANSIT_CACHE_DIR": cache]) }

    /// Where a compiled file's summary ends: 16 bytes of magic, its length, the JSON.
    static func summaryEnd(_ path: String) throws -> Int {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        return 20 + Int(bytes[16]) + Int(bytes[17]) << 8 + Int(bytes[18]) << 16
    }

    static func flip(_ path: String, at offset: Int) throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[offset] ^= 0x10
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    /// XXH64's published values (xxhash.com; the Python package's README for the long one), the
    /// long input fed whole and in uneven pieces.
    @Test func theChecksumIsXXH64() {
        func sum(_ text: String, pieces: Int = 1) -> UInt64 {
            let bytes = Array(text.utf8)
            var checksum = Checksum(), start = 0
            let step = max(1, bytes.count / pieces)
            while start < bytes.count {
                let end = min(bytes.count, start + step)
                bytes[start..<end].withUnsafeBytes { checksum.add($0) }
                start = end
            }
            return checksum.value
        }
        #expect(sum("") == 0xEF46_DB37_51D8_E999)
        #expect(sum("a") == 0xD24E_C4F1_A98C_6E5B)
        #expect(sum("abc") == 0x44BC_2CF5_AD77_0999)
        let long = "Nobody inspects the spammish repetition"
        #expect(sum(long) == 0xFBCE_A83C_8A37_8BF1)
        #expect((1...long.utf8.count).allSatisfy { sum(long, pieces: $0) == 0xFBCE_A83C_8A37_8BF1 })
    }

    /// A file found sound is not read whole again while the file system says it is the same
    /// file (`CheckRecord`): the note is written only two seconds after the file's last change,
    /// any write to the file (even one that puts its bytes back) makes it read whole again and a
    /// flipped bit refused, `gtfs update`'s check reads it whole regardless, and a note of another
    /// version or another file is not believed.
    @Test func aFileFoundSoundIsReadWholeAgainOnlyWhenItChanges() async throws {
        let cache = Paths.temporary()
        let imported = try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/lakeport"], env: env(cache))
        #expect(imported.status == 0, "\(imported.stderr)")
        let file = cache + "/gtfs/lakeport.timetable", note = cache + "/gtfs/.lakeport.timetable.checked"
        let query = ["gtfs", "departures", "--stop", "Harbor", "--date", "2026-11-28", "--after", "07:00", "--limit", "3"]
        let good = try await Run.transit(query, env: env(cache))
        let identity = try MappedFile(file).identity
        try? FileManager.default.removeItem(atPath: note)

        CheckRecord.record(for: file, identity, now: identity.changed + 1_999_999_999)
        #expect(!FileManager.default.fileExists(atPath: note), "a change within the file system's tick could go unseen")
        #expect(try FeedStore.verified(file).checkedBefore == false)
        CheckRecord.record(for: file, identity, now: identity.changed + 2_000_000_000)
        #expect(try FeedStore.verified(file).checkedBefore == true)
        #expect(try FeedStore.verified(file, whole: true).checkedBefore == false)
        #expect(FeedStore.intact(file))
        let trusted = try await Run.transit(query, env: env(cache))
        #expect(trusted.status == 0 && trusted.stdout == good.stdout)

        // The same bytes written back: another change time, so read whole again.
        try Self.flip(file, at: 5000)
        try Self.flip(file, at: 5000)
        #expect(try FeedStore.verified(file).checkedBefore == false)
        CheckRecord.record(for: file, try MappedFile(file).identity, now: CheckRecord.wallClock() + 10_000_000_000)
        #expect(try FeedStore.verified(file).checkedBefore == true)
        try Self.flip(file, at: 5000)
        let flipped = try await Run.transit(query, env: env(cache))
        #expect(flipped.status == 1 && flipped.stdout.isEmpty && flipped.stderr.contains("damaged"), "\(flipped.stderr)")
        try Self.flip(file, at: 5000)

        // A note of another version, or of another file, is not believed.
        var other = try MappedFile(file).identity
        CheckRecord.record(for: file, other, now: CheckRecord.wallClock() + 10_000_000_000)
        #expect(try FeedStore.verified(file).checkedBefore == true)
        let text = try String(contentsOfFile: note, encoding: .utf8)
        try text.replacingOccurrences(of: "transit-checked \(TimetableFile.version) ", with: "transit-checked \(TimetableFile.version - 1) ").write(toFile: note, atomically: true, encoding: .utf8)
        #expect(try FeedStore.verified(file).checkedBefore == false)
        other.inode &+= 1
        CheckRecord.record(for: file, other, now: CheckRecord.wallClock() + 10_000_000_000)
        #expect(try FeedStore.verified(file).checkedBefore == false)

        // Removing the feed removes its note.
        #expect(try await Run.transit(["gtfs", "remove", "lakeport"], env: env(cache)).status == 0)
        #expect(!FileManager.default.fileExists(atPath: note))
    }

    /// Where field `name`'s values begin in a compiled file (past its count and stride).
    static func fieldOffset(_ path: String, _ name: String) throws -> Int {
        let (_, t) = try FeedStore.load(path)
        var w = BinaryWriter()
        w.raw(TimetableFile.magic)
        for field in Timetable.fields {
            if field.name == name { break }
            field.write(t, &w)
        }
        let start = try summaryEnd(path)
        return start + (8 - start % 8) % 8 + w.written + 16
    }

    /// Overwrites `count` Int32 values of field `name`, from its value `from`, with `value`.
    static func overwrite(_ path: String, _ name: String, from: Int = 0, count: Int, with value: Int32) throws {
        let offset = try fieldOffset(path, name) + 4 * from
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for k in 0..<count { withUnsafeBytes(of: value.littleEndian) { for b in 0..<4 { bytes[offset + 4 * k + b] = $0[b] } } }
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    /// A file damaged where its check note still vouches for it (issue 41, item 3: the note
    /// copied back, or bits that rot under an unchanged inode): the indexes a query reads are
    /// checked where read, so the query is refused with one line naming the field, exit 1,
    /// nothing on stdout; the note is forgotten, so the next load reads the file whole and
    /// refuses it at once. Before, the router followed the indexes: a trap, or an answer.
    @Test func aDamagedFileThatItsNoteVouchesForIsRefusedWhereRead() async throws {
        let cache = Paths.temporary()
        #expect(try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/lakeport"], env: env(cache)).status == 0)
        let file = cache + "/gtfs/lakeport.timetable", note = CheckRecord.path(for: file)
        let loaded = try FeedStore.load(file).1
        let stops = loaded.stopCount, patternCalls = loaded.patternStops.count, patternRows = loaded.patternTrips.count
        let queries = [
            ["gtfs", "trips", "--from", "Harbor", "--to", "Airport", "--date", "2026-11-28"],
            ["gtfs", "departures", "--stop", "Harbor", "--date", "2026-11-28", "--after", "07:00"],
            ["gtfs", "reach", "--from", "Harbor", "--date", "2026-11-28", "--after", "07:00", "--minutes", "60"],
            ["gtfs", "stops"],
        ]
        for query in queries {
            #expect(try await Run.transit(query, env: env(cache)).status == 0, "\(query)")
        }
        // An offsets field's first and last values are checked at every load: the ones between.
        for (field, from, count, value) in [("patternStops", 0, patternCalls, Int32.max), ("patternStops", 0, patternCalls, -7), ("stopParent", 0, stops, Int32(stops)),
                                            ("stopPatternStart", 1, stops - 1, 1 << 30), ("rowBlocks", 0, patternRows, Int32.max), ("rowBlocks", 0, patternRows, -1)] {
            // `gtfs stops` reads each pattern's stops, not each stop's calls or its rows' times.
            for query in field == "stopPatternStart" || field == "rowBlocks" ? queries.dropLast() : queries[...] {
                let original = try Data(contentsOf: URL(fileURLWithPath: file))
                try Self.overwrite(file, field, from: from, count: count, with: value)
                CheckRecord.record(for: file, try MappedFile(file).identity, now: CheckRecord.wallClock() + 10_000_000_000)
                #expect(try FeedStore.verified(file).checkedBefore == true)
                let run = try await Run.transit(query, env: env(cache))
                #expect(run.status == 1 && run.stdout.isEmpty && run.stderrLines.count == 1 && run.stderr.contains("damaged (\(field))")
                            && run.stderr.contains("transit gtfs update lakeport"), "\(field) \(value) \(query): \(run.status) \(run.stdout) \(run.stderr)")
                #expect(!FileManager.default.fileExists(atPath: note), "\(field) \(query): the note is kept")
                let next = try await Run.transit(query, env: env(cache))
                #expect(next.status == 1 && next.stdout.isEmpty && next.stderr.contains("damaged"), "\(next.stderr)")
                try original.write(to: URL(fileURLWithPath: file))
            }
        }
        for query in queries {
            #expect(try await Run.transit(query, env: env(cache)).status == 0, "mended: \(query)")
        }
    }

    /// Fares v2's areas per stop, their offsets damaged under a note (below 0 between the ends):
    /// refused where read. Before, `FareProducts` read them itself and sliced from below 0.
    /// Times are values, not indexes: a damaged file's may lie at the ends of Int32 (found by
    /// `scripts/fuzz 20 5000 "check notes"`: a departure less a point's walk overflowed). Such a
    /// file gives wrong times, never a trap.
    @Test func timesAtTheEndsOfInt32AreNoTrap() async throws {
        let cache = Paths.temporary()
        #expect(try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/lakeport"], env: env(cache)).status == 0)
        let file = cache + "/gtfs/lakeport.timetable"
        let times = try FeedStore.load(file).1.times.count
        let queries = [
            ["gtfs", "trips", "--from", "41.8650,-87.6150", "--to", "41.8745,-87.5950", "--date", "2026-11-23"],
            ["gtfs", "trips", "--from", "Harbor", "--to", "University Gate", "--date", "2026-11-23"],
            ["gtfs", "reach", "--from", "41.8650,-87.6150", "--date", "2026-11-23", "--after", "00:00", "--minutes", "1440"],
        ]
        for value in [Int32.min, Int32.min + 100, Int32.max, Int32.max - 100] {
            let original = try Data(contentsOf: URL(fileURLWithPath: file))
            try Self.overwrite(file, "times", count: times, with: value)
            CheckRecord.record(for: file, try MappedFile(file).identity, now: CheckRecord.wallClock() + 10_000_000_000)
            for query in queries {
                let run = try await Run.transit(query, env: env(cache))
                #expect(run.status == 0 || run.status == 1 && run.stderrLines.count == 1, "\(value) \(query): \(run.status) \(run.stderr.prefix(300))")
            }
            try original.write(to: URL(fileURLWithPath: file))
        }
    }

    @Test func damagedFareAreasAreRefusedWhereRead() async throws {
        let cache = Paths.temporary()
        #expect(try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/fares/areas", "--name", "areas"], env: env(cache)).status == 0)
        let file = cache + "/gtfs/areas.timetable"
        let query = ["gtfs", "fares", "--from", "ASHB", "--to", "GLEN", "--date", "2022-10-12"]
        #expect(try await Run.transit(query, env: env(cache)).status == 0)
        let stops = try FeedStore.load(file).1.stopCount
        try Self.overwrite(file, "stopAreaStart", from: 1, count: stops - 1, with: -5)
        CheckRecord.record(for: file, try MappedFile(file).identity, now: CheckRecord.wallClock() + 10_000_000_000)
        let run = try await Run.transit(query, env: env(cache))
        #expect(run.status == 1 && run.stdout.isEmpty && run.stderrLines.count == 1 && run.stderr.contains("damaged (stopAreaStart)"),
                "\(run.status) \(run.stdout) \(run.stderr)")
    }

    /// One flipped bit anywhere after the summary (the first day, a time, a name, the checksum
    /// itself) is refused with one line, exit 1, never answered from; a flip in a combination's
    /// file makes it compiled again, with the same answer.
    @Test func aFlippedBitIsRefused() async throws {
        let cache = Paths.temporary()
        let imported = try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/lakeport"], env: env(cache))
        #expect(imported.status == 0, "\(imported.stderr)")
        let file = cache + "/gtfs/lakeport.timetable"
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        let summaryEnd = try Self.summaryEnd(file)
        let query = ["gtfs", "departures", "--stop", "Harbor", "--date", "2026-11-28", "--after", "07:00", "--limit", "3"]
        let good = try await Run.transit(query, env: env(cache))
        #expect(good.status == 0 && good.stdoutLines.count == 3)
        for offset in [summaryEnd + 8, summaryEnd + 2000, size / 2, size - 9, size - 1] {
            try Self.flip(file, at: offset)
            let run = try await Run.transit(query, env: env(cache))
            #expect(run.status == 1 && run.stdout.isEmpty && run.stderrLines.count == 1
                        && run.stderr.contains("damaged") && run.stderr.contains("transit gtfs update lakeport"), "\(offset): \(run.status) \(run.stdout) \(run.stderr)")
            try Self.flip(file, at: offset)
        }
        // A combination's compiled file, damaged, is compiled again.
        let pair = try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/pairs/border/renfe", "--name", "renfe"], env: env(cache))
        #expect(pair.status == 0)
        let both = query + ["--feed", "lakeport", "--feed", "renfe"]
        let first = try await Run.transit(both, env: env(cache))
        let combined = try #require(try FileManager.default.contentsOfDirectory(atPath: cache + "/gtfs/.combined").first { $0.hasSuffix(".timetable") })
        let combinedSize = try #require(try FileManager.default.attributesOfItem(atPath: cache + "/gtfs/.combined/" + combined)[.size] as? Int)
        try Self.flip(cache + "/gtfs/.combined/" + combined, at: combinedSize / 2)
        let again = try await Run.transit(both, env: env(cache))
        #expect(first.status == 0 && again.status == 0 && again.stdout == first.stdout && again.stderr == first.stderr, "\(again.stderr)")
    }

    /// A compiled file whose summary cannot be read is listed as damaged, named by a query
    /// (with how to mend it), and removed by `remove`; before, it vanished from `feeds`, `update`
    /// and `remove` while `--feed NAME` still found it.
    @Test func aDamagedSummaryIsListedAndRemovable() async throws {
        let cache = Paths.temporary()
        _ = try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/lakeport"], env: env(cache))
        // The summary's JSON no longer JSON: its opening brace made a letter.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: cache + "/gtfs/lakeport.timetable"))
        bytes[20] = UInt8(ascii: "X")
        try bytes.write(to: URL(fileURLWithPath: cache + "/gtfs/lakeport.timetable"))
        let feeds = try await Run.transit(["gtfs", "feeds"], env: env(cache))
        #expect(feeds.status == 0 && feeds.stderr.contains("damaged (the compiled file cannot be read): lakeport"), "\(feeds.stderr)")
        let query = try await Run.transit(["gtfs", "departures", "--stop", "Harbor"], env: env(cache))
        #expect(query.status == 2 && query.stderr.contains("transit gtfs remove lakeport"), "\(query.stderr)")
        let named = try await Run.transit(["gtfs", "departures", "--stop", "Harbor", "--feed", "lakeport"], env: env(cache))
        #expect(named.status == 1 && named.stderr.contains("transit gtfs remove lakeport"), "\(named.stderr)")
        let update = try await Run.transit(["gtfs", "update"], env: env(cache))
        #expect(update.stderr.contains("lakeport: its compiled file is damaged"), "\(update.stderr)")
        let removed = try await Run.transit(["gtfs", "remove", "lakeport"], env: env(cache))
        #expect(removed.status == 0 && removed.stdout == "lakeport\n" && !FileManager.default.fileExists(atPath: cache + "/gtfs/lakeport.timetable"), "\(removed.stderr)")
    }

    /// A feed whose file is damaged after its summary is compiled again by `update`, although
    /// its source did not change.
    /// Issue 41, item 4: a compiled file copied over another feed's (`cp lakeport.timetable
    /// bart.timetable`) is not served under the other name: a query of bart is one line naming
    /// what it holds, `feeds` lists it as damaged, `remove` deletes it.
    @Test func aFileCopiedOverAnotherFeedIsNotServedAsIt() async throws {
        let cache = Paths.temporary()
        for (source, name) in [("lakeport", "lakeport"), ("pairs/bay/bart", "bart")] {
            let run = try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/" + source, "--name", name], env: env(cache))
            #expect(run.status == 0, "\(run.stderr)")
        }
        let store = FeedStore(cacheDirectory: cache)
        try FileManager.default.removeItem(atPath: store.path(of: "bart"))
        try FileManager.default.copyItem(atPath: store.path(of: "lakeport"), toPath: store.path(of: "bart"))
        let stops = try await Run.transit(["gtfs", "stops", "--feed", "bart"], env: env(cache))
        #expect(stops.status == 1 && stops.stdout.isEmpty && stops.stderrLines.count == 1
                && stops.stderr.contains("it holds the feed 'lakeport', not bart"), "\(stops.stderr)")
        let both = try await Run.transit(["gtfs", "stops", "--feed", "bart", "--feed", "lakeport"], env: env(cache))
        #expect(both.status == 1 && both.stderr.contains("it holds the feed 'lakeport', not bart"), "\(both.stderr)")
        let feeds = try await Run.transit(["gtfs", "feeds", "--format", "tsv"], env: env(cache))
        #expect(feeds.status == 0 && feeds.stdoutLines.map { $0.split(separator: "\t").first.map(String.init) ?? "" } == ["lakeport"], "\(feeds.stdout)")
        #expect(feeds.stderr.contains("damaged (the compiled file cannot be read): bart"), "\(feeds.stderr)")
        let removed = try await Run.transit(["gtfs", "remove", "bart"], env: env(cache))
        #expect(removed.status == 0 && !FileManager.default.fileExists(atPath: store.path(of: "bart")), "\(removed.stderr)")
    }

    @Test func updateMendsADamagedFeed() async throws {
        let cache = Paths.temporary()
        _ = try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/lakeport"], env: env(cache))
        let file = cache + "/gtfs/lakeport.timetable"
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        try Self.flip(file, at: size / 2)
        let update = try await Run.transit(["gtfs", "update", "--format", "tsv"], env: env(cache))
        #expect(update.status == 0 && update.stdoutLines.first?.hasPrefix("lakeport\tupdated") == true, "\(update.stdout) \(update.stderr)")
        let query = try await Run.transit(["gtfs", "departures", "--stop", "Harbor", "--limit", "1"], env: env(cache))
        #expect(query.status == 0, "\(query.stderr)")
    }

    /// What a process killed outright left (its pid gone) is swept by the next writer, in the
    /// cache and its `.combined/` and `.paths/`; a live process's file and a recent file of an
    /// older transit stay.
    @Test func temporariesOfDeadWritersAreSwept() async throws {
        let cache = Paths.temporary(), root = cache + "/gtfs"
        for directory in [root, root + "/.combined", root + "/.paths"] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        // A pid that has just ended: a child that exited.
        let dead = try await Run.transitLike(["/bin/sh", "-c", "echo $$"], env: [:])
        let deadPid = try #require(Int32(dead.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        let gone = [root + "/.import-\(deadPid)-A", root + "/.combined/.import-\(deadPid)-B", root + "/.paths/.import-\(deadPid)-C",
                    root + "/.download-\(deadPid)-D.zip", root + "/.import-6F1A0D0E-LEGACY"]
        let kept = [root + "/.import-\(getpid())-E", root + "/.import-7B2C-RECENT"]
        for path in gone + kept { try Data(repeating: 7, count: 1000).write(to: URL(fileURLWithPath: path)) }
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: root + "/.import-6F1A0D0E-LEGACY")
        let run = try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/lakeport"], env: env(cache))
        #expect(run.status == 0)
        for path in gone { #expect(!FileManager.default.fileExists(atPath: path), "\(path) left") }
        for path in kept { #expect(FileManager.default.fileExists(atPath: path), "\(path) swept") }
    }

    /// Killed while it writes (SIGKILL: nothing runs) or interrupted (Ctrl-C, SIGTERM: the
    /// handler removes what it was writing): an import leaves nothing once the next writer ran,
    /// and a URL import's download goes with it.
    @Test func anInterruptedImportLeavesNothing() async throws {
        guard Reference.isPresent else { return }
        let feed = try Data(contentsOf: URL(fileURLWithPath: Reference.path("realdata/bart_gtfs/gtfs-lite_2022/bart.zip")))
        let server = try LoopbackServer { _ in .respond(status: 200, headers: ["Content-Type": "application/zip"], body: feed, delay: 0) }
        defer { server.stop() }
        for signal in [SIGKILL, SIGINT, SIGTERM] {
            let cache = Paths.temporary(), root = cache + "/gtfs"
            // The signal once the download is in the cache (the feed is being compiled).
            let run = try await Run.transit(["gtfs", "import", server.baseURL + "/bart.zip", "--name", "bart"], env: env(cache), signal: signal) {
                ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).contains { $0.hasPrefix(".download-") }
            }
            #expect(run.status == 128 + signal, "\(signal): \(run.status) \(run.stderr)")
            let left = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).filter { $0.hasPrefix(".download-") || $0.hasPrefix(".import-") }
            if signal == SIGKILL {
                let next = try await Run.transit(["gtfs", "remove", "nothing"], env: env(cache))
                #expect(next.status == 2)
                let after = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).filter { $0.hasPrefix(".download-") || $0.hasPrefix(".import-") }
                #expect(after.isEmpty, "\(after)")
            } else {
                #expect(left.isEmpty, "\(signal): \(left)")
            }
            #expect(!FileManager.default.fileExists(atPath: root + "/bart.timetable"))
        }
    }

    /// Writers take one lock per cache: a `remove` waits while another writer holds it (here the
    /// test), so that it cannot interleave with an update's rename; queries never wait.
    @Test func writersTakeTheCachesLock() async throws {
        let cache = Paths.temporary()
        _ = try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/lakeport"], env: env(cache))
        let fd = open(cache + "/gtfs/.lock", O_RDWR | O_CREAT, 0o644)
        #expect(fd >= 0 && flock(fd, LOCK_EX) == 0)
        async let removal = Run.transit(["gtfs", "remove", "lakeport"], env: env(cache))
        let query = try await Run.transit(["gtfs", "departures", "--stop", "Harbor", "--limit", "1"], env: env(cache))
        #expect(query.status == 0, "a query waited: \(query.stderr)")
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(FileManager.default.fileExists(atPath: cache + "/gtfs/lakeport.timetable"), "removed under another writer's lock")
        flock(fd, LOCK_UN)
        close(fd)
        let removed = try await removal
        #expect(removed.status == 0 && !FileManager.default.fileExists(atPath: cache + "/gtfs/lakeport.timetable"))
    }

    /// An update does not write back a feed removed while it compiled; a combination is not
    /// kept when a feed of it changed meanwhile (the orphan a removal could not delete).
    @Test func aFeedRemovedMeanwhileIsNotWrittenBack() throws {
        let cache = Paths.temporary()
        let store = FeedStore(cacheDirectory: cache)
        let lakeport = Paths.fixtures + "/gtfs/lakeport"
        _ = try store.install(try FeedFiles.open(lakeport), name: "lp", source: lakeport)
        try store.remove("lp")
        #expect(throws: TransitError.self) { try store.install(try FeedFiles.open(lakeport), name: "lp", source: lakeport, replacing: true) }
        #expect(!FileManager.default.fileExists(atPath: store.path(of: "lp")))
        let (summary, timetable, _) = try store.compile(try FeedFiles.open(lakeport), name: "lp", source: lakeport)
        let target = cache + "/gtfs/.combined/x.timetable"
        #expect(try store.write(timetable, summary: summary, to: target, still: { false }) == nil)
        let left = try FileManager.default.contentsOfDirectory(atPath: cache + "/gtfs/.combined")
        #expect(left.isEmpty, "\(left)")
    }

    /// `--feed PATH` where the cache cannot keep it answers from memory with a warning;
    /// `--no-cache` writes nothing; a FIFO is refused at once (it blocked in `open`).
    @Test func aFeedByPathNeedsNoWritableCache() async throws {
        let cache = Paths.temporary()
        try FileManager.default.createDirectory(atPath: cache + "/gtfs", withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: cache + "/gtfs/.paths"))  // a file where the directory goes
        let query = ["gtfs", "departures", "--feed", Paths.fixtures + "/gtfs/lakeport", "--stop", "Harbor", "--date", "2026-11-24", "--after", "07:00", "--limit", "1"]
        let full = try await Run.transit(query, env: env(cache))
        #expect(full.status == 0 && full.stdoutLines.count == 1 && full.stderr.contains("the compiled feed is not kept"), "\(full.stderr)")
        let fresh = Paths.temporary()
        let none = try await Run.transit(query + ["--no-cache"], env: env(fresh))
        #expect(none.status == 0 && none.stdout == full.stdout && !FileManager.default.fileExists(atPath: fresh + "/gtfs/.paths"), "\(none.stderr)")
        let pair = try await Run.transit(query + ["--feed", Paths.fixtures + "/gtfs/pairs/border/renfe", "--no-cache"], env: env(fresh))
        #expect(pair.status == 0 && !FileManager.default.fileExists(atPath: fresh + "/gtfs"), "\(pair.stderr)")
        let fifo = Paths.temporary() + ".zip"
        #expect(mkfifo(fifo, 0o644) == 0)
        for args in [["gtfs", "import", fifo], ["gtfs", "departures", "--feed", fifo, "--stop", "Harbor"]] {
            let run = try await Run.transit(args, env: env(Paths.temporary()))
            #expect(run.status == 2 && run.stderr.contains("not a regular file"), "\(args[1]): \(run.stderr)")
        }
    }
}
