import CZlib
import Foundation
import Testing
@testable import TransitGTFS
@testable import TransitSupport

/// Zips written by hand (stored or deflated, with or without a data descriptor), a byte by
/// byte source for the CSV reader's chunk seams, and the bad feeds.
enum ZipBuilder {
    struct Entry {
        var name: String
        var data: Data
        var deflate = true
        var descriptor = false
    }

    static func deflated(_ data: Data) -> Data { compress(data, format: .raw) ?? Data() }

    static func build(_ entries: [Entry]) -> Data {
        var file = Data(), directory = Data()
        func u16(_ v: Int, _ d: inout Data) { d.append(UInt8(v & 0xFF)); d.append(UInt8(v >> 8 & 0xFF)) }
        func u32(_ v: Int, _ d: inout Data) { for s in [0, 8, 16, 24] { d.append(UInt8(v >> s & 0xFF)) } }
        for e in entries {
            let body = e.deflate ? deflated(e.data) : e.data
            let crc = e.data.withUnsafeBytes { Int(crc32(0, $0.bindMemory(to: Bytef.self).baseAddress, uInt($0.count))) }
            let offset = file.count, name = Data(e.name.utf8), flags = e.descriptor ? 8 : 0, method = e.deflate ? 8 : 0
            u32(0x0403_4B50, &file); u16(20, &file); u16(flags, &file); u16(method, &file); u16(0, &file); u16(0, &file)
            u32(e.descriptor ? 0 : crc, &file); u32(e.descriptor ? 0 : body.count, &file); u32(e.descriptor ? 0 : e.data.count, &file)
            u16(name.count, &file); u16(0, &file); file.append(name); file.append(body)
            if e.descriptor { u32(0x0807_4B50, &file); u32(crc, &file); u32(body.count, &file); u32(e.data.count, &file) }
            u32(0x0201_4B50, &directory); u16(20, &directory); u16(20, &directory); u16(flags, &directory); u16(method, &directory)
            u16(0, &directory); u16(0, &directory); u32(crc, &directory); u32(body.count, &directory); u32(e.data.count, &directory)
            u16(name.count, &directory); u16(0, &directory); u16(0, &directory); u16(0, &directory); u16(0, &directory)
            u32(0, &directory); u32(offset, &directory); directory.append(name)
        }
        let start = file.count
        file.append(directory)
        u32(0x0605_4B50, &file); u16(0, &file); u16(0, &file); u16(entries.count, &file); u16(entries.count, &file)
        u32(directory.count, &file); u32(start, &file); u16(0, &file)
        return file
    }
}

/// Hands out its bytes a few at a time, so every chunk seam of the CSV reader is crossed.
struct TrickleSource: ByteSource {
    let bytes: [UInt8]
    let step: Int
    var offset = 0

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(TransitError) -> Int {
        let n = min(step, buffer.count, bytes.count - offset)
        for i in 0..<n { buffer[i] = bytes[offset + i] }
        offset += n
        return n
    }
}

@Suite struct GTFSReadingTests {
    func records(_ text: String, step: Int = 1 << 20, chunk: Int = 1 << 20) throws -> [[String]] {
        let reader = try CSVReader(TrickleSource(bytes: Array(text.utf8), step: step), file: "x.txt", chunk: chunk)
        var out = [reader.header]
        while try reader.next() { out.append((0..<reader.count).map { reader.string($0) }) }
        return out
    }

    @Test func csvTraps() throws {
        let text = "\u{FEFF}b,a,extra\r\n\"x, \"\"y\"\"\",1,\r\n\r\n\"line\nbreak\",2,z\n\n\n"
        let expected = [["b", "a", "extra"], ["x, \"y\"", "1", ""], ["line\nbreak", "2", "z"]]
        #expect(try records(text) == expected)
        // The same through tiny chunks and a buffer that must grow.
        for step in [1, 2, 3, 7] {
            let got = try records(text, step: step, chunk: 4)
            #expect(got == expected, "step \(step): \(got)")
        }
        // No line break at the end; a lone CR ends a line too.
        #expect(try records("a,b\r1,2") == [["a", "b"], ["1", "2"]])
        #expect(try records("a,b\n") == [["a", "b"]])
    }

