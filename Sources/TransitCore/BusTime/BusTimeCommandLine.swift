import Foundation
import TransitSupport

package struct ETAOptions: Sendable, Equatable {
    package var stop: String
    package var routes: [String]
    package var method: ETA.Method
    package var model: ETA.Model
    package var calibrate: Bool
}

/// `transit cta …` and `transit mbus …`: one list of commands for every BusTime agency, each
/// command's spec written for the agency it runs as.
enum BusTimeCommandLine {
    static let why = "BusTime's limit per request"

    static let commands: [any BusTimeCommand.Type] = [
        BusTimePredictionsCommand.self, BusTimeVehiclesCommand.self, BusTimeETACommand.self, BusTimeStopsCommand.self,
        BusTimeDirectionsCommand.self, BusTimeAlertsCommand.self, BusTimeRoutesCommand.self,
    ]

    static func spec(_ agency: BusTimeAgency) -> ProviderSpec {
        ProviderSpec(
            name: agency.id, displayName: agency.name, summary: "\(agency.name) (BusTime; needs \(agency.keyVariable))", zoneName: agency.zoneIdentifier,
            commands: commands.map { $0.spec(agency) },
            baseURLs: [("TRANSIT_\(agency.id.uppercased())_BASE_URL", agency.defaultBaseURL)],
            key: KeySpec(variable: agency.keyVariable, whereToGet: agency.keyHelp))
    }

    /// The agency a command line names (its provider is the agency's id).
    static func agency(_ args: Arguments) throws(TransitError) -> BusTimeAgency {
        guard let agency = BusTimeAgency.all.first(where: { $0.id == args.spec.provider }) else { throw args.unknownCommand() }
        return agency
    }
}

/// A BusTime command: its spec written for the agency it runs as, the agency part of its value.
protocol BusTimeCommand: ProviderCommand {
    static func spec(_ agency: BusTimeAgency) -> CommandSpec
    var agency: BusTimeAgency { get }
}

extension BusTimeCommand {
    var zone: TimeZone { agency.zone }
}

/// `transit cta|mbus predictions`: when the next buses reach stops, with alerts.
struct BusTimePredictionsCommand: BusTimeCommand {
    static let name = "predictions"

    static func spec(_ agency: BusTimeAgency) -> CommandSpec {
        let p = agency.id, rt = agency.exampleRoute, stop = agency.exampleStop
        return CommandSpec(provider: agency.id, name: name, summary: "when the next buses reach stops, with alerts",
                    examples: ["transit \(p) predictions --route \(rt) --stop \(stop)",
                               "transit \(p) predictions --stop \(stop) --limit 3 --format json"],
                    options: [
                        OptionSpec("stop", value: "STOP[,STOP…]", "up to 10 stop ids; a stop name works with --route", required: true),
                        OptionSpec("route", value: "RT[,RT…]", "only these routes (up to 10; ids or names)"),
                        OptionSpec("limit", value: "N", "the first N predictions by time"),
                    ] + OptionSpec.watch,
                    notes: ["Fields: route, direction, stop_id, stop_name, destination, vehicle, predicted, minutes (DUE = 0, counted from the prediction's tmstmp, as BusTime's prdctdn), delayed, type (arrival|departure). Sorted by predicted time. JSON is {\"predictions\": [...], \"alerts\": [...]}; the table prints high-priority alerts above and the others below; tsv and csv carry predictions only. Never cached."],
                    aliases: ["top": "limit"])
    }

    var agency: BusTimeAgency
    var stops: [String]
    var routes: [String]
    /// The first N by predicted time, kept by transit (not sent as BusTime's `top`, so that a
    /// recording answers whatever the limit).
    var limit: Int?

    init(agency: BusTimeAgency, stops: [String], routes: [String], limit: Int?) {
        (self.agency, self.stops, self.routes, self.limit) = (agency, stops, routes, limit)
    }

    init(_ args: Arguments) throws(TransitError) {
        agency = try BusTimeCommandLine.agency(args)
        _ = try args.required("stop")
        stops = try args.list("stop", max: BusTimeClient.maxIDs, why: BusTimeCommandLine.why)
        routes = try args.list("route", max: BusTimeClient.maxIDs, why: BusTimeCommandLine.why)
        limit = try args.int("limit", in: 1...500)
    }

