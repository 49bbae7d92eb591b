import Foundation
import TransitSupport

/// The times of an updated run (docs/realtime.md, rules 13–17 and 22): each stop update's
/// events, the delay carried downstream, and the order every trip keeps (rule 15 as revised on
/// 2026-11-25; rule 16 rejects what cannot keep it).
extension TripUpdateApplier {
    /// `positions` of the update's stop updates on the run's pattern.
    package mutating func matchedPositions(_ update: FeedMessage.TripUpdate, run: (pattern: Int, row: Int)) -> [(position: Int, stop: Int, index: Int)]? {
        let q = run.pattern, stops = t.stops(ofPattern: q), base = Int(t.patternStopStart[q])
        let sequences = UnsafeBufferPointer(rebasing: t.patternSequences.buffer[base..<(base + stops.count)])
        return positions(update.stopTimeUpdates, stops: stops, sequences: sequences)
    }

    /// The run's calls with the updates applied; nil when the update is rejected (counted).
    package mutating func updatedCalls(_ update: FeedMessage.TripUpdate, run: (pattern: Int, row: Int), day: Int) -> [TripUpdates.Call]? {
        let q = run.pattern, stops = t.stops(ofPattern: q), length = stops.count, base = Int(t.patternStopStart[q])
        let times = t.times.buffer, first = t.timeIndex(pattern: q, row: run.row, position: 0)
        var calls: [TripUpdates.Call] = []
        calls.reserveCapacity(length)
        for i in 0..<length {
            let a = Int(times[first + 2 * i]), d = Int(times[first + 2 * i + 1])
            calls.append(TripUpdates.Call(stop: Int(stops[i]), plannedArrival: a, plannedDeparture: d, arrival: a, departure: d, status: .scheduled,
                                          flags: t.patternFlags[base + i]))
        }
        let clock = self.clock(day)
        if update.stopTimeUpdates.isEmpty {
            // Rule 22: a trip-level delay for a trip with no stop updates.
            guard let delay = update.delay else { return calls }
            for i in calls.indices {
                calls[i].arrival += Int(delay)
                calls[i].departure += Int(delay)
                calls[i].status = .updated
            }
            return calls
        }
        guard let listed = matchedPositions(update, run: run) else { return nil }
        var explicit = [Bool](repeating: false, count: length)
        var carried: Int?
        var next = 0
        for i in 0..<length {
            guard next < listed.count, listed[next].position == i else {
                if let delay = carried {
                    calls[i].arrival += delay
                    calls[i].departure += delay
                    calls[i].status = .updated
                }
                continue
            }
            let (_, stop, k) = listed[next]
            let u = update.stopTimeUpdates[k]
            next += 1
            calls[i].stop = stop
            switch u.scheduleRelationship ?? 0 {
            case 1:  // SKIPPED: no boarding or alighting; the delay passes on
                calls[i].arrival += carried ?? 0
                calls[i].departure += carried ?? 0
                calls[i].status = .skipped
            case 2:  // NO_DATA: the schedule, and nothing carried past it
                carried = nil
            default:
                let planned = (calls[i].arrival, calls[i].departure)
                let arrival = event(u.arrival, planned: planned.0, clock: clock)
                let departure = event(u.departure, planned: planned.1, clock: clock)
                if arrival == nil && departure == nil {
                    // No events: on schedule from here on (the spec's empty update).
                    if u.arrival == nil && u.departure == nil {
                        carried = 0
                        calls[i].status = .updated
                    }
                    continue
                }
                var a = arrival?.time ?? (planned.0 + (departure.map { $0.time - planned.1 } ?? 0))
                var d = departure?.time ?? (planned.1 + (a - planned.0))
                if d < a { d = a }
                if a > d { a = d }
                calls[i].arrival = a
                calls[i].departure = d
                calls[i].status = .updated
                explicit[i] = true
                carried = (departure ?? arrival).map { $0.delay ?? ($0.time - ($0 == departure ? planned.1 : planned.0)) }
            }
        }
        return Self.keepOrder(&calls, explicit: explicit) ? calls : { rejectedBackwards += 1; return nil }()  // rule 16
    }

    /// Rule 15 (revised 2026-11-25), from each updated call back: a call that would no longer
    /// come before the next one moves earlier by as much as that updated call did, keeping its
    /// scheduled running times, and so on back until a call fits; updated calls never move.
    /// Times never decrease along the trip, and two stops the schedule has apart never share one
    /// instant (no ride of 0 s). False when the updates cannot be laid out so (rule 16).
    package static func keepOrder(_ calls: inout [TripUpdates.Call], explicit: [Bool]) -> Bool {
        /// Call i leaves before call i + 1 arrives (at the same instant only where the schedule says so).
        func fits(_ i: Int) -> Bool {
            let leaves = calls[i].departure, next = calls[i + 1].arrival
            return leaves < next || (leaves == next && calls[i].plannedDeparture == calls[i + 1].plannedArrival)
        }
        var delay: Int?
        for i in stride(from: calls.count - 1, through: 0, by: -1) {
            let call = calls[i]
            guard call.arrival <= call.departure else { return false }
            let last = i == calls.count - 1
            if explicit[i] {
                if !last && !fits(i) { return false }
                delay = call.plannedArrival.map { call.arrival - $0 }
                continue
            }
            guard !last, !fits(i) else { continue }
            guard let delay, let a = call.plannedArrival, let d = call.plannedDeparture else { return false }
            calls[i].arrival = a + delay
            calls[i].departure = d + delay
            calls[i].status = call.status == .skipped ? .skipped : .updated
            if !fits(i) { return false }
        }
        return true
    }

    package struct Event: Equatable {
        package var time: Int
        /// The `delay` field, when the event has one.
        package var delay: Int?
    }

    /// An event's time in seconds of the service day: `time` if present, else planned + `delay`;
    /// nil for an event with neither (rule 13).
    /// An event more than a day from its call's planned time (a time of the year 1958, a delay of
    /// 68 years) is no prediction: ignored, and counted.
    package mutating func event(_ e: FeedMessage.StopTimeEvent?, planned: Int, clock: ServiceClock) -> Event? {
        guard let e else { return nil }
        var found: Event?
        if let time = e.time {
            let instant = Date(timeIntervalSince1970: TimeInterval(seconds(time)))
            found = Event(time: clock.seconds(at: instant), delay: e.delay.map(Int.init))
        } else if let delay = e.delay {
            found = Event(time: planned + Int(delay), delay: Int(delay))
        }
        guard let event = found else { return nil }
        guard abs(event.time - planned) <= 86_400 else { farTimes += 1; return nil }
        return event
    }
}
