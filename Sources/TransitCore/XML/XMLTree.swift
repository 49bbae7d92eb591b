import Foundation
import TransitSupport
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A small element tree built with Foundation's XMLParser, for the many small documents
/// (stations, routes, departures, advisories, errors). Big schedules use a streaming delegate.
package enum XMLTree {
    /// Elements nested deeper than this are refused (libxml2's own default limit).
    package static let maxDepth = 256

    /// One element: a value, built once and then only read.
    package struct Element: Sendable {
        package let name: String
        package let attributes: [String: String]
        package fileprivate(set) var children: [Element] = []
        fileprivate var rawText = ""

        init(name: String, attributes: [String: String]) {
            self.name = name
            self.attributes = attributes
        }

        /// The element's own text (CDATA included), trimmed: upstream values carry stray spaces.
        package var text: String { rawText.trimmedSpace() }
        package func child(_ name: String) -> Element? { children.first { $0.name == name } }
        package func all(_ name: String) -> [Element] { children.filter { $0.name == name } }
        /// Trimmed text of the first child called `name`; nil when absent or empty.
        package func value(_ name: String) -> String? {
            guard let t = child(name)?.text, !t.isEmpty else { return nil }
            return t
        }
        /// A trimmed attribute; nil when absent or empty.
        package func attribute(_ name: String) -> String? {
            guard let v = attributes[name]?.trimmedSpace(), !v.isEmpty else { return nil }
            return v
        }
        /// Follows a path of child names.
        package func at(_ path: String...) -> Element? {
            var node: Element? = self
            for step in path { node = node?.child(step) }
            return node
        }

        /// The element as JSON, so the JSON decoders read XML too: a leaf is its text, repeated
        /// child names become arrays. Recursion is bounded by `maxDepth`.
        package func json() -> Data {
            var out = ""
            appendJSON(to: &out)
            return Data(out.utf8)
        }

        func appendJSON(to out: inout String) {
            guard !children.isEmpty else { out += JSONWriter.quote(text); return }
            var order: [String] = []
            var groups: [String: [Element]] = [:]
            for child in children {
                if groups[child.name] == nil { order.append(child.name) }
                groups[child.name, default: []].append(child)
            }
            out += "{"
            for (i, name) in order.enumerated() {
                if i > 0 { out += "," }
                out += JSONWriter.quote(name) + ":"
                let group = groups[name] ?? []
                if group.count == 1, let only = group.first {
                    only.appendJSON(to: &out)
                } else {
                    out += "["
                    for (j, element) in group.enumerated() {
                        if j > 0 { out += "," }
                        element.appendJSON(to: &out)
                    }
                    out += "]"
                }
            }
            out += "}"
        }
    }

    /// Parses `data` into a tree. Throws `.parse` for malformed or truncated XML; checks
    /// `parserError` as well as `parse()`'s result, which is true on some malformed input on Linux.
    package static func parse(_ data: Data, what: String) throws(TransitError) -> Element {
        let builder = TreeBuilder()
        try run(builder, on: data, what: what)
        if builder.tooDeep { throw .parse(what: what, reason: "elements nested deeper than \(maxDepth)") }
        guard let root = builder.root, builder.stack.isEmpty else {
            throw .parse(what: what, reason: "the XML document is incomplete")
        }
        return root
    }

    /// Runs XMLParser with `delegate` over `data`, leading whitespace dropped (libxml2 rejects
    /// it before `<?xml`). Uses the stream form: `XMLParser(data:)` fails above 10 MB on Linux.
    package static func run(_ delegate: XMLParserDelegate & NSObject, on data: Data, what: String) throws(TransitError) {
        let body = trimLeadingWhitespace(data)
        guard !body.isEmpty else { throw .parse(what: what, reason: "the body is empty") }
        // Foundation traps on a name or value that is not UTF-8 (it force-unwraps the decoded
        // string). libxml2 converts Latin-1 itself; any other declaration (a misspelt or an
        // unknown encoding passes the bytes through unconverted) must be valid UTF-8.
        guard declarationIsASCII(body) else {
            throw .parse(what: what, reason: "the XML declaration is not plain ASCII")
        }
        if !declaresLatin1(body) && !isUTF8(body) {
            throw .parse(what: what, reason: "the body is not valid UTF-8")
        }
        let parser = XMLParser(stream: InputStream(data: body))
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = delegate
        let ok = parser.parse()
        if let builder = delegate as? TreeBuilder, builder.tooDeep { return }
        if !ok || parser.parserError != nil {
            let line = parser.lineNumber
            let reason = (parser.parserError as NSError?).map { "malformed XML near line \(line) (code \($0.code))" }
                ?? "malformed XML near line \(line)"
            throw .parse(what: what, reason: reason)
        }
    }

    /// The `<?xml … ?>` declaration, if any, holds only printable ASCII (Foundation's XMLParser
    /// traps on a non-ASCII byte in the encoding name).
    static func declarationIsASCII(_ data: Data) -> Bool {
        guard data.starts(with: Array("<?xml".utf8)) else { return true }
        for byte in data.prefix(200) {
            if byte == UInt8(ascii: ">") { return true }
            if byte >= 0x80 || (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) { return false }
        }
        return true
    }

    /// Does the XML declaration name ISO-8859-1, which libxml2 turns into UTF-8 itself?
    static func declaresLatin1(_ data: Data) -> Bool {
        let head = String(decoding: data.prefix(100), as: UTF8.self).lowercased()
        guard head.hasPrefix("<?xml"), let range = head.range(of: "encoding=") else { return false }
        let rest = head[range.upperBound...].drop { $0 == "\"" || $0 == "'" }
        return ["iso-8859-1\"", "iso-8859-1'", "latin1\"", "latin1'", "iso8859-1\"", "iso8859-1'"].contains { rest.hasPrefix($0) }
    }

    /// Valid UTF-8? All-ASCII bodies (BART's schedules) are checked eight bytes at a time.
    static func isUTF8(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var i = 0
            var high: UInt64 = 0
            while i + 8 <= raw.count {
                high |= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                i += 8
            }
            while i < raw.count {
                high |= UInt64(raw[i])
                i += 1
            }
            if high & 0x8080_8080_8080_8080 == 0 { return true }
            return String(validating: raw.bindMemory(to: UInt8.self), as: UTF8.self) != nil
        }
    }

    static func trimLeadingWhitespace(_ data: Data) -> Data {
        let start = contentStart(data)
        return start == data.startIndex ? data : data.subdata(in: start..<data.endIndex)
    }

    /// Where a body's content begins, past a UTF-8 byte order mark and whitespace.
    static func contentStart(_ data: Data) -> Data.Index {
        var start = data.startIndex
        if data.count >= 3, data[start] == 0xEF, data[start + 1] == 0xBB, data[start + 2] == 0xBF { start += 3 }
        while start < data.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(data[start]) { start += 1 }
        return start
    }

    /// The first byte of content: `<` for XML, `{` for JSON; nil for an empty body.
    static func firstContentByte(_ data: Data) -> UInt8? {
        let start = contentStart(data)
        return start < data.endIndex ? data[start] : nil
    }
}

final class TreeBuilder: NSObject, XMLParserDelegate {
    var root: XMLTree.Element?
    var stack: [XMLTree.Element] = []
    var tooDeep = false

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        guard stack.count < XMLTree.maxDepth else {
            tooDeep = true
            parser.abortParsing()
            return
        }
        stack.append(XMLTree.Element(name: name, attributes: attributes))
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        guard !tooDeep, let node = stack.popLast() else { return }
        if stack.isEmpty {
            if root == nil { root = node }
        } else {
            stack[stack.count - 1].children.append(node)
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].rawText += string
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].rawText += String(decoding: block, as: UTF8.self)
    }
}
