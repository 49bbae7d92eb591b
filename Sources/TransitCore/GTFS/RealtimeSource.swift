import Foundation
import TransitSupport
import TransitGTFS

/// GTFS-Realtime data for one query: each source (an http(s) URL, fetched through the HTTP path
/// with its timeout, retries, `--record` and `--offline`; or a file) read, decoded and applied
/// to the timetable. A source that cannot be read or decoded fails the command (one line:
/// which source, what is wrong, at which byte): an answer is never printed on the schedule as
/// if it were real-time.
struct RealtimeSource {
    let context: Context
    /// Seconds in which a source must connect and send its first byte (`--realtime-timeout`);
    /// a flowing transfer then has the client's `--timeout`. A source is tried once.
    var deadline: TimeInterval = RealtimeSource.defaultDeadline

    /// The largest message read (Budapest's whole network is 2.8 MB; this is 20 times that).
    static let maxBytes = 64 << 20
    /// `--realtime-timeout`'s default.
    static let defaultDeadline: TimeInterval = 2

    /// `$NAME` and `${NAME}` in `text` replaced by the environment's values, each registered as a
    /// secret (never printed, recorded or cached); a name that is not set is an error.
    func expand(_ text: String) throws(TransitError) -> String {
        var out = "", from = text.startIndex
        for (range, name) in RealtimeKeys.references(in: text) {
            guard let value = context.settings.environment[name], !value.isEmpty else {
                throw .usage("the real-time source \(text) needs $\(name), which is not set")
            }
            Redaction.register(value)
            out += text[from..<range.lowerBound] + value
            from = range.upperBound
        }
        return out + text[from...]
    }

    /// A source's bytes, and whether it is a file (a recording: its own header is its clock).
    /// `headers` are `Name: value` lines, `$NAME` expanded, sent with a URL.
    func bytes(_ source: String, headers: [String] = []) async throws(TransitError) -> (data: Data, isFile: Bool) {
        if HTTPRequest.isURL(source) {
            if let name = RealtimeKeys.inPath(source) {
                throw .usage("the real-time source \(Redaction.url(source)) names $\(name) before its query string: a key goes in the query (?key=$\(name)) or a header, never in the path")
            }
            let expanded = try expand(source)
            guard let url = URLComponents(string: expanded), let host = url.host, !host.isEmpty else { throw .usage("'\(Redaction.url(expanded))' is not a URL") }
            var base = url
            base.path = ""
            base.query = nil
            // A fragment is the reader's, never sent: kept on the base, it swallowed the path
            // (`http://h/x/y#top` requested `/`; issue 62).
            base.fragment = nil
            // A query value that came from a variable is a secret: kept out of recordings' names and the cache.
            let typed = URLComponents(string: source)?.queryItems ?? []
            let secretNames = Set(typed.filter { ($0.value ?? "").contains("$") }.map(\.name))
            var sent: [String: String] = [:], secretHeaders = Set<String>()
            for header in headers {
                guard let colon = header.firstIndex(of: ":") else { continue }
                let name = header[..<colon].trimmedSpace(newlines: false), value = header[header.index(after: colon)...].trimmedSpace(newlines: false)
                sent[name] = try expand(value)
                if value.contains("$") { secretHeaders.insert(name) }
            }
            var request = HTTPRequest(provider: "gtfs", baseURL: base.string ?? expanded, path: String(url.path.drop { $0 == "/" }),
                                      query: (url.queryItems ?? []).map { .init($0.name, $0.value ?? "") }, headers: sent,
                                      secretNames: secretNames.union(secretHeaders), expects: .protobuf,
                                      label: "real-time data from \(host)", maxBodyBytes: Self.maxBytes)
            request.firstByteDeadline = deadline
            request.attempts = 1
            return (try await context.http.get(request) { $0.body }, false)
        }
        guard let file = FileManager.default.attributesOfItemIfExists(source) else {
            throw .usage("no real-time data at \(source): give an http(s) URL or a GTFS-Realtime file (.pb)")
        }
        guard file <= Self.maxBytes else { throw .parse(what: source, reason: "\(file) bytes, more than a GTFS-Realtime message of \(Self.maxBytes >> 20) MB") }
        guard let data = FileManager.default.contents(atPath: source) else { throw .parse(what: source, reason: "cannot read the file") }
        return (data, true)
    }


