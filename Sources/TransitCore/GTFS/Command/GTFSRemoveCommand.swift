import Foundation
import TransitSupport
import TransitGTFS

/// `transit gtfs remove NAME`: forget an imported feed.
struct GTFSRemoveCommand: GTFSSubcommand {
    static let spec = CommandSpec(
        provider: "gtfs", name: "remove", summary: "forget an imported feed (its compiled file is deleted)",
        examples: ["transit gtfs remove lakeport"],
        notes: ["Prints the name removed. An unknown name exits 2 with the imported ones."],
        positional: "NAME", positionalSource: .cached)

    var name: String

    init(_ args: Arguments) throws(TransitError) {
        name = (args.positional ?? "").trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw args.missing("NAME") }
    }

    func run(_ gtfs: GTFSContext) async throws(TransitError) -> Output {
        let store = gtfs.store
        _ = try gtfs.importedFeed(name)
        do { try FileManager.default.removeItem(atPath: store.path(of: name)) } catch {
            throw .parse(what: store.path(of: name), reason: "cannot remove it: \(error.localizedDescription)")
        }
        store.removeCombinations(with: name)
        let data = [Column<String>("removed", "REMOVED") { .string($0) }]
        return Output([name], data: data, table: data)
    }
}
