import Foundation
import TransitSupport

/// One command's options as typed, read through typed getters that take their defaults from
/// the command's spec. Every getter turns a bad value into a usage error naming the option.
package struct Arguments: Sendable {
    package let spec: CommandSpec
    var values: [String: String]
    var flags: Set<String>
    /// Every value of a repeatable option (`OptionSpec.repeatable`), in order.
    var lists: [String: [String]] = [:]
    /// The positional argument, where the spec has one.
    package let positional: String?
    /// The clock and mode the command runs with (dates like `today` need them).
    package let now: Date
    package let offline: Bool

    init(spec: CommandSpec, values: [String: String], flags: Set<String>, positional: String?, now: Date, offline: Bool) {
        self.spec = spec
        self.values = values
        self.flags = flags
        self.positional = positional
        self.now = now
        self.offline = offline
    }

    /// `name` is an option of this command (its spec's, an alias included): a getter asked for
    /// another, a misspelling in the source, is a usage error, not an option never given
    /// (issue 69; `CommandLineSpecTests` runs every command's parse and checks the names the
    /// source asks for, so that one fails CI rather than a user).
    func known(_ name: String) throws(TransitError) -> OptionSpec {
        guard let option = spec.option(name) else {
            throw .usage("--\(name) is not an option of transit \(spec.provider) \(spec.name)")
        }
        return option
    }

    /// Does this command have the option `name`? For a reader shared by commands that differ in
    /// it (one command reads another's rules without one of its options).
    package func takes(_ name: String) -> Bool { spec.option(name) != nil }

    /// The value given, else the spec's default; blank counts as not given.
    package func string(_ name: String) throws(TransitError) -> String? {
        let option = try known(name)
        if let given = values[name]?.trimmedSpace(newlines: false), !given.isEmpty { return given }
        return option.defaultValue
    }

    package func given(_ name: String) throws(TransitError) -> Bool {
        _ = try known(name)
        return values[name] != nil
    }

    /// Every value of a repeatable option, blanks left out.
    package func strings(_ name: String) throws(TransitError) -> [String] {
        _ = try known(name)
        return (lists[name] ?? []).map { $0.trimmedSpace(newlines: false) }.filter { !$0.isEmpty }
    }

    package func flag(_ name: String) throws(TransitError) -> Bool {
        _ = try known(name)
        return flags.contains(name)
    }

    package func required(_ name: String) throws(TransitError) -> String {
        guard let value = try string(name) else { throw missing(name) }
        return value
    }

    /// A whole number in `range`; nil when neither given nor defaulted.
    package func int(_ name: String, in range: ClosedRange<Int>) throws(TransitError) -> Int? {
        guard let text = try string(name) else { return nil }
        guard let n = Int(text), range.contains(n) else {
            throw .usage("--\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return n
    }

    /// A whole number given or defaulted by the spec; missing is a usage error.
    package func intValue(_ name: String, in range: ClosedRange<Int>) throws(TransitError) -> Int {
        guard let n = try int(name, in: range) else { throw missing(name) }
        return n
    }

    /// A command the provider's spec lists but its parser does not know: a programming error,
    /// never a fallback to another command (each parser names every command it runs).
    package func unknownCommand() -> TransitError {
        .usage("'transit \(spec.provider) \(spec.name)' is not a command this version knows")
    }

    /// The usage error for an option that must be given (or the spec's positional argument,
    /// named as the usage line writes it, without dashes).
    package func missing(_ name: String) -> TransitError {
        let what = name == spec.positional ? name : "--" + name
        return .usage("'transit \(spec.provider) \(spec.name)' needs \(what)", hint: "usage: \(spec.usage)")
    }

    /// A number in `range` (seconds, degrees, …).
    package func double(_ name: String, in range: ClosedRange<Double>, what: String = "a number") throws(TransitError) -> Double? {
        guard let text = try string(name) else { return nil }
        guard let d = Double(text), d.isFinite, range.contains(d) else {
            throw .usage("--\(name) takes \(what) from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound)), not '\(text)'")
        }
        return d
    }

    /// Seconds above 0 and up to `max`.
    package func seconds(_ name: String, max: Double) throws(TransitError) -> Double? {
        guard let text = try string(name) else { return nil }
        guard let s = Double(text), s.isFinite, s > 0, s <= max else {
            throw .usage("--\(name) takes seconds above 0 and up to \(Self.format(max)), not '\(text)'")
        }
        return s
    }

    /// One of the spec's `choices`, mapped to an enum by raw value (aliases through `aliases`).
    package func choice<T: RawRepresentable>(_ name: String, _ type: T.Type = T.self,
                                            aliases: [String: T] = [:]) throws(TransitError) -> T? where T.RawValue == String {
        guard let text = try string(name) else { return nil }
        let key = text.lowercased()
        if let value = T(rawValue: key) ?? aliases[key] { return value }
        let choices = spec.option(name)?.choices ?? []
        throw .usage("--\(name) takes \(TransitError.orList(choices)), not '\(text)'")
    }

    /// A comma-separated list of at most `max` items.
    package func list(_ name: String, max: Int, why: String) throws(TransitError) -> [String] {
        let items = (try string(name) ?? "").split(separator: ",").map { $0.trimmedSpace(newlines: false) }.filter { !$0.isEmpty }
        if items.count > max { throw .usage("--\(name) takes at most \(max) values (\(why)); \(items.count) given") }
        return items
    }

    /// `YYYY-MM-DD`, `today` or `tomorrow`, in the agency's zone.
    package func date(_ name: String = "date", zone: TimeZone) throws(TransitError) -> LocalDate? {
        guard let text = try string(name) else { return nil }
        return try Self.date(text, zone: zone, now: now, option: name)
    }

    package static func date(_ text: String, zone: TimeZone, now: Date, option: String = "date") throws(TransitError) -> LocalDate {
        let today = LocalDate(now, in: zone)
        switch text.lowercased() {
        case "today": return today
        case "tomorrow": return today.adding(days: 1)
        default:
            guard let d = LocalDate(iso: text) else {
                throw .usage("--\(option) takes YYYY-MM-DD, today or tomorrow, not '\(text)'")
            }
            return d
        }
    }

    /// A clock time (`HH:MM`, `h:mm am|pm`) as minutes after midnight.
    package func time(_ name: String) throws(TransitError) -> Int? {
        guard let text = try string(name) else { return nil }
        guard let m = ClockTime.minutes(text) else { throw .usage("--\(name) takes HH:MM or h:mm am|pm, not '\(text)'") }
        return m
    }

    /// A time of the service day as typed (see `ServiceTime`), resolved later.
    package func serviceTime(_ name: String) throws(TransitError) -> ServiceTime? {
        guard let text = try string(name) else { return nil }
        guard let time = ServiceTime.parse(text) else { throw .usage("--\(name) takes \(ServiceTime.spellings), not '\(text)'") }
        return time
    }

    /// `--after`, `--before` and `--arrive-by` as typed.
    func serviceTimes() throws(TransitError) -> ServiceWindow {
        ServiceWindow(after: try serviceTime("after"), before: try serviceTime("before"), arriveBy: try serviceTime("arrive-by"))
    }

    /// `--after`, `--before` and `--arrive-by` in seconds of `clock`'s service day.
    func serviceWindow(on clock: ServiceClock) throws(TransitError) -> ServiceWindow.Seconds {
        try serviceTimes().seconds(on: clock, now: now)
    }

    /// `--near LAT,LON`: decimal degrees.
    package func coordinates(_ name: String) throws(TransitError) -> Coordinate? {
        guard let text = try string(name) else { return nil }
        guard let point = Coordinate(parsing: text) else {
            throw .usage("--\(name) takes LAT,LON in decimal degrees, like 37.7524,-122.4184, not '\(text)'")
        }
        return point
    }

    /// `--from` and `--to` as typed, refused when they are the same name.
    package func distinctPair(_ a: String = "from", _ b: String = "to", what: String) throws(TransitError) -> (String, String) {
        let from = try required(a), to = try required(b)
        if NameMatcher<Int>.normalize(from) == NameMatcher<Int>.normalize(to) {
            throw .usage("--\(a) and --\(b) are the same \(what)")
        }
        return (from, to)
    }

    static func format(_ d: Double) -> String { d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d) }
}
