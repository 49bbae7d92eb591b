import Foundation
import TransitSupport
import TransitGTFS

/// The options by which a rider shapes a journey (issue 46), as `trips` and `reach` take them:
/// read and bounded here, resolved against the feed (routes avoided) once it is open.
struct RiderOptions: Sendable, Equatable {
    var wheelchair = false
    var bike = false
    var bikeModes: Set<RouteMode>?
    var modes: Set<RouteMode>?
    /// `--avoid`, as typed: route ids or names.
    var avoid: [String] = []
    var bufferMinutes = 0
    var bufferFactor = 1.0
    /// `--via` as typed, and `--via-stay` in minutes (one per via; missing ones 0).
    var vias: [String] = []
    var stays: [Int] = []

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
        wheelchair = args.flag("wheelchair")
        bike = args.flag("bike")
        if let text = args.string("bike-modes") { bikeModes = try Self.modes(text, option: "bike-modes") }
        if let text = args.string("modes") { modes = try Self.modes(text, option: "modes") }
        avoid = args.strings("avoid")
        bufferMinutes = try args.int("buffer", in: 0...60) ?? 0
        bufferFactor = try args.double("buffer-factor", in: 1...5) ?? 1
        guard through else { return }
        vias = args.strings("via")
        guard vias.count <= RiderNeeds.maxVias else {
            throw .usage("at most \(RiderNeeds.maxVias) --via stops, not \(vias.count)", hint: "a journey through more: ask for it in parts")
        }
        if let duplicate = vias.first(where: { via in vias.filter { $0.lowercased() == via.lowercased() }.count > 1 }) {
            throw .usage("--via '\(duplicate)' is given twice")
        }
        if let text = args.string("via-stay") {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingCharacters(in: .whitespaces) }
            stays = []
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
    }

    static func modes(_ text: String, option: String) throws(TransitError) -> Set<RouteMode> {
        let (modes, unknown) = RouteMode.list(text)
        if let unknown { throw .usage("--\(option): no mode '\(unknown)'; the modes are \(RouteMode.vocabulary)") }
        return modes
    }

    /// Whether any option asks for something.
    var asksAnything: Bool { wheelchair || bike || modes != nil || !avoid.isEmpty || bufferMinutes > 0 || bufferFactor != 1 || !vias.isEmpty }

    /// The needs the engine takes, the routes avoided found in `feed` (an unknown one is a usage
    /// error); the vias' stops are the query's ends' (`QueryEnds.vias`).
    func needs(_ gtfs: GTFSContext, _ feed: GTFSContext.Feed) throws(TransitError) -> RiderNeeds {
        var needs = RiderNeeds()
        needs.wheelchair = wheelchair
        needs.bike = bike
        if let bikeModes { needs.bikeModes = bikeModes }
        needs.modes = modes
        for typed in avoid { needs.avoidRoutes.formUnion(try gtfs.routes(typed, feed)) }
        needs.margin = RiderNeeds.ChangeMargin(seconds: bufferMinutes * 60, factor: bufferFactor)
        return needs
    }

    /// What the answer cannot promise, said once: a feed that marks no trip step-free, what a
    /// step-free walk is measured on, route types no mode names.
    func notices(_ t: Timetable) -> [String] {
        var out: [String] = []
        if wheelchair {
            if !t.marksStepFreeTrips {
                out.append("--wheelchair: the feed marks no trip wheelchair_accessible=1, so nothing can be promised step-free")
            }
            // Walks measured on a map at import carry their step-free meters (a query's longer
            // walks and a point's are measured on the same map's step-free network).
            out.append(!t.hasStepFreeWalks
                ? "--wheelchair: walks are straight lines at 0.8 m/s: without a map (gtfs import --streets) steps on the way cannot be avoided; pathways.txt is not read"
                : "--wheelchair: walks at 0.8 m/s on the map's streets without steps (a stop off the map keeps a straight line); pathways.txt (lifts and stairs inside stations) is not read")
        }
        if modes != nil {
            let unnamed = Set((0..<t.routeCount).map { t.route($0).type }.filter { RouteMode(routeType: $0) == nil })
            if !unnamed.isEmpty {
                out.append("--modes: route types \(unnamed.sorted().map(String.init).joined(separator: ", ")) name no mode and are never ridden")
            }
        }
        return out
    }

    /// The rules of the search with these needs (`QueryEnds.router` lays the vias' stops in).
    func rules(_ search: GTFSCommandLine.Search, _ gtfs: GTFSContext, _ feed: GTFSContext.Feed) throws(TransitError) -> QueryEnds.Rules {
        var rules = search.rules
        rules.needs = try needs(gtfs, feed)
        rules.viaStays = vias.indices.map { $0 < stays.count ? stays[$0] * 60 : 0 }
        return rules
    }
}
