import Foundation
import TransitSupport

/// What `--feed` names, resolved: an imported feed, several as one combination (compiled once and
/// kept), or a feed given by its path (compiled into `gtfs/.paths/` and reused while unchanged).
extension FeedStore {
    /// `--feed NAME|PATH` (repeatable; `all`: every imported feed), else `TRANSIT_GTFS_FEED` (a
    /// comma-separated list), else the one imported feed. Several feeds are one combination.
    package func resolve(_ given: [String], variable: String? = nil) throws(TransitError) -> (Summary, Timetable, warnings: [String]) {
        let named = try names(given, variable: variable)
        guard named.count > 1 else { return try resolve(named.first) }
        return try combined(named)
    }

    /// The feeds `given` names, each once: a list with commas as TRANSIT_GTFS_FEED takes it
    /// (unless a file has that name), `all` every imported feed; none given: `variable`'s.
    package func names(_ given: [String], variable: String? = nil) throws(TransitError) -> [String] {
        func list(_ text: String) -> [String] {
            FileManager.default.fileExists(atPath: text) ? [text]
                : text.split(separator: ",").map { $0.trimmedSpace(newlines: false) }.filter { !$0.isEmpty }
        }
        var names = given.flatMap(list)
        if names.isEmpty, let variable { names = list(variable) }
        if names.contains("all") {
            let imported = feeds().map(\.name)
            guard !imported.isEmpty else {
                throw .usage("--feed all: no GTFS feed is imported", hint: "import one with: transit gtfs import FEED.zip --name NAME")
            }
            names = names.flatMap { $0 == "all" ? imported : [$0] }
        }
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }

    /// The summary of a feed `name` names, imported or a path compiled before, read from the
    /// front of its compiled file alone (nil: neither, or a path whose compiled file the cache
    /// could not keep, which is compiled again here).
    package func summary(ofGiven name: String) -> Summary? {
        if Self.validName(name), let summary = try? Self.summary(at: path(of: name), named: name) { return summary }
        guard FileManager.default.fileExists(atPath: name) else { return nil }
        let absolute = URL(fileURLWithPath: name).standardizedFileURL.path
        if let summary = try? Self.summary(at: pathCache(absolute)), summary.source == absolute { return summary }
        return try? compiledPath(name).0
    }

    /// Several feeds, as one combination.
    private func combined(_ names: [String]) throws(TransitError) -> (Summary, Timetable, warnings: [String]) {
        // Each feed's summary and compiled file; an imported feed is only opened if the
        // combination must be compiled again (a path is compiled here when it changed).
        var parts: [(summary: Summary, file: String, timetable: Timetable?)] = []
        var warnings: [String] = []
        for name in names {
            let part: (summary: Summary, file: String, timetable: Timetable?)
            if Self.validName(name), FileManager.default.fileExists(atPath: path(of: name)) {
                part = (try Self.summary(at: path(of: name), named: name), path(of: name), nil)
            } else if FileManager.default.fileExists(atPath: name) {
                let (summary, timetable, more) = try compiledPath(name)
                warnings += more.map { "\(summary.name): \($0)" }
                part = (summary, pathCache(URL(fileURLWithPath: name).standardizedFileURL.path), timetable)
            } else {
                return try resolve(name)  // the error naming the imported feeds
            }
            // A feed given by path is named by its file, and its name prefixes its ids.
            guard Self.validName(part.summary.name) else {
                throw .usage("'\(part.summary.name)' (from \(name)) cannot name a feed's ids; import it with: transit gtfs import \(name) --name NAME")
            }
            if let clash = parts.first(where: { $0.summary.name == part.summary.name }) {
                throw .usage("two feeds are called '\(part.summary.name)' (\(clash.summary.source) and \(part.summary.source)); import one under another name: transit gtfs import SOURCE --name NAME")
            }
            parts.append(part)
        }
        parts.sort { $0.summary.name < $1.summary.name }
        let (summary, timetable, kept) = try combination(parts)
        return (summary, timetable, warnings + [kept].compactMap { $0 })
    }

