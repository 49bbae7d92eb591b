import Foundation
import TransitSupport

extension TravelTimeQuery.Point {
    /// A points file, whole and checked: CSV (RFC 4180; UTF-8 with or without a byte order mark;
    /// CRLF or LF) with a header naming `id`, `lat` and `lon` in any order (`lat` and `lon` may be
    /// left out when every row is a stop), other columns ignored. A row with both `lat` and `lon`
    /// empty is a stop, its `id` read as `--from` reads one. Refused, naming the file, the line and
    /// the column: no `id` column or one of `lat` and `lon` alone, an empty id, one coordinate
    /// empty, a coordinate that is no number or out of range, an id twice, no row at all.
    /// `counts`: an opportunities file, whose `count` column (a number, 0 or more, decimals
    /// allowed) each row must fill.
    public static func read(_ path: String, counts: Bool = false) throws(TransitError) -> [Self] {
        let name = (path as NSString).lastPathComponent
        guard FileManager.default.fileExists(atPath: path) else { throw .usage("\(path): no such file") }
        let reader = try CSVReader(try FileSource(path), file: name)
        func refuse(_ line: Int, _ column: String?, _ why: String) -> TransitError {
            .usage("\(path) line \(line)\(column.map { ", column \($0)" } ?? ""): \(why)")
        }
        guard !reader.header.isEmpty else { throw .usage("\(path) is empty: a points file has a header naming id, lat and lon") }
        guard let id = reader.column("id") else { throw refuse(1, nil, "no id column (the header names \(reader.header.joined(separator: ", ")))") }
        let lat = reader.column("lat"), lon = reader.column("lon")
        guard (lat == nil) == (lon == nil) else { throw refuse(1, nil, "lat and lon come together (the header names only \(lat == nil ? "lon" : "lat"))") }
        let countColumn = reader.column("count")
        if counts && countColumn == nil { throw refuse(1, nil, "no count column (an opportunities file is id,lat,lon,count)") }
        func count(_ line: Int) throws(TransitError) -> Double? {
            guard counts, let countColumn else { return nil }
            let raw = reader.string(countColumn)
            guard !raw.isEmpty else { throw refuse(line, "count", "the count is empty") }
            guard let value = Double(raw), value.isFinite, value >= 0 else { throw refuse(line, "count", "'\(raw)' is not a number of 0 or more") }
            return value
        }
        var out: [Self] = [], seen: [String: Int] = [:]
        while try reader.next() {
            let line = reader.line, text = reader.string(id)
            guard !text.isEmpty else { throw refuse(line, "id", "the id is empty") }
            if let first = seen[text] { throw refuse(line, "id", "the id '\(text)' is on line \(first) too") }
            seen[text] = line
            let source = "\(path) line \(line)"
            guard let lat, let lon, !(reader.isEmpty(lat) && reader.isEmpty(lon)) else {
                out.append(Self(id: text, place: .stop(text), source: source, count: try count(line)))
                continue
            }
            func degrees(_ column: Int, _ key: String, _ limit: Double) throws(TransitError) -> Double {
                let raw = reader.string(column)
                guard !raw.isEmpty else { throw refuse(line, key, "\(key) is empty where \(key == "lat" ? "lon" : "lat") is given (both empty: the id is a stop)") }
                guard let value = Double(raw), value.isFinite else { throw refuse(line, key, "'\(raw)' is not a number") }
                guard abs(value) <= limit else { throw refuse(line, key, "\(raw) is out of range (−\(Int(limit)) to \(Int(limit)))") }
                return value
            }
            let at = Coordinate(latitude: try degrees(lat, "lat", 90), longitude: try degrees(lon, "lon", 180))
            out.append(Self(id: text, place: .point(at, text: "\(reader.string(lat)),\(reader.string(lon))"), source: source, count: try count(line)))
        }
        guard !out.isEmpty else { throw .usage("\(path) has no points (a header and no rows)") }
        return out
    }
}
