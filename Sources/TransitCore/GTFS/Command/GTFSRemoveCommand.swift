import Foundation
import TransitSupport

/// `transit gtfs remove NAME`: forget an imported feed.
struct GTFSRemoveCommand: GTFSSubcommand {
    static let spec = CommandSpec(
        provider: "gtfs", name: "remove", summary: "forget an imported feed (its compiled file is deleted)",
        examples: ["transit gtfs remove lakeport"],
        notes: ["Prints the name removed. An unknown name exits 2 with the imported ones. A feed whose compiled file is damaged (`feeds` names it) is removed too."],
        positional: "NAME", positionalSource: .cached)

    var name: String

    init(_ args: Arguments) throws(TransitError) {
        name = (args.positional ?? "").trimmedSpace(newlines: false)
        guard !name.isEmpty else { throw args.missing("NAME") }
    }

    func run(_ gtfs: GTFSContext) async throws(TransitError) -> Output {
        let store = gtfs.store
        store.sweep()
        if !store.damagedFeeds().contains(name) { _ = try gtfs.importedFeed(name) }
        try store.remove(name)
        let data = [Column<String>("removed", "REMOVED") { .string($0) }]
        return Output([name], data: data, table: data)
    }
}
