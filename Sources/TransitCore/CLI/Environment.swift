import TransitSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The environment as transit reads it: one variable at a time, by name. The process's is read
/// with getenv(3) when a name is asked for, so start-up copies no environment it does not use;
/// tests hand in a dictionary.
package struct Environment: Sendable, ExpressibleByDictionaryLiteral {
    private let lookup: @Sendable (String) -> String?

    package init(_ variables: [String: String]) { lookup = { variables[$0] } }

    package init(dictionaryLiteral elements: (String, String)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// The running process's environment.
    package static let process = Environment(lookup: { name in getenv(name).map { String(cString: $0) } })

    private init(lookup: @escaping @Sendable (String) -> String?) { self.lookup = lookup }

    package subscript(_ name: String) -> String? { lookup(name) }
}

/// The environment a command runs in, as `Settings` carries it: settings compare by what was
/// resolved from it, so two of these are always equal (a closure has no equality of its own).
package struct RunEnvironment: Sendable, Equatable {
    package let variables: Environment

    package init(_ variables: Environment) { self.variables = variables }

    package subscript(_ name: String) -> String? { variables[name] }

    package static func == (_: RunEnvironment, _: RunEnvironment) -> Bool { true }
}
