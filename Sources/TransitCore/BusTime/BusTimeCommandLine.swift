import Foundation
import TransitSupport

/// `transit cta …` and `transit mbus …`: one command line for every BusTime agency.
public enum BusTimeCommand: Sendable, Equatable {
    case routes
    case directions(route: String)
    case stops(route: String, direction: String)
    /// `limit`: the first N by predicted time, kept by transit (not sent as BusTime's `top`, so
    /// that a recording answers whatever the limit).
    case predictions(stops: [String], routes: [String], limit: Int?)
    case alerts(route: String, stop: String?)
    case vehicles(routes: [String])
    case eta(ETAOptions)
}

public struct ETAOptions: Sendable, Equatable {
    public var stop: String
    public var routes: [String]
    public var method: ETA.Method
    public var model: ETA.Model
    public var calibrate: Bool
}

enum BusTimeCommandLine {
    static let why = "BusTime's limit per request"

    static func spec(_ agency: BusTimeAgency) -> ProviderSpec {
        let p = agency.id, rt = agency.exampleRoute, stop = agency.exampleStop
        let watch = OptionSpec.watch
        return ProviderSpec(
            name: p, displayName: agency.name, summary: "\(agency.name) (BusTime; needs \(agency.keyVariable))", zoneName: agency.zoneIdentifier,
            commands: [
                CommandSpec(provider: p, name: "predictions", summary: "when the next buses reach stops, with alerts",
                            examples: ["transit \(p) predictions --route \(rt) --stop \(stop)",
                                       "transit \(p) predictions --stop \(stop) --limit 3 --format json"],
                            options: [
                                OptionSpec("stop", value: "STOP[,STOP…]", "up to 10 stop ids; a stop name works with --route", required: true),
                                OptionSpec("route", value: "RT[,RT…]", "only these routes (up to 10; ids or names)"),
                                OptionSpec("limit", value: "N", "the first N predictions by time"),
                            ] + watch,
                            notes: ["Fields: route, direction, stop_id, stop_name, destination, vehicle, predicted, minutes (DUE = 0, counted from the prediction's tmstmp, as BusTime's prdctdn), delayed, type (arrival|departure). Sorted by predicted time. JSON is {\"predictions\": [...], \"alerts\": [...]}; the table prints high-priority alerts above and the others below; tsv and csv carry predictions only. Never cached."],
                            aliases: ["top": "limit"]),
                CommandSpec(provider: p, name: "vehicles", summary: "where the buses of routes are now",
                            examples: ["transit \(p) vehicles --route \(rt)", "transit --format geojson \(p) vehicles --route \(rt) > buses.geojson"],
                            options: [OptionSpec("route", value: "RT[,RT…]", "up to 10 routes (ids or names)", required: true)] + watch,
                            notes: ["Fields: vehicle, route, latitude, longitude, heading, pattern_id, pattern_distance (feet), destination, delayed, timestamp. Never cached. --format geojson gives a FeatureCollection of Points."],
                            geoJSON: true),
                CommandSpec(provider: p, name: "eta", summary: "when each bus reaches a stop, placed on its route, against BusTime's own prediction",
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
                            ] + watch,
                            notes: ["Fields: vehicle, route, destination, pattern_id, latitude, longitude, distance_miles, distance_km, stops_between, estimate_minutes, bustime_minutes (null where BusTime has none), bustime_predicted, difference_minutes, method. Nearest first."],
                            geoJSON: true),
                CommandSpec(provider: p, name: "stops", summary: "the stops of a route in one direction, in route order",
                            examples: ["transit \(p) stops --route \(rt) --direction \(agency.exampleDirection)"],
                            options: [OptionSpec("route", value: "RT", "route id or name", required: true),
                                      OptionSpec("direction", value: "DIR", "direction id or name (see 'directions')", required: true)],
                            notes: ["Fields: seq, stop_id, stop_name, latitude, longitude. Ordered along the direction's longest pattern (getstops itself is alphabetical); a notice says which order you got. --format geojson adds the pattern as a LineString."],
                            geoJSON: true),
                CommandSpec(provider: p, name: "directions", summary: "the directions of a route",
                            examples: ["transit \(p) directions --route \(rt)"],
                            options: [OptionSpec("route", value: "RT", "route id or name", required: true)], notes: ["Fields: id, name."]),
                CommandSpec(provider: p, name: "alerts", summary: "service bulletins for a route",
                            examples: ["transit \(p) alerts --route \(rt)"],
                            options: [OptionSpec("route", value: "RT", "route id or name", required: true),
                                      OptionSpec("stop", value: "STOP", "only alerts for this stop or the whole route")],
                            notes: ["Fields: priority, title, detail, routes, stops. High priority first."]),
                CommandSpec(provider: p, name: "routes", summary: "all routes",
                            examples: ["transit \(p) routes"], notes: ["Fields: route, name, color, designator. Cached for a day."]),
            ],
            baseURLs: [("TRANSIT_\(p.uppercased())_BASE_URL", agency.defaultBaseURL)],
            key: KeySpec(variable: agency.keyVariable, whereToGet: agency.keyHelp))
    }

    static func parse(_ args: Arguments) throws(TransitError) -> BusTimeCommand {
        switch args.spec.name {
        case "routes": return .routes
        case "directions": return .directions(route: try args.required("route"))
        case "stops": return .stops(route: try args.required("route"), direction: try args.required("direction"))
        case "predictions":
            _ = try args.required("stop")
            return .predictions(stops: try args.list("stop", max: BusTimeClient.maxIDs, why: why),
                                routes: try args.list("route", max: BusTimeClient.maxIDs, why: why),
                                limit: try args.int("limit", in: 1...500))
        case "alerts": return .alerts(route: try args.required("route"), stop: args.string("stop"))
        case "vehicles":
            _ = try args.required("route")
            return .vehicles(routes: try args.list("route", max: BusTimeClient.maxIDs, why: why))
        case "eta":
            guard let method = try args.choice("method", ETA.Method.self) else { throw args.missing("method") }
            guard let dwell = try args.double("dwell", in: 0...600, what: "seconds") else { throw args.missing("dwell") }
            let model = ETA.Model(speedMPH: try ETA.speedMPH(try args.required("speed")), dwellSeconds: dwell)
            return .eta(ETAOptions(stop: try args.required("stop"), routes: try args.list("route", max: BusTimeClient.maxIDs, why: why),
                                   method: method, model: model, calibrate: args.flag("calibrate")))
        default: throw args.unknownCommand()
        }
    }
}