    /// Feeds combined (`TimetableCombination`), compiled into `gtfs/.combined/` on first use and
    /// reused while every feed's compiled file is as it was. Where it cannot be kept (a full disk,
    /// a cache that is read-only), the query still gets it, with a warning saying so.
    package func combination(_ parts: [(summary: Summary, file: String, timetable: Timetable?)]) throws(TransitError) -> (Summary, Timetable, warning: String?) {
        let stamps = parts.map { part -> Part in
            let stamp = Self.stamp(part.file) ?? (0, 0)
            return Part(name: part.summary.name, size: stamp.size, modified: stamp.modified,
                        realtime: part.summary.realtime, realtimeHeaders: part.summary.realtimeHeaders, realtimeKeys: part.summary.realtimeKeys)
        }
        let name = parts.map(\.summary.name).joined(separator: "+")
        let cached = (root as NSString).appendingPathComponent(".combined/\(FNV1a.hex(name)).timetable")
        if keepsCompiled, let summary = try? Self.summary(at: cached), summary.parts == stamps, let loaded = try? Self.load(cached) {
            return (loaded.0, loaded.1, nil)
        }
        var timetables: [(name: String, timetable: Timetable)] = []
        for part in parts {
            if let loaded = part.timetable {
                timetables.append((part.summary.name, loaded))
            } else {
                timetables.append((part.summary.name, try Self.load(part.file, named: part.summary.name).1))
            }
        }
        // A combination reads every value of its feeds: each is checked whole first (what a
        // check note let a load leave to be checked where read), so that damage names its feed.
        for (part, loaded) in zip(parts, timetables) {
            do { try TimetableFile.validate(loaded.timetable, path: part.file) } catch {
                CheckRecord.forget(part.file)
                throw error
            }
        }
        let started = DispatchTime.now().uptimeNanoseconds
        var timetable = try TimetableCombination.combine(timetables)
        // Feeds imported on one map: the links between them are measured on its streets too (each
        // feed's own walks were at its import, and measuring them again changes none). Feeds on
        // different maps, or some on none, link by straight lines (docs/gtfs.md).
        let maps = Set(parts.map { [$0.summary.streets, $0.summary.streetsHash] })
        var map: (path: String, hash: String)?
        if maps.count == 1, let only = maps.first, let path = only[0], let hash = only[1],
           let (networks, _) = try? streets(path, hash: hash, profiles: [.foot, .stepFree]), let (network, grid) = networks.first {
            _ = StreetFootpaths.measure(&timetable, on: network, grid: grid, stepFree: networks.count > 1 ? networks[1] : nil)
            map = (path, hash)
        }
        let range = timetable.dateRange
        var summary = Summary(name: name, source: "the combination of " + parts.map(\.summary.name).joined(separator: ", "),
                              agencies: parts.flatMap(\.summary.agencies), timeZone: timetable.timeZone,
                              firstDate: range.first.iso, lastDate: range.last.iso, stops: timetable.stopCount, routes: timetable.routeCount,
                              trips: timetable.tripCount, stopTimes: timetable.sourceStopTimes, patterns: timetable.patternCount, compiledBytes: 0,
                              compileMilliseconds: 0)
        summary.parts = stamps
        summary.streets = map?.path
        summary.streetsHash = map?.hash
        summary.compileMilliseconds = Int((DispatchTime.now().uptimeNanoseconds - started) / 1_000_000)
        // Kept only if no feed of it changed or went meanwhile (a combination of a removed feed
        // would be an orphan no removal deletes).
        let unchanged = { parts.map { part in Self.stamp(part.file).map { ($0.size, $0.modified) } ?? (-1, -1) }
            .elementsEqual(stamps.map { ($0.size, $0.modified) }) { $0 == $1 } }
        guard keepsCompiled else { return (summary, timetable, nil) }
        do {
            guard let bytes = try write(timetable, summary: summary, to: cached, still: unchanged) else { return (summary, timetable, nil) }
            summary.compiledBytes = bytes
        } catch {
            let reason = if case .write(_, let path, let reason) = error { "cannot write \(path): \(reason)" } else { error.message }
            return (summary, timetable, "the combination is not kept (\(reason)); it is compiled again next time")
        }
        return (summary, timetable, nil)
    }

