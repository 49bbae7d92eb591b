import Foundation
import TransitSupport

/// GTFS-Realtime service alerts (docs/realtime.md, rule 24): which are active now, what they say in
/// the reader's language, and which departures and legs they apply to.
package struct ServiceAlert: Sendable {
    /// One informed_entity: every field it has must match (an AND); an alert applies where any
    /// of its selectors does (an OR).
    package struct Selector: Sendable {
        package var agency: String?
        package var route: String?
        package var routeType: Int?
        package var trip: String?
        package var stop: String?

        package var isEmpty: Bool { agency == nil && route == nil && routeType == nil && trip == nil && stop == nil }

        /// In words, for the `applies_to` field: `route 1 at stop 1040`.
        package var description: String {
            [agency.map { "agency \($0)" }, route.map { "route \($0)" }, routeType.map { "route type \($0)" }, trip.map { "trip \($0)" },
             stop.map { "stop \($0)" }].compactMap { $0 }.joined(separator: " at ")
        }
    }

    package var id: String
    package var cause: String
    package var effect: String
    package var severity: String
    package var header: String?
    package var description: String?
    package var url: String?
    /// [start, end) in POSIX seconds; nil: open.
    package var periods: [(start: Int?, end: Int?)]
    package var selectors: [Selector]
    /// It has no active period, or one covers now: in force, were its data fresh.
    package var inPeriod: Bool
    /// Its message is older than rule 6's 10 minutes for alerts: shown, marked stale.
    package var stale = false
    /// Its message is older than rule 6's 30 minutes: left out (not active) whatever its periods
    /// (Halifax's of a year before run to the year 3000), and counted apart from the alerts
    /// merely out of their periods; `gtfs alerts --stale` shows those `inPeriod`.
    package var leftOutAsStale = false
    /// In force: in its period, and its data not too old to apply.
    package var active: Bool { inPeriod && !leftOutAsStale }

    package static let causes = ["", "unknown_cause", "other_cause", "technical_problem", "strike", "demonstration", "accident", "holiday", "weather",
                         "maintenance", "construction", "police_activity", "medical_emergency", "special_event"]
    package static let effects = ["", "no_service", "reduced_service", "significant_delays", "detour", "additional_service", "modified_service",
                          "other_effect", "unknown_effect", "stop_moved", "no_effect", "accessibility_issue"]
    package static let severities = ["", "unknown_severity", "info", "warning", "severe"]

    /// An enum's name; a number the spec does not have (a newer version's) stays a number.
    package static func name(_ value: UInt64?, _ names: [String], default fallback: Int) -> String {
        let n = Int(clamping: value ?? UInt64(fallback))
        return names[safe: n].flatMap { $0.isEmpty ? nil : $0 } ?? String(n)
    }

    /// The translation a reader wants: `language` (`LANG`'s, like `fr`), then English, then the
    /// untagged one, then the first.
    package static func text(_ translations: [FeedMessage.Translation], language: String) -> String? {
        func tag(_ t: FeedMessage.Translation) -> String? { t.language?.lowercased().split(separator: "-").first.map(String.init) }
        let chosen = translations.first { tag($0) == language } ?? translations.first { tag($0) == "en" }
            ?? translations.first { $0.language == nil || $0.language == "" } ?? translations.first
        return chosen?.text
    }

    /// `LANG=fr_CA.UTF-8` → `fr`; English without one.
    package static func language(_ lang: String?) -> String {
        guard let lang, let code = lang.split(whereSeparator: { "_.-@".contains($0) }).first, !code.isEmpty, code != "C", code != "POSIX" else { return "en" }
        return code.lowercased()
    }

    /// Every alert of `messages`, active or not.
    package static func alerts(_ messages: [RealtimeMessage], language: String) -> [ServiceAlert] {
        var out: [ServiceAlert] = []
        for m in messages {
            for entity in m.message.entities where entity.isDeleted != true {
                guard let a = entity.alert else { continue }
                // Rule 4 reads a time above 10^10 as milliseconds; a period's open end is often written
                // as a far year in seconds (Halifax: 32503694400, the year 3000), so here only a
                // value above 10^11 (no date in seconds before the year 5138) is milliseconds. One past
                // the year 9999 is the end of 9999 (printable; a start there is not yet).
                func seconds(_ v: UInt64?) -> Int? { v.map { min(FeedMessage.seconds($0, millisecondsAbove: 100_000_000_000), FeedMessage.latestSecond) } }
                let periods = a.activePeriods.map { (start: seconds($0.start), end: seconds($0.end)) }
                let covered = periods.contains { ($0.start ?? Int.min) <= m.now && m.now < ($0.end ?? Int.max) }
                // Rule 6 for alerts: past 10 minutes stale; past 30, not applied, whatever the
                // periods say (issue 68: a year-old file listed alerts whose periods ran to 3000).
                let age = m.message.headerSeconds.map { m.now - $0 } ?? 0
                let stale = age > TripUpdateApplier.staleAlertAge, leftOut = age > TripUpdateApplier.refusedAge
                let selectors = a.informedEntities.map {
                    Selector(agency: $0.agencyID, route: $0.routeID, routeType: $0.routeType.map(Int.init), trip: $0.trip?.tripID, stop: $0.stopID)
                }.filter { !$0.isEmpty }
                out.append(ServiceAlert(id: entity.id ?? "", cause: name(a.cause, causes, default: 1), effect: name(a.effect, effects, default: 8),
                                        severity: name(a.severity, severities, default: 1), header: text(a.header, language: language),
                                        description: text(a.description, language: language), url: text(a.url, language: language),
                                        periods: periods, selectors: selectors, inPeriod: periods.isEmpty || covered, stale: stale, leftOutAsStale: leftOut))
            }
        }
        return out
    }

    /// Does a selector name a ride of `trip` (or an added one on `route`) at `stop`?
    package static func matches(_ s: Selector, _ t: Timetable, route: Int, trip: Int, tripID: String?, stop: Int?) -> Bool {
        if let agency = s.agency {
            // A route with no agency_id belongs to the feed's only agency, whatever it is called;
            // so does an added trip on an unknown route, when the feed has one agency.
            if route < 0 {
                guard t.agencyNames.count <= 1 else { return false }
            } else {
                guard t.routeAgency[route].isEmpty || t.routeAgency[route] == agency else { return false }
            }
        }
        if let id = s.route { guard route >= 0, t.routeIDs[route] == id else { return false } }
        if let type = s.routeType { guard route >= 0, Int(t.routeType[route]) == type else { return false } }
        if let id = s.trip { guard (tripID ?? (trip >= 0 ? t.tripIDs[trip] : nil)) == id else { return false } }
        if let id = s.stop {
            guard let stop, t.stop(stop, isNamed: id) else { return false }
        }
        return true
    }

    package func applies(_ t: Timetable, route: Int, trip: Int, tripID: String? = nil, stop: Int?) -> Bool {
        active && selectors.contains { Self.matches($0, t, route: route, trip: trip, tripID: tripID, stop: stop) }
    }
}

