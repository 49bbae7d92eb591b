import Foundation
// The dates, errors and places TransitCore's public API speaks in, for a program that imports it.
@_exported import TransitSupport

/// One provider on the command line: its spec and how its arguments become a `Command`.
package struct Provider: Sendable {
    /// Its name on the command line.
    package let name: String
    private let built: Deferred<ProviderSpec>
    /// Its command types, in the order help lists them.
    let commands: [any ProviderCommand.Type]
    /// Values of its `.cached` options for shell completion, from the cache only; none on any failure.
    let values: (@Sendable (Completion.Query, Context) async -> [String])?

    /// Its commands and options, built on first use: a command line that names one provider
    /// builds that one's spec only.
    package var spec: ProviderSpec { built.value }

    init(_ name: String, _ spec: @escaping @Sendable () -> ProviderSpec, commands: [any ProviderCommand.Type],
         values: (@Sendable (Completion.Query, Context) async -> [String])? = nil) {
        self.name = name
        built = Deferred(spec)
        self.commands = commands
        self.values = values
    }

    /// The command `args` names, its options read and checked.
    func parse(_ args: Arguments) throws(TransitError) -> Command {
        guard let type = commands.first(where: { $0.name == args.spec.name }) else { throw args.unknownCommand() }
        return Command(try type.init(args))
    }
}

package enum Providers {
    /// Every provider, in the order help lists them. A new provider adds its folder (its spec
    /// and its command types) and a line here. (`map { $0 }`: each list as `ProviderCommand` types.)
    package static let all: [Provider] = [
        Provider("bart", { BARTCommandLine.spec }, commands: BARTCommandLine.commands.map { $0 }, values: BARTCommands.completionValues),
    ] + BusTimeAgency.all.map { agency in
        Provider(agency.id, { BusTimeCommandLine.spec(agency) }, commands: BusTimeCommandLine.commands.map { $0 })
    } + [
        Provider("busbud", { BusbudCommandLine.spec }, commands: BusbudCommandLine.commands.map { $0 }),
        Provider("rail12306", { RailCommandLine.spec }, commands: RailCommandLine.commands.map { $0 }),
        Provider("weather", { WeatherCommandLine.spec }, commands: WeatherCommandLine.commands.map { $0 }),
        Provider("gtfs", { GTFSCommandLine.spec }, commands: GTFSCommandLine.commands.map { $0 }, values: GTFSCommandLine.completionValues),
    ]
}
