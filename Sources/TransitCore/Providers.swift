import Foundation
import TransitSupport

/// A provider command with its options checked and typed. The compiler checks that every
/// case is dispatched; each provider's enum lives in its own folder.
public enum Command: Sendable, Equatable {
    case bart(BARTCommand)
    case busTime(BusTimeAgency, BusTimeCommand)
    case busbud(BusbudCommand)
    case rail12306(RailCommand)
    case weather(WeatherCommand)
    case gtfs(GTFSCommand)
}

/// One provider on the command line: its spec and how its arguments become a `Command`.
public struct Provider: Sendable {
    /// Its name on the command line.
    public let name: String
    private let built: Deferred<ProviderSpec>
    let parse: @Sendable (Arguments) throws(TransitError) -> Command
    /// Values of its `.cached` options for shell completion, from the cache only; none on any failure.
    let values: (@Sendable (Completion.Query, Context) async -> [String])?

    /// Its commands and options, built on first use: a command line that names one provider
    /// builds that one's spec only.
    public var spec: ProviderSpec { built.value }

    init(_ name: String, _ spec: @escaping @Sendable () -> ProviderSpec, values: (@Sendable (Completion.Query, Context) async -> [String])? = nil,
         parse: @escaping @Sendable (Arguments) throws(TransitError) -> Command) {
        self.name = name
        built = Deferred(spec)
        self.values = values
        self.parse = parse
    }
}

public enum Providers {
    /// Every provider, in the order help lists them. A new provider adds its folder, a case
    /// of `Command`, a line here and its case in `run`.
    public static let all: [Provider] = [
        Provider("bart", { BARTCommandLine.spec }, values: BARTCommands.completionValues) { args throws(TransitError) in .bart(try BARTCommandLine.parse(args)) },
    ] + BusTimeAgency.all.map { agency in
        Provider(agency.id, { BusTimeCommandLine.spec(agency) }) { args throws(TransitError) in .busTime(agency, try BusTimeCommandLine.parse(args)) }
    } + [
        Provider("busbud", { BusbudCommandLine.spec }) { args throws(TransitError) in .busbud(try BusbudCommandLine.parse(args)) },
        Provider("rail12306", { RailCommandLine.spec }) { args throws(TransitError) in .rail12306(try RailCommandLine.parse(args)) },
        Provider("weather", { WeatherCommandLine.spec }) { args throws(TransitError) in .weather(try WeatherCommandLine.parse(args)) },
        Provider("gtfs", { GTFSCommandLine.spec }, values: GTFSCommandLine.completionValues) { args throws(TransitError) in .gtfs(try GTFSCommandLine.parse(args)) },
    ]

    static func run(_ command: Command, _ context: Context) async throws(TransitError) -> Output {
        switch command {
        case .bart(let c): return try await BARTCommands(context).run(c)
        case .busTime(let agency, let c): return try await BusTimeCommands(context, agency: agency).run(c)
        case .busbud(let c): return try await BusbudCommands(context).run(c)
        case .rail12306(let c): return try await RailCommands(context).run(c)
        case .weather(let c): return try await WeatherCommands(context).run(c)
        case .gtfs(let c): return try await c.run(context)
        }
    }

    /// The zone a command's times are read in (for `--watch` headers).
    static func zone(of command: Command) -> TimeZone {
        switch command {
        case .bart: return BART.zone
        case .busTime(let agency, _): return agency.zone
        case .rail12306: return Rail12306.zone
        case .busbud, .weather, .gtfs: return .utc
        }
    }
}
