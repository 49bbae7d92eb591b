import Foundation
import Testing

/// The folders of TransitGTFS point one way (docs/architecture.md): a folder uses only its own
/// types and those of the folders before it in `EngineLayers.order`. Read from the sources as
/// text, as a newcomer reads them.
@Suite struct EngineLayerTests {
    @Test func theEnginesFoldersPointOneWay() throws {
        let layers = try EngineLayers(Paths.root.appendingPathComponent("Sources/TransitGTFS").path)
        #expect(Set(layers.folders) == Set(EngineLayers.order), "folders not in the order: \(Set(layers.folders).subtracting(EngineLayers.order))")
        let upward = layers.upwardReferences()
        #expect(upward.isEmpty, "\(upward.count) upward references:\n\(upward.joined(separator: "\n"))")
    }

    /// The test finds what it is for: a use of a later folder's type, and of a member a later
    /// folder adds to an earlier folder's type.
    @Test func anUpwardReferenceIsFound() {
        let layers = EngineLayers(files: [
            ("Model", "package struct Timetable {\n    var a = 1\n}\n"),
            ("Routing", "package struct Router {\n    let t: Timetable\n}\nextension Timetable {\n    package func routerOnly() -> Int { 1 }\n}\n"),
            ("Model", "// Router in a comment, \"Router\" in a string\nfunc f(_ t: Timetable) -> Int { t.routerOnly() }\nlet r: Router? = nil\n"),
        ])
        #expect(layers.upwardReferences().count == 2, "\(layers.upwardReferences())")
    }

    /// The command layer (TransitCore, TransitCLI) asks the engine for what it prints (a stop's
    /// record, the routes a name means, a feed's days) and never reads the timetable's arrays:
    /// how the model lays its values out stays the model's.
    @Test func theCommandLayerReadsNoTimetableArray() throws {
        let arrays = try ["Timetable", "CompiledFares"].reduce(into: Set<String>()) { found, type in
            let source = try String(contentsOf: Paths.root.appendingPathComponent("Sources/TransitGTFS/Model/\(type).swift"), encoding: .utf8)
            found.formUnion(EngineLayers.storedArrays(source, of: type))
        }
        #expect(arrays.count > 80 && arrays.contains("stopNames") && arrays.contains("times") && arrays.contains("legRules"), "\(arrays.sorted())")
        var found: [String] = []
        for target in ["Sources/TransitCore", "Sources/TransitCLI"] {
            let root = Paths.root.appendingPathComponent(target).path
            for path in (FileManager.default.subpaths(atPath: root) ?? []).filter({ $0.hasSuffix(".swift") }).sorted() {
                let code = EngineLayers.code(try String(contentsOfFile: root + "/" + path, encoding: .utf8))
                found += EngineLayers.reads(of: arrays, in: code).map { "\(target)/\(path): .\($0)" }
            }
        }
        #expect(found.isEmpty, "\(found.count) reads of the timetable's arrays:\n\(found.joined(separator: "\n"))")
        // The check finds what it is for.
        #expect(EngineLayers.reads(of: arrays, in: "let n = t.stopNames[3]; let k = feed.timetable.tripIDs.count; let s = stopNamesLike") == ["stopNames", "tripIDs"])
    }
}

extension EngineLayerTests {
    /// One question, one answer (issue 63): the command layer turns argv into a `JourneyQuery` and
    /// the engine's answer into output; resolving the ends (`QueryEnds(`) and setting up a search
    /// (`.router(`) are the engine's alone, so that the library and `transit` answer alike.
    @Test func theCommandLayerNeitherResolvesEndsNorSetsUpASearch() throws {
        var found: [String] = []
        for target in ["Sources/TransitCore", "Sources/TransitCLI"] {
            let root = Paths.root.appendingPathComponent(target).path
            for path in (FileManager.default.subpaths(atPath: root) ?? []).filter({ $0.hasSuffix(".swift") }).sorted() {
                let code = EngineLayers.code(try String(contentsOfFile: root + "/" + path, encoding: .utf8))
                found += EngineLayers.setUps(in: code).map { "\(target)/\(path): \($0)" }
            }
        }
        #expect(found.isEmpty, "\(found.count) uses:\n\(found.joined(separator: "\n"))")
        // The check finds what it is for, in code and not in comments or strings.
        #expect(EngineLayers.setUps(in: EngineLayers.code("let e = try QueryEnds(t, from: p)\nlet r = e.router(day: 1)\n// QueryEnds( in a comment\nlet s = \"x.router(\"")) == ["QueryEnds(", ".router("])
    }
}

/// The engine's folders, their order, and what each file uses of the others.
struct EngineLayers {
    /// Bottom first. `(top)` is the folder's own files (none now: `GTFSFeed` is in Query).
    static let order = ["Geometry", "Storage", "Read", "Model", "Streets", "Realtime", "Routing", "Fares", "Store", "Catalog", "Query"]

    let files: [(folder: String, code: String)]
    var folders: [String] { Array(Set(files.map(\.folder))) }

    init(files: [(String, String)]) {
        self.files = files.map { ($0.0, Self.code($0.1)) }
    }

