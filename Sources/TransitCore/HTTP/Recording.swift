import Foundation

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

    public func encoded() -> Data {
        var head = ""
        for note in notes { head += "# " + note.replacingOccurrences(of: "\n", with: " ") + "\n" }
        for (name, value) in fields { head += "\(name): \(value)\n" }
        head += "\n"
        return Data(head.utf8) + response.body
    }

    /// Parses a recording; nil when the head is not in this shape (a corrupt cache entry).
    public static func decode(_ data: Data, source: HTTPResponse.Source) -> Recording? {
        var notes: [String] = []
        var fields: [(String, String)] = []
        var index = data.startIndex
        while index < data.endIndex {
            guard let newline = data[index...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            let line = String(decoding: data[index..<newline], as: UTF8.self)
                .trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
            index = data.index(after: newline)
            if line.isEmpty {
                guard let statusText = fields.first(where: { $0.0 == "status" })?.1,
                      let status = Int(statusText.trimmingCharacters(in: .whitespaces)) else { return nil }
                var headers: [String: String] = [:]
                for (name, value) in fields where name != "status" { headers[name] = value }
                let response = HTTPResponse(status: status, headers: headers, body: Data(data[index...]), source: source)
                var recording = Recording(notes: notes, response: response)
                recording.fields = fields
                return recording
            }
            if line.hasPrefix("#") {
                notes.append(String(line.dropFirst()).trimmingCharacters(in: .whitespaces))
            } else if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
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
    public static func path(for request: HTTPRequest, in directory: String) -> String {
        var components = [directory, safe(request.provider)]
        components += request.path.split(separator: "/").map { safe(String($0)) }
        var name = request.identifyingQuery.map { safe($0.name) + "=" + safe($0.value) }.joined(separator: "&")
        if name.isEmpty { name = "_" }
        if name.utf8.count > 180 {
            name = String(name.prefix(120)) + "~" + FNV1a.hex(name)
        }
        return (components + [name + ".http"]).joined(separator: "/")
    }

    /// A file-name-safe form: `/` becomes `-`, space `+`, other unsafe bytes are %-encoded.
    static func safe(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "/": out += "-"
            case " ": out += "+"
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".", ",", "+", "@", ":":
                out.unicodeScalars.append(scalar)
            default:
                for byte in String(scalar).utf8 { out += String(format: "%%%02X", byte) }
            }
        }
        return out == "." || out == ".." ? "_" + out : out
    }
}

/// 64-bit FNV-1a: a stable, dependency-free hash for cache file names.
enum FNV1a {
    static func hex(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return String(format: "%016llx", hash)
    }
}

/// Writes files atomically (temporary file, then rename), creating directories as needed.
enum AtomicFile {
    static func write(_ data: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url, options: .atomic)
    }
}