    /// One source's message, with the clock it is read at (rule 6: a recording at its own time,
    /// unless the clock is pinned): `RealtimeMessage`.
    typealias Message = RealtimeMessage

    /// Every source, as fetched, decoded in order; an empty one is said and left out, one with a
    /// header and nothing else is said. `soft`: a source that cannot be reached or read (down, timed
    /// out, an error status, garbage) is said in one notice and left out, and the answer is the
    /// timetable as planned; a usage error (a file that is not there, a key not set) still fails.
    func messages(_ fetched: [(source: String, bytes: Fetched)], soft: Bool = false) throws(TransitError) -> (messages: [Message], notices: [String]) {
        var out: [Message] = [], notices: [String] = []
        for (source, bytes) in fetched {
            context.progress("reading real-time data")
            let name = Redaction.url(source)
            let read: (data: Data, isFile: Bool), decoded: FeedMessage?
            do {
                read = try bytes.get()
                decoded = try RealtimeMessage.decode(read.data, source: name)
            } catch {
                guard soft, error.exitStatus != 2 else { throw error }
                notices.append(Self.notLive(error, deadline: deadline))
                continue
            }
            guard let message = decoded else {
                notices.append("\(name): empty, no real-time data")
                continue
            }
            if message.entitiesNotRead > 0 {
                notices.append("\(name): \(message.entitiesNotRead) entities past the first \(Numbers.grouped(FeedMessage.maxEntities)) are not read")
            }
            if message.alertsNotRead > 0 {
                notices.append("\(name): \(message.alertsNotRead) alerts past the first \(FeedMessage.maxAlerts) are not read")
            }
            // A header and nothing else says nothing: a dead feed, not a network on time.
            if message.entities.isEmpty {
                notices.append("\(name): a header and no data (no trip is known to run as planned or not)")
            }
            var now = Int(context.settings.now.timeIntervalSince1970)
            let recording = read.isFile && !context.settings.clockPinned && message.headerSeconds != nil
            if recording, let stamp = message.headerSeconds { now = stamp }
            out.append(Message(source: name, message: message, now: now, isRecording: recording))
        }
        return (out, notices)
    }

    /// Sources read with the same headers and naming one feed's trips, routes and stops. Over
    /// several feeds, `feed` is that feed's name ("" for one feed), and `prefix` what its ids carry
    /// in the combination (`bart:`): the messages' ids are moved into the combination's before
    /// anything reads them.
    struct Group: Equatable {
        var sources: [String]
        var headers: [String] = []
        var feed = ""
        /// For sources a feed remembers, the variables chosen at import (`RealtimeKeys`), and the
        /// feed's name; nil for sources typed on this command line, which may read any.
        var chosenKeys: Set<String>? = nil
        var owner = ""

        var prefix: String { feed.isEmpty ? "" : feed + ":" }
    }

    /// One source's bytes, or why there are none.
    typealias Fetched = Result<(data: Data, isFile: Bool), TransitError>

    /// The notice of a source that could not be read: the answer is as planned.
    static func notLive(_ error: TransitError, deadline: TimeInterval) -> String {
        "not live: \(reason(error, deadline: deadline)); the times are as planned"
    }

    /// Why a source could not be read, in one line (`RealtimeOutages` keeps it).
    static func reason(_ error: TransitError, deadline: TimeInterval) -> String {
        var reason = Sanitize.line(error.message)
        switch error {
        case .timeout(_, let seconds) where seconds == deadline, .slow(_, let seconds, _, _) where seconds == deadline: reason += " (--realtime-timeout)"
        default: break
        }
        return reason
    }

