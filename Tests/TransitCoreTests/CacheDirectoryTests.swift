import Foundation
import Testing
@testable import TransitCore
import TransitTestSupport

/// Nothing is written outside the cache (issue 41, item 15): a feed fetched by URL leaves no
/// Foundation URL cache or cookie directory under `$HOME`, and an empty `TRANSIT_CACHE_DIR` is a
/// usage error, not a quiet `~/.cache/transit`.
@Suite struct CacheDirectoryTests {
    /// Everything under `root`, as paths relative to it.
    static func tree(_ root: String) -> [String] {
        ((FileManager.default.enumerator(atPath: root)?.allObjects as? [String]) ?? []).sorted()
    }

    @Test func aURLImportWritesOnlyInTheCache() async throws {
        let zip = Paths.temporary() + "/lakeport.zip"
        let zipped = try await Run.transitLike(["/usr/bin/python3", "-c", "import shutil,sys; shutil.make_archive(sys.argv[1][:-4], 'zip', sys.argv[2])",
                                                zip, Paths.fixtures + "/gtfs/lakeport"], env: ["PATH": "/usr/bin:/bin"])
        #expect(zipped.status == 0, "\(zipped.stderr)")
        let body = try Data(contentsOf: URL(fileURLWithPath: zip))
        let server = try LoopbackServer { _ in .respond(status: 200, headers: ["Content-Type": "application/zip"], body: body, delay: 0) }
        defer { server.stop() }
        let home = Paths.temporary(), cache = Paths.temporary()
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let env = Run.environment(["HOME": home, "TRANSIT_CACHE_DIR": cache]).filter { !$0.key.hasPrefix("XDG_") }
        let run = try await Run.transit(["gtfs", "import", server.baseURL + "/lakeport.zip"], env: env)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.tree(home).isEmpty, "\(Self.tree(home))")
        #expect(Self.tree(cache).contains("gtfs/lakeport.timetable"))
    }

    @Test func anEmptyCacheDirectoryIsAnError() async throws {
        let home = Paths.temporary()
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        for empty in ["", " "] {
            let run = try await Run.transit(["gtfs", "import", Paths.fixtures + "/gtfs/lakeport"], env: Run.environment(["HOME": home, "TRANSIT_CACHE_DIR": empty]))
            #expect(run.status == 2 && run.stdout.isEmpty && run.stderrLines == ["transit: TRANSIT_CACHE_DIR is set but empty: give it a directory, or unset it for the default ($XDG_CACHE_HOME/transit, else ~/.cache/transit)"], "\(run.stderr)")
        }
        #expect(Self.tree(home).isEmpty, "\(Self.tree(home))")
    }
}
