import Foundation
import TransitSupport

/// One GTFS-Realtime message as a query reads it: where it came from, and the clock it is read
/// at (rule 6: a recording at its own time, a live source at now).
package struct RealtimeMessage {
    package var source: String
    package var message: FeedMessage
    package var now: Int
    /// Over several feeds, the feed whose ids it names ("" for one feed).
    package var feed = ""
    /// A recording (a file), read at its own header time: `now` is that time.
    package var isRecording = false

    package init(source: String, message: FeedMessage, now: Int, feed: String = "", isRecording: Bool = false) {
        self.source = source
        self.message = message
        self.now = now
        self.feed = feed
        self.isRecording = isRecording
    }
}

/// What a query does with the messages it read, whoever fetched them (the command line over
/// HTTP, a program through `GTFSFeed.realtime`): decoded with named errors, applied to a
/// timetable or a combination (each feed's on its own clock, then moved onto the query's),
/// merged in order, and their alerts read from those not too old.
extension RealtimeMessage {
    /// The message in `data`; an empty body is a message with no data (nil).
    package static func decode(_ data: Data, source: String) throws(TransitError) -> FeedMessage? {
        guard let first = data.first else { return nil }
        // Text where protobuf belongs: name it, rather than report the byte it breaks at.
        switch first {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            throw .parse(what: source, reason: "this is JSON; transit reads GTFS-Realtime as protobuf (the feed's binary form)")
        case UInt8(ascii: "<"):
            throw .parse(what: source, reason: "an HTML or XML page, not a GTFS-Realtime message")
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            throw .parse(what: source, reason: "text (\(String(decoding: data.prefix(24), as: UTF8.self).split(separator: "\n").first ?? "")…), not a GTFS-Realtime protobuf message")
        default: break
        }
        let message: FeedMessage
        do { message = try FeedMessage.decode(data) } catch {
            throw .parse(what: source, reason: "\(error.reason) at byte \(error.offset)")
        }
        guard message.header != nil else { throw .parse(what: source, reason: "no FeedHeader: not a GTFS-Realtime message") }
        return message
    }

    /// Every message's trip updates applied to `t` in order (a later message's update of a trip
    /// replaces an earlier one's), read at each message's own clock; with the alerts of the
    /// messages not too old to apply (in `language`), and where every message was a recording,
    /// the time it was recorded at.
    package static func applied(_ messages: [RealtimeMessage], to t: Timetable, notices: [String] = [], only: Set<Int>? = nil,
                                language: String) -> TripUpdates {
        var updates = tripUpdates(messages, t, notices: notices, only: only)
        if !messages.isEmpty && messages.allSatisfy(\.isRecording) { updates.recordedAt = messages.map(\.now).max() }
        // Alerts of data too old to apply are not applied either (its notice says so).
        let fresh = messages.filter { m in !TripUpdateApplier.refuses(age: m.message.headerSeconds.map { m.now - $0 }) }
        updates.alerts = ServiceAlert.alerts(fresh, language: language)
        updates.live = !fresh.isEmpty
        return updates
    }

    package static func tripUpdates(_ messages: [RealtimeMessage], _ t: Timetable, notices: [String] = [], only: Set<Int>? = nil) -> TripUpdates {
        var all = TripUpdates()
        all.notices = notices
        // A source of vehicles or alerts only has no trip updates to speak of.
        for m in messages where m.message.entities.contains(where: { $0.tripUpdate != nil }) || messages.count == 1 {
            // A feed of a combination in another zone than the query's clock: its updates are
            // read on its own clock (start dates, times of day), then moved onto the query's.
            let zone = t.feed(named: m.feed).map { t.feedZones[$0] } ?? t.timeZone
            guard zone != t.timeZone else {
                all.merge(TripUpdateApplier.apply(m.message, to: t, now: m.now, source: m.source, only: only))
                continue
            }
            let own = t.onClock(zone)
            all.merge(TripUpdateApplier.apply(m.message, to: own, now: m.now, source: m.source, only: only).moved(from: own.zone, onto: t.zone))
        }
        return all
    }
}

extension TripUpdates {
    /// The same updates with their times moved from `zone`'s service days onto `clock`'s, by
    /// what `DaySchedule` moves that feed's timetable (Lisbon's 08:00 is 09:00 on Madrid's clock).
    package func moved(from zone: TimeZone, onto clock: TimeZone) -> TripUpdates {
        var shifts: [Int: Int] = [:]
        func shift(_ day: Int) -> Int {
            if let known = shifts[day] { return known }
            let seconds = ServiceClock.offset(of: zone, onto: clock, day: LocalDate(dayNumber: day))
            shifts[day] = seconds
            return seconds
        }
        var out = self
        for k in out.instances.indices {
            let s = shift(out.instances[k].day)
            guard s != 0 else { continue }
            for c in out.instances[k].calls.indices {
                out.instances[k].calls[c].arrival &+= s
                out.instances[k].calls[c].departure &+= s
                out.instances[k].calls[c].plannedArrival = out.instances[k].calls[c].plannedArrival.map { $0 &+ s }
                out.instances[k].calls[c].plannedDeparture = out.instances[k].calls[c].plannedDeparture.map { $0 &+ s }
            }
        }
        // The runs they stand for, by their first departure on the same clock.
        out.byRun = Dictionary(byRun.map { key, index in (RunKey(trip: Int(key.trip), day: Int(key.day), start: Int(key.start) &+ shift(Int(key.day))), index) },
                               uniquingKeysWith: { first, _ in first })
        return out
    }

    /// `other`'s instances added; where both speak of one run, `other` wins.
    package mutating func merge(_ other: TripUpdates) {
        var keyed = Set<Int>()
        for (key, index) in other.byRun.sorted(by: { $0.value < $1.value }) {
            keyed.insert(index)
            if let mine = byRun[key] {
                instances[mine] = other.instances[index]
            } else {
                byRun[key] = instances.count
                instances.append(other.instances[index])
            }
        }
        for (index, instance) in other.instances.enumerated() where !keyed.contains(index) { instances.append(instance) }
        timestamp = timestamp ?? other.timestamp
        notices += other.notices
    }
}
