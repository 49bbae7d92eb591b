import Foundation
import TransitSupport

/// One response on disk, as a readable file: `#` note lines, `status:` and `content-type:`
/// lines, a blank line, then the body byte for byte. Used by `--record`, `--offline` and the cache.
///
/// ```
/// # GET https://api.bart.gov/api/stn.aspx?cmd=stns&key=REDACTED
/// status: 200
/// content-type: text/xml; charset=utf-8
///
/// <?xml version="1.0" encoding="utf-8"?><root>…
/// ```
public struct Recording: Sendable {
    public var notes: [String]
    public var fields: [(String, String)]
    public var response: HTTPResponse

    public init(notes: [String], response: HTTPResponse, extra: [(String, String)] = []) {
        self.notes = notes
        self.response = response
        var fields: [(String, String)] = [("status", String(response.status))]
        if let type = response.headers["content-type"] { fields.append(("content-type", type)) }
        if let retry = response.headers["retry-after"] { fields.append(("retry-after", retry)) }
        self.fields = fields + extra
    }

    public func field(_ name: String) -> String? { fields.first { $0.0 == name }?.1 }

    /// The file's bytes. A server may echo the key into its body: no configured secret is
    /// ever in them (recordings and cache entries alike). A binary body (`binaryBody`) is
    /// written as it came; the caller makes sure it holds no secret.
    public func encoded(binaryBody: Bool = false) -> Data {
        var head = ""
        for note in notes { head += "# " + note.replacingOccurrences(of: "\n", with: " ") + "\n" }
        for (name, value) in fields { head += "\(name): \(value)\n" }
        head += "\n"
        if binaryBody { return Redaction.scrub(Data(head.utf8)) + response.body }
        return Redaction.scrub(Data(head.utf8) + response.body)
    }

    /// Parses a recording; nil when the head is not in this shape (a corrupt cache entry).
    public static func decode(_ data: Data, source: HTTPResponse.Source) -> Recording? {
        var notes: [String] = []
        var fields: [(String, String)] = []
        var index = data.startIndex
        while index < data.endIndex {
            guard let newline = data[index...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            var line = String(decoding: data[index..<newline], as: UTF8.self)
            if line.utf8.last == UInt8(ascii: "\r") { line.removeLast() }
            index = data.index(after: newline)
            if line.isEmpty {
                guard let statusText = fields.first(where: { $0.0 == "status" })?.1,
                      let status = Int(statusText.trimmedSpace()) else { return nil }
                var headers: [String: String] = [:]
                for (name, value) in fields where name != "status" { headers[name] = value }
                let response = HTTPResponse(status: status, headers: headers, body: Data(data[index...]), source: source)
                var recording = Recording(notes: notes, response: response)
                recording.fields = fields
                return recording
            }
            if line.hasPrefix("#") {
                notes.append(line.dropFirst().trimmedSpace())
            } else if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].trimmedSpace().lowercased()
                let value = line[line.index(after: colon)...].trimmedSpace()
                fields.append((name, value))
            } else {
                return nil
            }
        }
        return nil
    }

    /// Where a request's recording lives under a fixtures directory:
    /// `<dir>/<provider>/<path>/<sorted query without secrets>.http`, e.g.
    /// `Fixtures/bart/sched.aspx/cmd=routesched&date=11-23-2026&route=1.http`.
    /// `legacy`: the name an older transit gave it (a space written `+`, like a `+` itself).
    /// No registered secret is part of the name, wherever the request carries it.
    public static func path(for request: HTTPRequest, in directory: String, legacy: Bool = false) -> String {
        func safe(_ text: String) -> String { Self.safe(Redaction.scrub(text), legacy: legacy) }
        var components = [directory, safe(request.provider)]
        components += request.path.split(separator: "/").map { safe(String($0)) }
        var name = request.identifyingQuery.map { safe($0.name) + "=" + safe($0.value) }.joined(separator: "&")
        if name.isEmpty { name = "_" }
        if name.utf8.count > 180 {
            name = String(name.prefix(120)) + "~" + FNV1a.hex(name)
        }
        return (components + [name + ".http"]).joined(separator: "/")
    }

    /// A file-name-safe form: `/` becomes `-`, other unsafe bytes (a space, a `+`) are
    /// %-encoded, so that two different queries never share a file.
    static func safe(_ text: String, legacy: Bool = false) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "/": out += "-"
            case " " where legacy: out += "+"
            case "+" where legacy: out += "+"
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".", ",", "@", ":":
                out.unicodeScalars.append(scalar)
            default:
                for byte in String(scalar).utf8 { out += String(format: "%%%02X", byte) }
            }
        }
        return out == "." || out == ".." ? "_" + out : out
    }
}

/// Writes files atomically (temporary file, then rename), creating directories as needed.
/// Our own temporary name (`.NAME.transit-tmp-PID-N`), not Foundation's `.dat.nosync…`: a
/// process killed mid-write leaves a file a later run recognises and removes (after an hour,
/// so that a write in progress elsewhere is never touched).
enum AtomicFile {
    static let marker = ".transit-tmp-"
    private static let counter = Locked(0)
    private static let swept = Locked(Set<String>())

    static func write(_ data: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        sweep(directory)
        let n = counter.withLock { $0 += 1; return $0 }
        let temporary = directory + "/." + url.lastPathComponent + marker + "\(getpid())-\(n)"
        do {
            try data.write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, NSLocalizedDescriptionKey: String(cString: strerror(errno))])
            }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Leftovers of killed writes in `directory` (ours and Foundation's), once per process.
    static func sweep(_ directory: String) {
        guard swept.withLock({ $0.insert(directory).inserted }) else { return }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let hourAgo = Date().addingTimeInterval(-3600)
        for name in names where name.hasPrefix(".") && (name.contains(marker) || name.hasPrefix(".dat.nosync")) {
            let file = directory + "/" + name
            if let modified = (try? FileManager.default.attributesOfItem(atPath: file))?[.modificationDate] as? Date, modified < hourAgo {
                unlink(file)
            }
        }
    }
}
