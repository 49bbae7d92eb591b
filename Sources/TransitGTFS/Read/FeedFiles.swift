import Foundation
import TransitSupport

/// Where a feed's CSV files are read from: a directory or a zip (in any folder of it).
package enum FeedFiles {
    case directory(String)
    case zip(ZipArchive)

    /// A directory, or a file that is a zip.
    package static func open(_ path: String) throws(TransitError) -> FeedFiles {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .usage("no feed at \(path): give a GTFS zip, an unzipped feed directory, an http(s) URL or an imported feed's name")
        }
        if isDirectory.boolValue { return .directory(path) }
        let file = try ReadOnlyFile(path)
        let head = try file.bytes(at: 0, count: min(4, file.size), what: "the first bytes")
        guard head.count == 4, head[0] == 0x50, head[1] == 0x4B else {
            throw .parse(what: path, reason: "not a zip file")
        }
        return .zip(try ZipArchive(file: file))
    }

    /// A reader of `name`, or nil when the feed has no such file.
    package func reader(_ name: String) throws(TransitError) -> CSVReader? {
        switch self {
        case .directory(let path):
            let file = (path as NSString).appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: file) else { return nil }
            return try CSVReader(try FileSource(file), file: name)
        case .zip(let archive):
            guard let entry = archive.entry(named: name) else { return nil }
            return try CSVReader(try archive.source(entry), file: name)
        }
    }
}