    init(_ root: String) throws {
        let paths = (FileManager.default.subpaths(atPath: root) ?? []).filter { $0.hasSuffix(".swift") }.sorted()
        self.init(files: try paths.map { path in
            let folder = path.contains("/") ? String(path.prefix { $0 != "/" }) : "(top)"
            return (folder, try String(contentsOfFile: root + "/" + path, encoding: .utf8))
        })
    }

    /// The stored arrays of `type` (its `Packed` and `StringTable` fields), by name.
    static func storedArrays(_ source: String, of type: String) -> Set<String> {
        let body = source.components(separatedBy: "package struct \(type): Sendable {").dropFirst().first ?? ""
        return Set(body.split(separator: "\n").compactMap { line -> String? in
            let tokens = line.split(separator: " ")
            guard tokens.count >= 4, tokens[0] == "package", tokens[1] == "var", tokens[3] == "=",
                  tokens[4...].first.map({ $0.hasPrefix("Packed<") || $0.hasPrefix("StringTable(") }) == true else { return nil }
            return String(tokens[2])
        })
    }

    /// The names of `arrays` read as a member (`.name` not followed by more of a name), in order.
    static func reads(of arrays: Set<String>, in code: String) -> [String] {
        var found: [String] = [], rest = Substring(code)
        while let dot = rest.firstIndex(of: ".") {
            rest = rest[rest.index(after: dot)...]
            let name = String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
            if arrays.contains(name) { found.append(name) }
        }
        return found
    }

    /// Each `QueryEnds(` and `.router(` of `code` (comments and strings taken out), in order.
    static func setUps(in code: String) -> [String] {
        var found: [(String.Index, String)] = []
        for needle in ["QueryEnds(", ".router("] {
            var rest = code[...]
            while let range = rest.range(of: needle) {
                found.append((range.lowerBound, needle))
                rest = rest[range.upperBound...]
            }
        }
        return found.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// The text without comments and string literals.
    static func code(_ text: String) -> String {
        var out = "", inString = false, escaped = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var previous: Character = " "
            for c in line {
                if inString {
                    if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
                    continue
                }
                if c == "/" && previous == "/" { out.removeLast(); break }
                if c == "\"" { inString = true; out.append("\"\""); previous = c; continue }
                out.append(c)
                previous = c
            }
            inString = false
            out.append("\n")
        }
        return out
    }

    static func words(_ code: String) -> Set<String> {
        Set(code.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
    }

    /// Top-level types (unindented declarations) and, for an extension of another folder's
    /// type, the members it adds (those whose name no other declaration in the module has), by
    /// the folder that declares them.
    func declarations() -> [String: String] {
        let kinds: Set<String> = ["struct", "enum", "class", "protocol", "typealias", "actor"]
        let modifiers: Set<String> = ["public", "package", "private", "fileprivate", "internal", "final", "indirect"]
        var types: [String: String] = [:]
        for (folder, code) in files {
            for line in code.split(separator: "\n") where !(line.first?.isWhitespace ?? true) {
                let tokens = line.split(separator: " ").map(String.init).drop { modifiers.contains($0) || $0.hasPrefix("@") }
                if let kind = tokens.first, kinds.contains(kind), let name = tokens.dropFirst().first {
                    let type = String(name.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
                    if types[type] == nil { types[type] = folder }
                }
            }
        }
        // Every member name declared anywhere, counted (a common name is not tracked).
        var counts: [String: Int] = [:], added: [String: String] = [:]
        let memberKinds: Set<String> = ["func", "var", "let", "case"]
        for (folder, code) in files {
            var extending: String?
            for line in code.split(separator: "\n") {
                let tokens = line.split { $0 == " " || $0 == "(" || $0 == ":" || $0 == "<" || $0 == "{" || $0 == "," }.map(String.init)
                if !(line.first?.isWhitespace ?? true) {
                    let head = tokens.drop { modifiers.contains($0) }
                    extending = head.first == "extension" ? head.dropFirst().first.map { String($0.prefix { $0 != "." }) } : nil
                }
                for (k, token) in tokens.enumerated() where memberKinds.contains(token) && k + 1 < tokens.count {
                    let name = tokens[k + 1]
                    counts[name, default: 0] += 1
                    if let extended = extending, let home = types[extended], home != folder, line.hasPrefix("    "), !line.hasPrefix("        ") {
                        added[name] = folder
                    }
                }
            }
        }
        for (name, folder) in added where counts[name] == 1 && types[name] == nil { types[name] = folder }
        return types
    }

    /// "file's folder → name (declared in folder)" for each use of a later folder's name.
    func upwardReferences() -> [String] {
        let declared = declarations()
        let rank = Dictionary(uniqueKeysWithValues: Self.order.enumerated().map { ($1, $0) })
        var found: [String] = []
        for (folder, code) in files {
            let here = rank[folder] ?? Int.max
            for word in Self.words(code).sorted() {
                guard let home = declared[word], home != folder, let there = rank[home], there > here else { continue }
                found.append("\(folder) uses \(word) (\(home))")
            }
        }
        return found
    }
}