    /// Plain records split a word at a time read exactly as the byte-at-a-time parser reads
    /// them: random bytes of the characters that matter (separators, quotes, CR, spaces), in
    /// records short and long, through chunk seams, compared record by record with the line
    /// each starts on, and error for error.
    @Test func wordAtATimeReadsAsByteAtATime() {
        func read(_ bytes: [UInt8], step: Int, chunk: Int, words: Bool) -> [String] {
            var out: [String] = []
            do {
                let reader = try CSVReader(TrickleSource(bytes: bytes, step: step), file: "x.txt", chunk: chunk, wordAtATime: words)
                out.append(reader.header.joined(separator: "|"))
                while try reader.next() { out.append("\(reader.line):" + (0..<reader.count).map { reader.string($0) }.joined(separator: "|")) }
            } catch {
                out.append("error: \(error.message)")
            }
            return out
        }
        let alphabet = Array("ab7:,,,\n\n\r\" \t".utf8)
        var random = SplitMix(seed: 47)
        var plain = 0
        for round in 0..<3_000 {
            let length = Int(random.next() % (round % 10 == 0 ? 400 : 60))
            // Most rounds like a feed: no quote or CR, so the fast path takes whole records.
            let letters = round % 3 == 0 ? alphabet : alphabet.filter { $0 != 0x22 && $0 != 0x0D }
            let bytes = (0..<length).map { _ in letters[Int(random.next() % UInt64(letters.count))] }
            let (step, chunk) = [(1 << 20, 1 << 20), (3, 4), (7, 16), (64, 8)][round % 4]
            let expected = read(bytes, step: step, chunk: chunk, words: false)
            let got = read(bytes, step: step, chunk: chunk, words: true)
            #expect(got == expected, "\(String(decoding: bytes, as: UTF8.self).debugDescription) step \(step) chunk \(chunk)")
            if !bytes.contains(0x22) && !bytes.contains(0x0D) { plain += expected.count }
        }
        #expect(plain > 10_000)  // the rounds were mostly records the fast path reads
    }

    @Test func anUnclosedQuoteIsAnError() {
        #expect(throws: TransitError.parse(what: "x.txt", reason: "line 2: a quoted field is never closed")) { try records("a\n\"open\n") }
    }

    @Test func columnsInAnyOrderExtraAndMissingOptionalOnes() throws {
        let t = try TestFeed([
            "stops.txt": "stop_lon,zone_id,stop_name,stop_id,stop_lat\n-122,z,North,N,37\n-122,z,South,S,36\n",
            "trips.txt": "service_id,trip_id,route_id,whatever\nS,t,R,?\n",
            "stop_times.txt": "stop_sequence,stop_id,departure_time,arrival_time,trip_id\n2,S,08:10:00,08:10:00,t\n1,N,08:00:00,08:00:00,t\n",
        ]).timetable()
        #expect(try journeys(t, from: ["N"], to: ["S"]).map(\.description) == ["08:00-08:10 x0 t"])
    }

    @Test func rowsNotGroupedByTripReadTheSame() throws {
        let grouped = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nt1,08:00:00,08:00:00,A,1\nt1,08:10:00,08:10:00,B,2\nt1,08:20:00,08:20:00,C,3\nt2,09:00:00,09:00:00,A,1\nt2,09:10:00,09:10:00,B,2\nt2,09:20:00,09:20:00,C,3\n"
        let interleaved = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nt1,08:10:00,08:10:00,B,2\nt2,09:00:00,09:00:00,A,1\nt1,08:00:00,08:00:00,A,1\nt2,09:20:00,09:20:00,C,3\nt1,08:20:00,08:20:00,C,3\nt2,09:10:00,09:10:00,B,2\n"
        var answers: [[String]] = []
        for text in [grouped, interleaved] {
            let t = try TestFeed(["stops.txt": TestFeed.stops(["A", "B", "C"]), "trips.txt": "route_id,service_id,trip_id\nR,S,t1\nR,S,t2\n",
                                  "stop_times.txt": text]).timetable()
            #expect(t.sourceStopTimes == 6 && t.patternCount == 1)
            answers.append(try journeys(t, from: ["A"], to: ["C"]).map(\.description) + journeys(t, from: ["B"], to: ["C"]).map(\.description))
        }
        #expect(answers[0] == ["08:00-08:20 x0 t1", "09:00-09:20 x0 t2", "08:10-08:20 x0 t1", "09:10-09:20 x0 t2"])
        #expect(answers[1] == answers[0])
    }

