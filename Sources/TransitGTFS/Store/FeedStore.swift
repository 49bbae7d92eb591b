import Foundation
import TransitSupport

/// Imported feeds under `$TRANSIT_CACHE_DIR/gtfs/`: one compiled file each, `NAME.timetable`,
/// written beside and renamed into place, so a failed import leaves the old feed as it was.
/// A feed given as a path is compiled into `gtfs/.paths/` and reused while its file is unchanged.
package struct FeedStore {
    package let root: String
    /// The clock feeds are compiled at (`TRANSIT_NOW` in the CLI): see `GTFSCompiler.calendarWindow`.
    package var now: Date
    /// Whether feeds given by path and combinations are compiled into the cache and read from it
    /// (`--no-cache`: neither, both compiled in memory for each query).
    package var keepsCompiled: Bool
    /// Where compiling a feed and reading a map say how far they are (nil: nowhere).
    package var progress: ProgressReport?

    package init(cacheDirectory: String, now: Date = Date(), keepsCompiled: Bool = true, progress: ProgressReport? = nil) {
        root = (cacheDirectory as NSString).appendingPathComponent("gtfs")
        self.now = now
        self.keepsCompiled = keepsCompiled
        self.progress = progress
    }

    /// What `feeds` lists and `import` prints, kept at the front of the compiled file.
    package struct Summary: Codable, Equatable {
        package var name: String
        package var source: String
        package var agencies: [String]
        package var timeZone: String
        package var firstDate: String
        package var lastDate: String
        package var stops: Int
        package var routes: Int
        package var trips: Int
        package var stopTimes: Int64
        package var patterns: Int
        package var compiledBytes: Int
        package var compileMilliseconds: Int
        /// For a feed given as a path: the source's size and modification time when compiled.
        package var sourceSize: Int?
        package var sourceModified: Double?
        /// For a feed fetched from a URL: the server's validators, asked with again on `update`.
        package var etag: String?
        package var lastModified: String?
        /// GTFS-Realtime URLs every query of the feed reads (`import --realtime`), as typed:
        /// `$NAME` stays a name, expanded from the environment at each fetch.
        package var realtime: [String]?
        /// `Name: value` headers sent with them (`import --realtime-header`), as typed.
        package var realtimeHeaders: [String]?
        /// The environment variables the user chose at import for them to read (`--realtime-key`,
        /// and those typed in `--realtime` and `--realtime-header`): a remembered source reads
        /// only these and `TRANSIT_KEY_…` (`RealtimeKeys`), never one a catalog row named.
        package var realtimeKeys: [String]?
        /// For a combination of feeds: each feed's name and its compiled file's size and time
        /// when combined (a feed imported again, or its source changed, makes it stale).
        package var parts: [Part]?
        /// The OpenStreetMap extract its walks were measured on (`import --streets`), as an
        /// absolute path, with its size and time then (`update` measures again when they change).
        package var streets: String?
        /// The map's content when measured (`FeedStore.mapHash`): its walking network in
        /// `.streets/` is named by it, and `update` measures again when the map's bytes differ
        /// (a map replaced by another of the same size and time is another map).
        package var streetsHash: String?
        /// Where it was found: its id in the Mobility Database catalog (`import mdb-53`), and the
        /// licence the catalog names for it (a URL).
        package var catalog: String?
        package var license: String?
    }

    /// A feed's entry in the catalog, as a summary keeps it.
    package struct CatalogEntry: Sendable, Equatable {
        package var id: String?
        package var license: String?
        package init(id: String?, license: String?) {
            self.id = id
            self.license = license
        }
    }

    package struct Part: Codable, Equatable {
        package var name: String
        package var size: Int
        package var modified: Double
        /// The feed's remembered real-time sources, headers and keys, as its own summary has them.
        package var realtime: [String]?
        package var realtimeHeaders: [String]?
        package var realtimeKeys: [String]?
    }

    /// The real-time sources a feed remembers: URLs, `Name: value` headers, as typed, and the
    /// variables the user chose for them to read.
    package struct RealtimeSources: Sendable, Equatable {
        package var sources: [String]
        package var headers: [String]
        package var keys: [String]
        package init(sources: [String], headers: [String] = [], keys: [String] = []) {
            self.sources = sources
            self.headers = headers
            self.keys = keys
        }
        /// What `summary` remembers.
        package init(of summary: Summary) {
            self.init(sources: summary.realtime ?? [], headers: summary.realtimeHeaders ?? [], keys: summary.realtimeKeys ?? [])
        }
    }

    package static func validName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 100 && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }
    }

    package func path(of name: String) -> String { (root as NSString).appendingPathComponent(name + ".timetable") }

    /// Compiles `files` and writes it as `name`; returns the summary and the compiler's warnings.
    package func install(_ files: FeedFiles, name: String, source: String, at path: String? = nil,
                 sourceStamp: (size: Int, modified: Double)? = nil, validators: (etag: String?, lastModified: String?)? = nil,
                 realtime: RealtimeSources? = nil, streets: String? = nil, catalog: CatalogEntry? = nil,
                 replacing: Bool = false) throws(TransitError) -> (Summary, [String]) {
        // A network no feed names (a map refused, or the one this feed had before) is not kept.
        defer { removeUnusedNetworks() }
        var (summary, timetable, warnings) = try compile(files, name: name, source: source, sourceStamp: sourceStamp, validators: validators,
                                                         realtime: realtime, streets: streets)
        summary.catalog = catalog?.id
        summary.license = catalog?.license
        // An update (`replacing`) writes the feed back only if it was not removed meanwhile.
        let target = path ?? self.path(of: name)
        guard let bytes = try write(timetable, summary: summary, to: target, still: replacing ? { FileManager.default.fileExists(atPath: target) } : nil) else {
            throw .refused("\(name) was removed while it was compiled again; not written back", hint: nil)
        }
        summary.compiledBytes = bytes
        return (summary, warnings)
    }

    /// Compiles `files` in memory, with the summary a compiled file of it would carry.
    package func compile(_ files: FeedFiles, name: String, source: String, sourceStamp: (size: Int, modified: Double)? = nil,
                         validators: (etag: String?, lastModified: String?)? = nil,
                         realtime: RealtimeSources? = nil, streets: String? = nil) throws(TransitError) -> (Summary, Timetable, [String]) {
        let started = DispatchTime.now().uptimeNanoseconds
        var (timetable, warnings) = try GTFSCompiler.compile(files, now: now, progress: progress)
        var streetsHash: String?
        if let streets {
            let (networks, hash) = try self.streets(streets, profiles: [.foot, .stepFree])
            streetsHash = hash
            guard let (network, grid) = networks.first else { throw .usage("the map \(streets) holds no walking network") }
            let outcome = StreetFootpaths.measure(&timetable, on: network, grid: grid, stepFree: networks.count > 1 ? networks[1] : nil)
            if outcome.joined == 0 {
                throw .usage("no stop of the feed is within \(Int(StreetFootpaths.joinRadius)) m of a walkable street of \(streets): does the map cover the feed?")
            }
            // What the map did, in one line (`gtfs walks` lists the walks kept).
            let stops = outcome.joined + outcome.unjoined, pairs = outcome.droppedPairs.count { $0.reason != .stepsOnly }
            let stepsOnly = outcome.droppedPairs.count { $0.reason == .stepsOnly }
            warnings.append("streets: \(outcome.joined) of \(stops) stops joined to the map; "
                            + (outcome.unjoined > 0 ? "\(outcome.unjoined) of \(stops) stops are more than \(Int(StreetFootpaths.joinRadius)) m from a walkable street of the map (their walks stay straight lines); " : "")
                            + "\(pairs) \(pairs == 1 ? "pair" : "pairs") of stops within \(Int(TimetableCombination.linkRadius)) m \(pairs == 1 ? "keeps" : "keep") no walk, more than \(Int(TimetableCombination.longestWalk)) m apart on it or not connected (gtfs walks --dropped lists them)"
                            + (outcome.nextPiece > 0 ? "; \(outcome.nextPiece) \(outcome.nextPiece == 1 ? "stop joins a piece" : "stops join pieces") of the map no other stop joins, and the next piece too" : "")
                            + (stepsOnly > 0 ? "; \(stepsOnly) \(stepsOnly == 1 ? "pair keeps a walk that has" : "pairs keep walks that have") no way without steps within \(Int(TimetableCombination.longestWalk)) m (none for --wheelchair)" : ""))
        }
        let range = timetable.dateRange
        var summary = Summary(name: name, source: source, agencies: (0..<timetable.agencyNames.count).map { timetable.agencyNames[$0] },
                              timeZone: timetable.timeZone, firstDate: range.first.iso, lastDate: range.last.iso,
                              stops: timetable.stopCount, routes: timetable.routeCount, trips: timetable.tripCount,
                              stopTimes: timetable.sourceStopTimes, patterns: timetable.patternCount, compiledBytes: 0,
                              compileMilliseconds: Int((DispatchTime.now().uptimeNanoseconds - started) / 1_000_000),
                              sourceSize: sourceStamp?.size, sourceModified: sourceStamp?.modified,
                              etag: validators?.etag, lastModified: validators?.lastModified)
        if let realtime, !realtime.sources.isEmpty {
            summary.realtime = realtime.sources
            summary.realtimeHeaders = realtime.headers.isEmpty ? nil : realtime.headers
            summary.realtimeKeys = realtime.keys.isEmpty ? nil : realtime.keys
        }
        summary.streets = streets
        summary.streetsHash = streetsHash
        return (summary, timetable, warnings)
    }

    /// A source's size and time; for a directory, its files' total size and latest time (a file
    /// edited in place does not change the directory's own).
    package static func stamp(_ path: String) -> (size: Int, modified: Double)? {
        let files = FileManager.default
        guard let attributes = try? files.attributesOfItem(atPath: path) else { return nil }
        func read(_ a: [FileAttributeKey: Any]) -> (Int, Double) {
            ((a[.size] as? NSNumber)?.intValue ?? 0, (a[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)
        }
        guard attributes[.type] as? FileAttributeType == .typeDirectory else { return read(attributes) }
        var size = 0, modified = 0.0
        for name in (try? files.contentsOfDirectory(atPath: path)) ?? [] {
            guard let a = try? files.attributesOfItem(atPath: (path as NSString).appendingPathComponent(name)) else { continue }
            let (s, m) = read(a)
            size += s
            modified = max(modified, m)
        }
        return (size, modified)
    }

    /// 16 bytes; the summary after it is padded to 8, so the timetable's arrays stay aligned.
    /// The container's version is the timetable's: one constant (`TimetableFile.version`).
    /// The file ends with the checksum (`Checksum`, 8 bytes) of every byte before it, checked at
    /// each load: a flipped bit anywhere is refused, never answered from.
    package static let magic = Array("transit-feed \(TimetableFile.version < 10 ? "0" : "")\(TimetableFile.version)\n".utf8)

    /// Streams the summary and the timetable to a temporary file beside `path`, then renames it
    /// over `path`; on any failure the temporary file goes and `path` stays as it was. The
    /// rename is made holding the writers' lock, and only while `still()` holds there (a feed
    /// being updated that was removed meanwhile is not written back); nil when it did not.
    package func write(_ timetable: Timetable, summary: Summary, to path: String, still: (() -> Bool)? = nil) throws(TransitError) -> Int? {
        try writeFile(path, what: "the compiled feed", still: still) { writer in
            writer.raw(Self.magic)
            let header = (try? JSONEncoder().encode(summary)) ?? Data("{}".utf8)
            writer.scalar(UInt32(header.count))
            header.withUnsafeBytes { writer.append($0) }
            writer.pad()
            TimetableFile.write(timetable, to: &writer)
        }
    }

    /// Writes a file of the cache as `body` streams it, then its checksum, to a temporary file
    /// beside `path`, renamed over it under the writers' lock while `still()` holds; on any
    /// failure the temporary file goes and `path` stays as it was. Returns the bytes written,
    /// nil when `still()` said no.
    package func writeFile(_ path: String, what: String, still: (() -> Bool)? = nil, _ body: (inout BinaryWriter) -> Void) throws(TransitError) -> Int? {
        let directory = (path as NSString).deletingLastPathComponent
        let temporary = (directory as NSString).appendingPathComponent(TemporaryFiles.name("import"))
        var token: Int?
        defer { TemporaryFiles.forget(token) }
        func failed(_ reason: String) -> TransitError {
            unlink(temporary)
            return .write(what: what, path: path, reason: reason)
        }
        // mkdir -p by hand: the system's words (`Read-only file system`) where Foundation's
        // createDirectory says "The file doesn't exist" of any failure.
        var made = directory.hasPrefix("/") ? "" : "."
        for part in directory.split(separator: "/", omittingEmptySubsequences: true) {
            made += "/" + part
            if mkdir(made, 0o755) != 0 && errno != EEXIST { throw failed(String(cString: strerror(errno))) }
        }
        token = TemporaryFiles.register(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failed(String(cString: strerror(errno))) }
        var writer = BinaryWriter(descriptor: fd)
        body(&writer)
        writer.scalar(writer.checksum.value)
        let closed = close(fd)
        if let failure = writer.failure { throw failed(String(cString: strerror(failure))) }
        guard closed == 0 else { throw failed(String(cString: strerror(errno))) }
        let renamed = try whileLocked { () throws(TransitError) -> Bool in
            guard still?() ?? true else { return false }
            guard rename(temporary, path) == 0 else { throw failed(String(cString: strerror(errno))) }
            CheckRecord.forget(path)  // of the file replaced (it would not match this one anyway)
            return true
        }
        guard renamed else { unlink(temporary); return nil }
        return writer.written
    }

    /// A file of the cache, mapped: the bytes before its checksum, and whether a `CheckRecord`
    /// says this very file was found sound before (then the checksum is not read again; the
    /// caller records its own check when it was not). `whole`: read it whole regardless.
    package static func verified(_ path: String, whole: Bool = false) throws(TransitError) -> (file: MappedFile, bytes: UnsafeRawBufferPointer, checkedBefore: Bool) {
        let file = try MappedFile(path)
        guard file.bytes.count >= 8 else { throw .parse(what: path, reason: "cut short") }
        let bytes = UnsafeRawBufferPointer(rebasing: file.bytes.dropLast(8))
        if !whole, CheckRecord.holds(for: path, file.identity) { return (file, bytes, true) }
        guard Checksum.of(bytes) == UInt64(littleEndian: file.bytes.loadUnaligned(fromByteOffset: bytes.count, as: UInt64.self)) else {
            throw .parse(what: path, reason: "damaged (its checksum differs)")
        }
        return (file, bytes, false)
    }

    /// Runs `body` holding the cache's writers' lock (an advisory `flock` on `gtfs/.lock`): one
    /// writer at a time renames or deletes a compiled file, and each writer checks what it
    /// relies on under it. Held for a rename or a delete only, so a writer waits milliseconds;
    /// readers never take it. Where the lock cannot be had (a read-only cache), `body` runs
    /// without it (it cannot write either).
    package func whileLocked<T>(_ body: () throws(TransitError) -> T) throws(TransitError) -> T {
        try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let fd = open((root as NSString).appendingPathComponent(".lock"), O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return try body() }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    /// Removes what writers killed outright left behind: temporary files (`.import-PID-…`,
    /// `.download-PID-…`) whose process is gone, in the cache and its `.combined/`, `.paths/` and `.streets/`;
    /// those of an older transit (no pid in the name) when over an hour old. Run by every
    /// command that writes the cache (import, update, remove).
    package func sweep() {
        let files = FileManager.default
        for directory in [root, root + "/.combined", root + "/.paths", root + "/.streets"] {
            for name in (try? files.contentsOfDirectory(atPath: directory)) ?? [] where name.hasPrefix(".import-") || name.hasPrefix(".download-") {
                let path = (directory as NSString).appendingPathComponent(name)
                let owner = TemporaryFiles.owner(of: name, prefix: "import") ?? TemporaryFiles.owner(of: name, prefix: "download")
                if let owner {
                    guard TemporaryFiles.isGone(owner) else { continue }
                } else {
                    let modified = ((try? files.attributesOfItem(atPath: path))?[.modificationDate] as? Date) ?? Date()
                    // The file system's clock, not a pinned one (`TRANSIT_NOW`).
                    guard Date().timeIntervalSince(modified) > 3600 else { continue }
                }
                unlink(path)
            }
        }
    }

    /// Deletes the feed `name` and the combinations holding it, under the writers' lock.
    package func remove(_ name: String) throws(TransitError) {
        try whileLocked { () throws(TransitError) in
            guard unlink(path(of: name)) == 0 || errno == ENOENT else {
                throw .parse(what: path(of: name), reason: "cannot remove it: \(String(cString: strerror(errno)))")
            }
            CheckRecord.forget(path(of: name))
            removeCombinations(with: name)
        }
        removeUnusedNetworks()
    }

    /// The summary at the front of a compiled file; `named`: the feed it must be (a file of the
    /// cache is named after its feed, and one copied over another would answer as the other).
    package static func summary(at path: String, named: String? = nil) throws(TransitError) -> Summary {
        let (summary, current) = try storedSummary(at: path)
        if let named, summary.name != named { throw misnamed(path, named, holding: summary.name) }
        guard current else {
            throw .parse(what: path, reason: "compiled by another version of transit; compile it again from its source: transit gtfs update \(summary.name)")
        }
        return summary
    }

    static func misnamed(_ path: String, _ name: String, holding other: String) -> TransitError {
        .parse(what: path, reason: "it holds the feed '\(other)', not \(name) (a file copied over another?); remove it (transit gtfs remove \(name)) and import \(name) again")
    }

    /// The summary at the front of a compiled file of any version of the container (its layout,
    /// magic, length and JSON, has not changed), and whether the file is of this version: an
    /// older feed still names its source, so `gtfs update` can compile it again.
    package static func storedSummary(at path: String) throws(TransitError) -> (summary: Summary, current: Bool) {
        let file = try ReadOnlyFile(path)
        let head = try file.bytes(at: 0, count: magic.count + 4, what: "the header")
        let stem = Array("transit-feed ".utf8)
        guard Array(head.prefix(stem.count)) == stem, head.count > magic.count, head[magic.count - 1] == UInt8(ascii: "\n") else {
            let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            throw .parse(what: path, reason: "not a compiled feed; remove it (transit gtfs remove \(name)) and import it again")
        }
        let length = Int(head[magic.count]) | Int(head[magic.count + 1]) << 8 | Int(head[magic.count + 2]) << 16 | Int(head[magic.count + 3]) << 24
        let json = try file.bytes(at: magic.count + 4, count: length, what: "the summary")
        guard let summary = try? JSONDecoder().decode(Summary.self, from: Data(json)) else {
            let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            throw .parse(what: path, reason: "the feed's summary is damaged; remove it (transit gtfs remove \(name)) and import it again")
        }
        return (summary, Array(head.prefix(magic.count)) == magic)
    }

    /// The compiled file at `path`; `named`: the feed it must hold (see `summary(at:named:)`).
    package static func load(_ path: String, named: String? = nil) throws(TransitError) -> (Summary, Timetable) {
        let summary = try summary(at: path, named: named)
        let file: MappedFile, bytes: UnsafeRawBufferPointer, checkedBefore: Bool
        do { (file, bytes, checkedBefore) = try verified(path) } catch {
            throw .parse(what: path, reason: "the compiled feed is damaged or cut short; compile it again from its source: transit gtfs update \(summary.name)")
        }
        guard bytes.count >= magic.count + 4 else { throw .parse(what: path, reason: "the compiled feed is cut short; import it again") }
        let headerLength = Int(bytes[magic.count]) | Int(bytes[magic.count + 1]) << 8 | Int(bytes[magic.count + 2]) << 16 | Int(bytes[magic.count + 3]) << 24
        var start = magic.count + 4 + headerLength
        start += (8 - start % 8) % 8
        guard start <= bytes.count else { throw .parse(what: path, reason: "the compiled feed is cut short; import it again") }
        let timetable: Timetable
        do { timetable = try TimetableFile.decode(bytes, from: start, owner: file, path: path, vouched: checkedBefore) } catch {
            // Found damaged though its note vouched for it: the next load reads it whole.
            if checkedBefore { CheckRecord.forget(path) }
            throw error
        }
        if !checkedBefore { CheckRecord.record(for: path, file.identity) }
        return (summary, timetable)
    }

    /// Imported feeds, by name.
    package func feeds() -> [Summary] { stored().compactMap { $0.state == .current ? $0.summary : nil } }

    /// Imported feeds compiled by another version of transit (to compile again from their sources).
    package func olderFeeds() -> [Summary] { stored().compactMap { $0.state == .older ? $0.summary : nil } }

    /// Imported feeds whose summary cannot be read (their file damaged): by name, to be removed.
    package func damagedFeeds() -> [String] { stored().filter { $0.state == .damaged }.map(\.name) }

    package enum State { case current, older, damaged }

    /// Every compiled file of the cache, by name, with its summary where it can be read.
    func stored() -> [(name: String, summary: Summary?, state: State)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return names.filter { $0.hasSuffix(".timetable") && !$0.hasPrefix(".") }.sorted().map { file in
            let name = String(file.dropLast(".timetable".count))
            // A file holding another feed than its name says is damaged too (copied over it).
            guard let (summary, current) = try? Self.storedSummary(at: (root as NSString).appendingPathComponent(file)),
                  summary.name == name else { return (name, nil, .damaged) }
            return (name, summary, current ? .current : .older)
        }
    }

    /// Whether a compiled file is whole: its checksum read over every byte (for `update`, which
    /// compiles a damaged feed again from its source, changed or not).
    package static func intact(_ path: String) -> Bool { (try? verified(path, whole: true)) != nil }
}
