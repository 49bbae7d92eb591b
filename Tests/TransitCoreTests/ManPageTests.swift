import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport

/// `transit help --man`: roff generated from the specs, rendered by groff without a warning.
@Suite struct ManPageTests {
    @Test func everyCommandAndOptionIsInThePage() {
        let page = ManPage.roff(Providers.all.map(\.spec))
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "GLOBAL OPTIONS", "PROVIDERS AND COMMANDS", "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES"] {
            #expect(page.contains("\n.SH \(section)\n"), "\(section)")
        }
        for provider in Providers.all.map(\.spec) {
            #expect(page.contains(".SS \"\(ManPage.escape(provider.name))\""))
            for (path, _) in provider.files { #expect(page.contains(ManPage.escape(path)), "\(path)") }
            for command in provider.commands {
                #expect(page.contains(".SS \"\(ManPage.escape(provider.name + " " + command.name))\""), "\(command.name)")
                for option in command.options { #expect(page.contains(#"\fB\-\-"# + ManPage.escape(option.name) + #"\fR"#), "\(option.name)") }
            }
        }
        // ASCII only (everything else as \[uXXXX]), and no line a roff request could misread.
        #expect(page.unicodeScalars.allSatisfy { $0.isASCII })
        #expect(ManPage.text(".starts with a dot") == #"\&.starts with a dot"#)
        #expect(ManPage.escape("a-b\\c → d") == #"a\-b\ec \[u2192] d"#)
    }

    @Test func groffRendersItWithoutAWarning() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/groff"), "groff is missing: scripts/setup installs groff-base")
        let page = try await Run.transit(["help", "--man"])
        #expect(page.status == 0 && page.stdout.hasPrefix(".TH TRANSIT 1"))
        let file = Paths.temporary() + ".1"
        try page.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let rendered = try await Run.transitLike(["/usr/bin/groff", "-man", "-Tutf8", "-ww", "-z", file], env: Run.environment())
        #expect(rendered.status == 0 && rendered.stderr == "", "\(rendered.stderr)")
        let misuse = try await Run.transit(["bart", "trips", "--man"])
        #expect(misuse.status == 2 && misuse.stderrLines.first == "transit: --man goes with help alone: transit help --man")
    }
}