    @Test func zipsStoredDeflatedWithDataDescriptorsInAFolder() throws {
        let files = [
            "agency.txt": "agency_name,agency_url,agency_timezone\nA,http://a,America/Chicago\n",
            "stops.txt": TestFeed.stops(["A", "B"]),
            "routes.txt": "route_id,route_type\nR,3\n",
            "trips.txt": "route_id,service_id,trip_id\nR,S,t\n",
            "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nS,1,1,1,1,1,1,1,20260101,20261231\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nt,08:00:00,08:00:00,A,1\nt,08:10:00,08:10:00,B,2\n",
        ]
        for (deflate, descriptor) in [(false, false), (true, false), (true, true), (false, true)] {
            let entries = files.sorted { $0.key < $1.key }.map { ZipBuilder.Entry(name: "feed/" + $0.key, data: Data($0.value.utf8), deflate: deflate, descriptor: descriptor) }
            let path = Paths.temporary() + "/feed.zip"
            try ZipBuilder.build(entries).write(to: URL(fileURLWithPath: path))
            let t = try GTFSCompiler.compile(try FeedFiles.open(path)).0
            #expect(t.timeZone == "America/Chicago" && t.stopCount == 2, "deflate \(deflate) descriptor \(descriptor)")
            #expect(try journeys(t, from: ["A"], to: ["B"]).count == 1)
        }
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func truncatedAndDamagedZipsAreErrors() throws {
        let real = try Data(contentsOf: URL(fileURLWithPath: Reference.feed("caltrain-20160406/caltrain_20160406.zip")))
        let path = Paths.temporary() + "/cut.zip"
        try real.prefix(real.count / 2).write(to: URL(fileURLWithPath: path))
        #expect(errorKind { try FeedFiles.open(path) } == "parse")
        // The directory intact but stop_times.txt's deflated bytes garbled: its CRC-32 fails.
        let entry = try #require(try ZipArchive(path: Reference.feed("caltrain-20160406/caltrain_20160406.zip")).entry(named: "stop_times.txt"))
        var garbled = real
        let middle = entry.localHeaderOffset + 30 + entry.name.utf8.count + entry.compressedSize / 2
        for i in middle..<(middle + 16) { garbled[i] ^= 0x5A }
        try garbled.write(to: URL(fileURLWithPath: path))
        #expect(errorKind { try GTFSCompiler.compile(try FeedFiles.open(path)) } == "parse")
        try Data("not a zip at all".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: TransitError.parse(what: path, reason: "not a zip file")) { try FeedFiles.open(path) }
    }

    @Test func badFeedsNameTheFileAndLine() throws {
        func failure(_ files: [String: String]) -> String? {
            do { _ = try TestFeed(files).timetable(); return nil } catch let error as TransitError { return error.message } catch { return "\(error)" }
        }
        let stops = TestFeed.stops(["A", "B"]), trips = "route_id,service_id,trip_id\nR,S,t\n"
        let good = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nt,08:00:00,08:00:00,A,1\n"
        #expect(failure(["stops.txt": stops, "trips.txt": trips, "stop_times.txt": good + "u,08:10:00,08:10:00,B,2\n"])
                == "could not read stop_times.txt: line 3: unknown trip_id 'u'")
        #expect(failure(["stops.txt": stops, "trips.txt": trips, "stop_times.txt": good + "t,08:10:00,08:10:00,Z,2\n"])
                == "could not read stop_times.txt: line 3: unknown stop_id 'Z'")
        #expect(failure(["stops.txt": stops, "trips.txt": trips, "stop_times.txt": good + "t,25:61:00,25:61:00,B,2\n"])
                == "could not read stop_times.txt: line 3: arrival_time '25:61:00' is not a time like 25:10:00")
        #expect(failure(["stops.txt": stops, "trips.txt": trips, "stop_times.txt": "trip_id,arrival_time,departure_time,stop,stop_sequence\n"])
                == "could not read stop_times.txt: line 1: no stop_id column")
        #expect(failure(["stops.txt": stops, "trips.txt": trips]) == "could not read the feed: stop_times.txt is missing")
        #expect(failure(["stops.txt": stops, "trips.txt": "route_id,service_id,trip_id\nNOPE,S,t\n", "stop_times.txt": good])
                == "could not read trips.txt: line 2: unknown route_id 'NOPE'")
        #expect(failure(["agency.txt": "agency_name,agency_timezone\nA,Mars/Base\n", "stops.txt": stops, "trips.txt": trips, "stop_times.txt": good])
                == "could not read agency.txt: line 2: unknown agency_timezone 'Mars/Base'")
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func theCompiledFileRoundTripsAndRefusesDamage() throws {
        let t = try GTFSCompiler.compile(try FeedFiles.open(Reference.feed("caltrain-20160406/caltrain_20160406.zip"))).0
        let data = TimetableFile.encode(t)
        let back = try TimetableFile.decode(data, path: "x")
        #expect(back.times == t.times && back.stopIDs == t.stopIDs && back.transfers == t.transfers && back.serviceDays == t.serviceDays)
        // Two times (8 bytes) per stored call: Caltrain has no frequencies, so its rows' calls
        // are its stop_times; a quarter of them are trips that differ from another only in
        // their calendar (its weekday trips written again for other dates), their times stored once.
        let rows = (0..<t.patternCount).reduce(0) { $0 + (t.rowRange(ofPattern: $1)?.count ?? 0) * t.patternLength($1) }
        let stored = (0..<t.patternCount).reduce(0) { $0 + (t.blockCount(ofPattern: $1) ?? 0) * t.patternLength($1) }
        #expect(rows == Int(t.sourceStopTimes) && t.times.count == 2 * stored && stored == 2_337, "\(stored) of \(rows)")
        #expect(errorKind { try TimetableFile.decode(data.prefix(data.count - 10), path: "x") } == "parse")
        // Flip bytes all through the file: a value or an error, never a trap.
        var generator = SplitMix(seed: 7)
        for _ in 0..<200 {
            var damaged = data
            for _ in 0..<4 {
                let i = Int.random(in: 0..<damaged.count, using: &generator)
                damaged[i] = UInt8.random(in: 0...255, using: &generator)
            }
            if let table = try? TimetableFile.decode(damaged, path: "x") {
                _ = Router(table, Router.Query(origins: [0], destinations: [min(1, table.stopCount - 1)], day: Int(table.firstDay) + 3, maxTransfers: 2, minTransfer: 120)).journeys()
            }
        }
    }

    /// One list names every compiled field (written, read, checked at load and combined by it):
    /// a stored property of `Timetable` missing from it would be lost at the next load.
    @Test func everyStoredFieldOfATimetableIsInTheOneList() {
        // `damage` is what the checks where values are read found: not in the file. `fares` is
        // one value whose fields are listed one by one.
        let stored = Mirror(reflecting: Timetable()).children.compactMap(\.label).filter { $0 != "damage" && $0 != "fares" }
            + Mirror(reflecting: CompiledFares()).children.compactMap(\.label)
        let listed = Timetable.fields.map(\.name)
        #expect(Set(stored) == Set(listed), "not listed: \(Set(stored).subtracting(listed)); not stored: \(Set(listed).subtracting(stored))")
        #expect(Set(listed).count == listed.count, "a field listed twice")
    }

    /// A field the check at load names, for each kind of damage to its table: each check can fail.
    @Test func eachFieldsCheckRefusesItsDamage() throws {
        let feed = try TestFeed([
            "stops.txt": TestFeed.stops(["A", "B", "C"]),
            "trips.txt": "route_id,service_id,trip_id\nR,S,t1\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nt1,08:00:00,08:00:00,A,1\nt1,08:10:00,08:10:00,B,2\nt1,08:20:00,08:20:00,C,3\n",
        ]).timetable()
        func refused(_ change: (inout Timetable) -> Void) -> String? {
            var t = feed
            change(&t)
            do { try TimetableFile.validate(t, path: "x"); return nil } catch { return error.message }
        }
        #expect(refused { _ in } == nil)
        #expect(refused { $0.stopParent = Packed([0, 0, 7]) }?.contains("(stopParent)") == true)
        #expect(refused { $0.stopNames.append("extra") }?.contains("(stopNames)") == true)
        #expect(refused { $0.patternStops = Packed([0, 1, 9]) }?.contains("(patternStops)") == true)
        #expect(refused { $0.stopPatterns = Packed([0, 5, 0, 1, 0, 2]) }?.contains("(stopPatterns)") == true)
        #expect(refused { $0.patternTimeStart = Packed([4]) }?.contains("(patternTimeStart)") == true)
        #expect(refused { $0.rowBlocks = Packed([1]) }?.contains("(rowBlocks)") == true)
        #expect(refused { $0.boundStart = Packed([0, 1]) }?.contains("(boundStart)") == true)
        #expect(refused { $0.boundEdges = Packed($0.boundEdges.map { _ in 99 }) }?.contains("(boundEdges)") == true)
        #expect(refused { $0.timeZone = "Mars/Olympus" }?.contains("(timeZone)") == true)
        #expect(refused { $0.feedNames.append("one") }?.contains("(feedZones)") == true)
    }
}
