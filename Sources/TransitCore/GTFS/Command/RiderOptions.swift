import Foundation
import TransitSupport
import TransitGTFS

/// The options by which a rider shapes a journey (issue 46), as `trips` and `reach` take them:
/// read and bounded here into the engine's public `RiderNeeds` and the query's vias; the engine
/// finds the routes avoided and the vias' stops in the feed, and says what it cannot promise.
struct RiderOptions: Sendable, Equatable {
    var needs = RiderNeeds()
    /// `--via` as typed, with `--via-stay` (one per via; missing ones 0).
    var vias: [JourneyQuery.Via] = []

    static let shared: [OptionSpec] = [
        OptionSpec("wheelchair", "step-free: ride only trips marked wheelchair_accessible=1, board and alight only where wheelchair_boarding is not 2 (a platform's unknown is its station's), walk at 0.8 m/s, on a map's streets without steps; pathways.txt is not read"),
        OptionSpec("bike", "with a bike: ride only trips marked bikes_allowed=1, or unmarked on a mode of --bike-modes"),
        OptionSpec("bike-modes", value: "LIST", "the modes whose unmarked trips take bikes", default: "rail,subway,ferry"),
        OptionSpec("modes", value: "LIST", "ride only these modes, comma-separated: \(RouteMode.vocabulary) (cable, gondola too); extended route types by their groups, others never"),
        OptionSpec("avoid", value: "ROUTE", "never ride this route: its route_id or name; repeatable", source: .cached, repeatable: true),
        OptionSpec("buffer", value: "MIN", "minutes every change needs on top of its usual time (0 to 60)", default: "0"),
        OptionSpec("buffer-factor", value: "X", "every change needs its usual time (transfers.txt's, else --min-transfer plus the walk, 0 when timed) times X, then --buffer (1 to 5)", default: "1"),
    ]

    static let through: [OptionSpec] = [
        OptionSpec("via", value: "STOP", "the journey calls at this stop (a ride through it that picks up or sets down there, or a change there), as --from names stops; repeatable, up to two, in order", source: .cached, repeatable: true),
        OptionSpec("via-stay", value: "MIN[,MIN]", "minutes to stay at each --via (0 to 600, default 0: staying seated is enough); above 0 the rider alights there, and the next ride leaves no sooner than the stay plus the change"),
    ]

    init() {}

    /// `through`: the command takes `--via` (journeys do; reach does not).
    init(_ args: Arguments, through: Bool) throws(TransitError) {
        needs.wheelchair = try args.flag("wheelchair")
        needs.bike = try args.flag("bike")
        // Its default is the needs' own (`RiderNeeds.defaultBikeModes`): read only when given.
        if try args.given("bike-modes"), let text = try args.string("bike-modes") { needs.bikeModes = try Self.modes(text, option: "bike-modes") }
        if let text = try args.string("modes") { needs.modes = try Self.modes(text, option: "modes") }
        needs.avoid = try args.strings("avoid")
        needs.margin = RiderNeeds.ChangeMargin(seconds: (try args.int("buffer", in: 0...60) ?? 0) * 60, factor: try args.double("buffer-factor", in: 1...5) ?? 1)
        guard through else { return }
        let vias = try args.strings("via")
        guard vias.count <= RiderNeeds.maxVias else {
            throw .usage("at most \(RiderNeeds.maxVias) --via stops, not \(vias.count)", hint: "a journey through more: ask for it in parts")
        }
        if let duplicate = vias.first(where: { via in vias.filter { $0.lowercased() == via.lowercased() }.count > 1 }) {
            throw .usage("--via '\(duplicate)' is given twice")
        }
        var stays: [Int] = []
        if let text = try args.string("via-stay") {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmedSpace(newlines: false) }
            for part in parts {
                guard let minutes = Int(part), (0...600).contains(minutes) else {
                    throw .usage("--via-stay takes minutes from 0 to 600, one per --via and comma-separated, not '\(text)'")
                }
                stays.append(minutes)
            }
            guard stays.count <= vias.count else {
                throw .usage("--via-stay gives \(stays.count) \(stays.count == 1 ? "stay" : "stays") for \(vias.count) --via \(vias.count == 1 ? "stop" : "stops")")
            }
        }
        self.vias = vias.indices.map { JourneyQuery.Via(vias[$0], staySeconds: $0 < stays.count ? stays[$0] * 60 : 0) }
    }

    static func modes(_ text: String, option: String) throws(TransitError) -> Set<RouteMode> {
        let (modes, unknown) = RouteMode.list(text)
        if let unknown { throw .usage("--\(option): no mode '\(unknown)'; the modes are \(RouteMode.vocabulary)") }
        return modes
    }

    /// Whether any option asks for something.
    var asksAnything: Bool {
        needs.wheelchair || needs.bike || needs.modes != nil || !needs.avoid.isEmpty || !needs.margin.isNone || !vias.isEmpty
    }
}