    /// The compiled combinations that hold the feed `name` (they could not be used again).
    package func removeCombinations(with name: String) {
        let directory = (root as NSString).appendingPathComponent(".combined")
        for file in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where file.hasSuffix(".timetable") {
            let path = (directory as NSString).appendingPathComponent(file)
            if let summary = try? Self.summary(at: path), summary.parts?.contains(where: { $0.name == name }) == true {
                unlink(path)
                CheckRecord.forget(path)
            }
        }
    }

    /// One feed: `given` (a name or a path), else the one imported feed.
    package func resolve(_ given: String?) throws(TransitError) -> (Summary, Timetable, warnings: [String]) {
        if let given {
            if Self.validName(given), FileManager.default.fileExists(atPath: path(of: given)) {
                let (summary, timetable) = try Self.load(path(of: given), named: given)
                return (summary, timetable, [])
            }
            if FileManager.default.fileExists(atPath: given) { return try compiledPath(given) }
            let names = feeds().map(\.name)
            throw .usage("no imported feed or file called '\(given)'" + (names.isEmpty ? "" : "; imported: \(names.joined(separator: ", "))"),
                         hint: "import one with: transit gtfs import FEED.zip")
        }
        let all = feeds()
        guard all.count == 1, let only = all.first else {
            if all.isEmpty, let damaged = damagedFeeds().first {
                throw .usage("the compiled file of \(damaged) is damaged; remove it with: transit gtfs remove \(damaged), then import it again")
            }
            if all.isEmpty, let older = olderFeeds().first {
                throw .usage("\(older.name) was compiled by another version of transit; compile it again from its source: transit gtfs update")
            }
            if all.isEmpty { throw .usage("no GTFS feed is imported", hint: "import one with: transit gtfs import FEED.zip (or give --feed PATH)") }
            throw .usage("\(all.count) feeds are imported (\(all.map(\.name).joined(separator: ", "))): say which with --feed or TRANSIT_GTFS_FEED")
        }
        let (summary, timetable) = try Self.load(path(of: only.name), named: only.name)
        return (summary, timetable, [])
    }

    private func pathCache(_ absolute: String) -> String {
        (root as NSString).appendingPathComponent(".paths/\(FNV1a.hex(absolute)).timetable")
    }

    /// A zip or directory given by path: compiled once into `.paths/`, reused while its size and
    /// time stay. Where it cannot be kept (a full disk, a read-only cache) the query answers from
    /// memory with a warning; with `keepsCompiled` off (`--no-cache`) nothing is read or written.
    package func compiledPath(_ given: String) throws(TransitError) -> (Summary, Timetable, warnings: [String]) {
        let absolute = URL(fileURLWithPath: given).standardizedFileURL.path
        let (size, modified) = Self.stamp(absolute) ?? (0, 0)
        let cached = pathCache(absolute)
        if keepsCompiled, let summary = try? Self.summary(at: cached), summary.source == absolute, summary.sourceSize == size,
           summary.sourceModified == modified, let loaded = try? Self.load(cached) {
            return (loaded.0, loaded.1, [])
        }
        let name = ((absolute as NSString).lastPathComponent as NSString).deletingPathExtension
        var (summary, timetable, warnings) = try compile(try FeedFiles.open(absolute), name: name, source: absolute, sourceStamp: (size, modified))
        guard keepsCompiled else { return (summary, timetable, warnings) }
        do {
            if let bytes = try write(timetable, summary: summary, to: cached) { summary.compiledBytes = bytes }
        } catch {
            let reason = if case .write(_, let path, let reason) = error { "cannot write \(path): \(reason)" } else { error.message }
            warnings.append("the compiled feed is not kept (\(reason)); it is compiled again next time")
        }
        return (summary, timetable, warnings)
    }
}