extension ServiceAlert {
    /// Active alerts by the most telling field of each selector: its trip, else its route, else
    /// its stop, else its route type, else its agency (a selector must match in every field it
    /// has, so it can only apply where that one matches). What a call looks up is a few lists.
    package struct Index: Sendable {
        private var byTrip: [String: [Int]] = [:], byRoute: [String: [Int]] = [:], byStop: [String: [Int]] = [:]
        private var byType: [Int: [Int]] = [:], byAgency: [String: [Int]] = [:]
        /// Each alert's first alert saying the same thing (cause, effect, severity and texts): a
        /// message may repeat one alert per route or stop it names.
        private var firsts: [Int] = []
        package private(set) var hasActive = false

        package init(_ alerts: [ServiceAlert]) {
            struct Said: Hashable { var cause, effect, severity: String, header, description, url: String? }
            var saying: [Said: Int] = [:]
            firsts.reserveCapacity(alerts.count)
            for (k, a) in alerts.enumerated() {
                guard a.active else { firsts.append(k); continue }
                let said = Said(cause: a.cause, effect: a.effect, severity: a.severity, header: a.header, description: a.description, url: a.url)
                if let first = saying[said] { firsts.append(first) } else { saying[said] = k; firsts.append(k) }
            }
            for (k, alert) in alerts.enumerated() where alert.active {
                hasActive = true
                for s in alert.selectors {
                    if let trip = s.trip { byTrip[trip, default: []].append(k) }
                    else if let route = s.route { byRoute[route, default: []].append(k) }
                    else if let stop = s.stop { byStop[stop, default: []].append(k) }
                    else if let type = s.routeType { byType[type, default: []].append(k) }
                    else if let agency = s.agency { byAgency[agency, default: []].append(k) }
                }
            }
        }

        /// The first alert saying what alert `k` says.
        package func first(_ k: Int) -> Int { firsts[safe: k] ?? k }

        package func namesTrip(_ id: String) -> Bool { byTrip[id] != nil }

        /// The alerts that may apply to a call of `trip` (or an added trip, by id) on `route` at
        /// `stops`, each once, in the message's order.
        package func candidates(_ t: Timetable, route: Int, trip: Int, tripID: String?, at stops: [Int?]) -> [Int] {
            var found: [Int] = []
            if let id = tripID ?? (trip >= 0 && trip < t.tripCount ? t.tripIDs[trip] : nil) { found += byTrip[id] ?? [] }
            if route >= 0 && route < t.routeCount {
                found += byRoute[t.routeIDs[route]] ?? []
                found += byType[Int(t.routeType[route])] ?? []
            }
            for case let stop? in stops where stop >= 0 && stop < t.stopCount {
                found += byStop[t.stopIDs[stop]] ?? []
                let parent = t.parent(of: stop)
                if parent >= 0 && parent < t.stopCount { found += byStop[t.stopIDs[parent]] ?? [] }
            }
            // An agency's: the route's own, or any where the route names none (the feed's one agency).
            if !byAgency.isEmpty {
                if route >= 0 && route < t.routeCount && !t.routeAgency[route].isEmpty {
                    found += byAgency[t.routeAgency[route]] ?? []
                } else {
                    found += byAgency.values.joined()
                }
            }
            guard found.count > 1 else { return found }
            var seen = Set<Int>()
            return found.sorted().filter { seen.insert($0).inserted }
        }
    }
}