    func run(_ context: Context) async throws(TransitError) -> Output { try await BusTimeCommands(context, agency: agency).predictions(stops, routes, limit: limit) }
}

/// `transit cta|mbus vehicles`: where the buses of routes are now.
struct BusTimeVehiclesCommand: BusTimeCommand {
    static let name = "vehicles"

    static func spec(_ agency: BusTimeAgency) -> CommandSpec {
        let p = agency.id, rt = agency.exampleRoute
        return CommandSpec(provider: agency.id, name: name, summary: "where the buses of routes are now",
                    examples: ["transit \(p) vehicles --route \(rt)", "transit --format geojson \(p) vehicles --route \(rt) > buses.geojson"],
                    options: [OptionSpec("route", value: "RT[,RT…]", "up to 10 routes (ids or names)", required: true)] + OptionSpec.watch,
                    notes: ["Fields: vehicle, route, latitude, longitude, heading, pattern_id, pattern_distance (feet), destination, delayed, timestamp. Never cached. --format geojson gives a FeatureCollection of Points."],
                    geoJSON: true)
    }

    var agency: BusTimeAgency
    var routes: [String]

    init(agency: BusTimeAgency, routes: [String]) { (self.agency, self.routes) = (agency, routes) }

    init(_ args: Arguments) throws(TransitError) {
        agency = try BusTimeCommandLine.agency(args)
        _ = try args.required("route")
        routes = try args.list("route", max: BusTimeClient.maxIDs, why: BusTimeCommandLine.why)
    }

    func run(_ context: Context) async throws(TransitError) -> Output { try await BusTimeCommands(context, agency: agency).vehicles(routes) }
}

/// `transit cta|mbus eta`: when each bus reaches a stop, placed on its route, against BusTime's own prediction.
struct BusTimeETACommand: BusTimeCommand {
    static let name = "eta"

    static func spec(_ agency: BusTimeAgency) -> CommandSpec {
        let p = agency.id, stop = agency.exampleStop
        return CommandSpec(provider: agency.id, name: name, summary: "when each bus reaches a stop, placed on its route, against BusTime's own prediction",
                    examples: ["transit \(p) eta --stop \(stop)", "transit \(p) eta --stop \(stop) --method straight-line",
                               "transit \(p) eta --stop \(stop) --speed 20kmh --dwell 30 --format json"],
                    options: [
                        OptionSpec("stop", value: "STOP", "the stop id (or a name with --route)", required: true),
                        OptionSpec("route", value: "RT[,RT…]", "only buses of these routes (default: the routes BusTime predicts at the stop)"),
                        OptionSpec("method", value: "M", "along-route: distance along the bus's pattern; straight-line: the old tracker's great-circle method",
                                   default: ETA.Method.alongRoute.rawValue, choices: ETA.Method.allCases.map(\.rawValue)),
                        OptionSpec("speed", value: "N[mph|kmh]", "average speed, mph (12mph) or km/h (20kmh)", default: "\(Int(ETA.defaultSpeedMPH))mph"),
                        OptionSpec("dwell", value: "SECONDS", "seconds a bus stands at each stop it passes", default: "\(Int(ETA.defaultDwellSeconds))"),
                        OptionSpec("calibrate", "fit speed and dwell to BusTime's predictions at the stop first (needs 3 or more)"),
                    ] + OptionSpec.watch,
                    notes: ["Fields: vehicle, route, destination, pattern_id, latitude, longitude, distance_miles, distance_km, stops_between, estimate_minutes, bustime_minutes (null where BusTime has none), bustime_predicted, difference_minutes, method. Nearest first."],
                    geoJSON: true)
    }

    var agency: BusTimeAgency
    var options: ETAOptions

    init(_ args: Arguments) throws(TransitError) {
        agency = try BusTimeCommandLine.agency(args)
        guard let method = try args.choice("method", ETA.Method.self) else { throw args.missing("method") }
        guard let dwell = try args.double("dwell", in: 0...600, what: "seconds") else { throw args.missing("dwell") }
        let model = ETA.Model(speedMPH: try ETA.speedMPH(try args.required("speed")), dwellSeconds: dwell)
        options = ETAOptions(stop: try args.required("stop"), routes: try args.list("route", max: BusTimeClient.maxIDs, why: BusTimeCommandLine.why),
                             method: method, model: model, calibrate: try args.flag("calibrate"))
    }

