import Foundation
import TransitSupport

/// One command of a provider, in the spirit of swift-argument-parser's `ParsableCommand`: its
/// options read and checked from the command line and its run, in one type, beside its spec
/// (help, the man page, completion and docs/reference.md are generated from specs). A provider is
/// a list of these types (`Provider.commands`): a new command is a new type and a line there;
/// nothing else names it.
protocol ProviderCommand: Sendable, Equatable {
    /// Its name on the command line, as its spec says it.
    static var name: String { get }
    /// The options as typed, checked: a bad value is a usage error naming the option.
    init(_ args: Arguments) throws(TransitError)
    func run(_ context: Context) async throws(TransitError) -> Output
    /// The zone its times are read in (the header `--watch` prints).
    var zone: TimeZone { get }
}

extension ProviderCommand {
    var zone: TimeZone { .utc }

    func isEqual(to other: any ProviderCommand) -> Bool { (other as? Self) == self }
}

/// A command whose spec is its own, whatever provider runs it. (A provider whose one list of
/// commands serves several names writes each command's spec for the name it runs as, through a
/// protocol of its own beside `ProviderCommand`.)
protocol SpecifiedCommand: ProviderCommand {
    static var spec: CommandSpec { get }
}

extension SpecifiedCommand {
    static var name: String { spec.name }
}

/// A command line's command with its options read and checked: a value of one of its
/// provider's command types.
package struct Command: Sendable, Equatable {
    let command: any ProviderCommand

    init(_ command: any ProviderCommand) { self.command = command }

    func run(_ context: Context) async throws(TransitError) -> Output { try await command.run(context) }

    /// The zone its times are read in (for `--watch` headers).
    var zone: TimeZone { command.zone }

    package static func == (a: Command, b: Command) -> Bool { a.command.isEqual(to: b.command) }
}