    /// Each group's messages, in order, their ids in the timetable's terms. Every source is fetched
    /// at once, in parallel, before any is decoded: a query waits for its slowest source, never
    /// for their sum. `soft`: a remembered source that failed is not asked again for
    /// `RealtimeOutages.skipSeconds` (its notice said again).
    func messages(_ groups: [Group], soft: Bool = false) async throws(TransitError) -> (messages: [Message], notices: [String]) {
        var out: [Message] = [], notices: [String] = []
        let outages = soft && !context.settings.noCache && !context.settings.offline ? RealtimeOutages(cacheDirectory: context.settings.cacheDirectory) : nil
        let down = outages?.notices(now: context.settings.now) ?? [:]
        var wanted: [(group: Int, source: Int)] = []
        var skipped: [Int: [Int: String]] = [:]
        for (g, group) in groups.enumerated() where !isUnchosen(group) {
            for (k, source) in group.sources.enumerated() {
                if group.chosenKeys != nil, let notice = down[RealtimeOutages.key(source)] {
                    skipped[g, default: [:]][k] = notice
                } else {
                    wanted.append((g, k))
                }
            }
        }
        let results = await withTaskGroup(of: (Int, Int, Fetched).self, returning: [(Int, Int, Fetched)].self) { tasks in
            for (g, k) in wanted {
                let source = groups[g].sources[k], headers = groups[g].headers
                tasks.addTask { () async -> (Int, Int, Fetched) in
                    do { return (g, k, .success(try await bytes(source, headers: headers))) } catch let error as TransitError {
                        return (g, k, .failure(error))
                    } catch {
                        return (g, k, .failure(.network(url: Redaction.url(source), reason: error.localizedDescription)))
                    }
                }
            }
            var out: [(Int, Int, Fetched)] = []
            for await result in tasks { out.append(result) }
            return out
        }
        var fetched: [Int: [Int: Fetched]] = [:]
        for (g, k, result) in results { fetched[g, default: [:]][k] = result }
        for (g, group) in groups.enumerated() {
            // A remembered source reads only the variables its import chose (a catalog row never
            // chooses one): one that names another is not read, and the answer is as planned.
            if let chosen = group.chosenKeys, let name = RealtimeKeys.unchosen(group.sources + group.headers, chosen: chosen).first {
                let notice = "\(group.owner)'s remembered real-time source reads $\(name), which its import did not choose: not read"
                    + "\(soft ? ", the times are as planned" : ""); import it again with --realtime-key \(name), or name the variable \(RealtimeKeys.prefix)…"
                guard soft else { throw .usage(notice) }
                notices.append(notice)
                continue
            }
            // Sources skipped as down a moment ago: their notice again, and the others read.
            let skippedHere = skipped[g] ?? [:]
            notices += skippedHere.keys.sorted().compactMap { skippedHere[$0] }
            let kept = group.sources.indices.filter { skippedHere[$0] == nil }
            let results = kept.map { fetched[g]?[$0] ?? .failure(.network(url: Redaction.url(group.sources[$0]), reason: "not fetched")) }
            let (messages, more) = try self.messages(Array(zip(kept.map { group.sources[$0] }, results)), soft: soft)
            if group.chosenKeys != nil, let outages {
                for (index, k) in kept.enumerated() where index < results.count {
                    if case .failure(let error) = results[index], error.exitStatus != 2 {
                        outages.remember(group.sources[k], reason: Self.reason(error, deadline: deadline), now: context.settings.now)
                    }
                }
            }
            out += group.feed.isEmpty ? messages : messages.map { m in
                var m = m
                m.message = m.message.namespaced(group.prefix)
                m.feed = group.feed
                return m
            }
            notices += more
        }
        return (out, notices)
    }

    /// Does the group read a variable its import did not choose (it is then not fetched)?
    func isUnchosen(_ group: Group) -> Bool {
        group.chosenKeys.map { !RealtimeKeys.unchosen(group.sources + group.headers, chosen: $0).isEmpty } ?? false
    }

    /// Every source's trip updates applied to `t`, in order (a later source's update of a trip
    /// replaces an earlier one's); nil without sources.
    func tripUpdates(_ groups: [Group], _ t: Timetable, only: Set<Int>? = nil) async throws(TransitError) -> TripUpdates? {
        guard groups.contains(where: { !$0.sources.isEmpty }) else { return nil }
        // Every trip's calls are decoded and matched to its run; of the trips not in `only`, not
        // applied (issue 68: each file's counts of stop updates dropped are the same whatever the
        // command; decoding Halifax's 542 KB whole cost a board no measurable time, 50 ms either way).
        // A source that cannot be read leaves the timetable as planned, said (rule 6's stale data too).
        let (messages, notices) = try await self.messages(groups, soft: true)
        return RealtimeMessage.applied(messages, to: t, notices: notices, only: only, language: ServiceAlert.language(context.settings.environment["LANG"]))
    }

}


extension FileManager {
    /// The size of a regular file, or nil when there is none at `path`.
    func attributesOfItemIfExists(_ path: String) -> Int? {
        var isDirectory: ObjCBool = false
        guard fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
              let size = (try? attributesOfItem(atPath: path))?[.size] as? NSNumber else { return nil }
        return size.intValue
    }
}