    func run(_ context: Context) async throws(TransitError) -> Output { try await BusTimeCommands(context, agency: agency).eta(options) }
}

/// `transit cta|mbus stops`: the stops of a route in one direction, in route order.
struct BusTimeStopsCommand: BusTimeCommand {
    static let name = "stops"

    static func spec(_ agency: BusTimeAgency) -> CommandSpec {
        let p = agency.id, rt = agency.exampleRoute
        return CommandSpec(provider: agency.id, name: name, summary: "the stops of a route in one direction, in route order",
                    examples: ["transit \(p) stops --route \(rt) --direction \(agency.exampleDirection)"],
                    options: [OptionSpec("route", value: "RT", "route id or name", required: true),
                              OptionSpec("direction", value: "DIR", "direction id or name (see 'directions')", required: true)],
                    notes: ["Fields: seq, stop_id, stop_name, latitude, longitude. Ordered along the direction's longest pattern (getstops itself is alphabetical); a notice says which order you got. --format geojson adds the pattern as a LineString."],
                    geoJSON: true)
    }

    var agency: BusTimeAgency
    var route: String
    var direction: String

    init(agency: BusTimeAgency, route: String, direction: String) { (self.agency, self.route, self.direction) = (agency, route, direction) }

    init(_ args: Arguments) throws(TransitError) {
        agency = try BusTimeCommandLine.agency(args)
        route = try args.required("route")
        direction = try args.required("direction")
    }

    func run(_ context: Context) async throws(TransitError) -> Output { try await BusTimeCommands(context, agency: agency).stops(route, direction) }
}

/// `transit cta|mbus directions`: the directions of a route.
struct BusTimeDirectionsCommand: BusTimeCommand {
    static let name = "directions"

    static func spec(_ agency: BusTimeAgency) -> CommandSpec {
        let p = agency.id, rt = agency.exampleRoute
        return CommandSpec(provider: agency.id, name: name, summary: "the directions of a route",
                    examples: ["transit \(p) directions --route \(rt)"],
                    options: [OptionSpec("route", value: "RT", "route id or name", required: true)], notes: ["Fields: id, name."])
    }

    var agency: BusTimeAgency
    var route: String

    init(_ args: Arguments) throws(TransitError) {
        agency = try BusTimeCommandLine.agency(args)
        route = try args.required("route")
    }

    func run(_ context: Context) async throws(TransitError) -> Output { try await BusTimeCommands(context, agency: agency).directions(route) }
}

/// `transit cta|mbus alerts`: service bulletins for a route.
struct BusTimeAlertsCommand: BusTimeCommand {
    static let name = "alerts"

    static func spec(_ agency: BusTimeAgency) -> CommandSpec {
        let p = agency.id, rt = agency.exampleRoute
        return CommandSpec(provider: agency.id, name: name, summary: "service bulletins for a route",
                    examples: ["transit \(p) alerts --route \(rt)"],
                    options: [OptionSpec("route", value: "RT", "route id or name", required: true),
                              OptionSpec("stop", value: "STOP", "only alerts for this stop or the whole route")],
                    notes: ["Fields: priority, title, detail, routes, stops. High priority first."])
    }

    var agency: BusTimeAgency
    var route: String
    var stop: String?

    init(agency: BusTimeAgency, route: String, stop: String?) { (self.agency, self.route, self.stop) = (agency, route, stop) }

    init(_ args: Arguments) throws(TransitError) {
        agency = try BusTimeCommandLine.agency(args)
        route = try args.required("route")
        stop = try args.string("stop")
    }

    func run(_ context: Context) async throws(TransitError) -> Output { try await BusTimeCommands(context, agency: agency).alerts(route, stop) }
}

/// `transit cta|mbus routes`: all routes.
struct BusTimeRoutesCommand: BusTimeCommand {
    static let name = "routes"

    static func spec(_ agency: BusTimeAgency) -> CommandSpec {
        let p = agency.id
        return CommandSpec(provider: agency.id, name: name, summary: "all routes",
                    examples: ["transit \(p) routes"], notes: ["Fields: route, name, color, designator. Cached for a day."])
    }

    var agency: BusTimeAgency

    init(_ args: Arguments) throws(TransitError) {
        agency = try BusTimeCommandLine.agency(args)
    }

    func run(_ context: Context) async throws(TransitError) -> Output { try await BusTimeCommands(context, agency: agency).routes() }
}
