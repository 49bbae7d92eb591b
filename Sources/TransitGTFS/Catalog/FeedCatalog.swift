import Foundation
import TransitSupport

/// One source of the Mobility Database catalog: a GTFS feed or a GTFS-Realtime feed, as a row
/// of its published v2 CSV (../shared/reference/catalog/README.md).
package struct CatalogFeed: Sendable {
    package var id: String
    /// `gtfs` or `gtfs_rt`.
    package var dataType: String
    /// A real-time feed's kinds: `tu`, `vp`, `sa`.
    package var entityTypes: [String]
    package var countryCode: String
    package var subdivision: String
    package var municipality: String
    package var provider: String
    package var isOfficial: Bool?
    package var name: String
    package var note: String
    package var contactEmail: String
    /// The GTFS feeds a real-time feed speaks of, by id.
    package var staticReference: [String]
    package var directDownload: String
    /// 0 none, 1 an API key as a query parameter, 2 an HTTP header, 3 ad hoc (nil: not said).
    package var authenticationType: Int?
    package var authenticationInfo: String
    package var apiKeyParameterName: String
    package var latest: String
    package var license: String
    /// minimum latitude, maximum latitude, minimum longitude, maximum longitude.
    package var boundingBox: (south: Double, north: Double, west: Double, east: Double)?
    package var extractedOn: String
    /// `active`, `deprecated` (see `redirectID`), `inactive` or `development`.
    package var status: String
    package var features: [String]
    package var redirectID: String
    package var redirectComment: String

    package var isRealtime: Bool { dataType == "gtfs_rt" }
    /// Not deprecated nor inactive.
    package var isCurrent: Bool { status != "deprecated" && status != "inactive" }
    package var place: String { [municipality, subdivision, countryCode].filter { !$0.isEmpty }.joined(separator: ", ") }
}

/// The whole catalog, read from its v2 CSV: searched by words and place, a feed's real-time
/// sources found by their `static_reference`. Kept as the file's fields, as bytes, one blob
/// with offsets (27 a row): a search makes Strings only of the rows it returns (making all of
/// them, 160,000 Strings, was two thirds of a search's time).
package struct FeedCatalog: Sendable {
    package static let header = ["id", "data_type", "entity_type", "location.country_code", "location.subdivision_name", "location.municipality",
                                 "provider", "is_official", "name", "note", "feed_contact_email", "static_reference", "urls.direct_download",
                                 "urls.authentication_type", "urls.authentication_info", "urls.api_key_parameter_name", "urls.latest", "urls.license",
                                 "location.bounding_box.minimum_latitude", "location.bounding_box.maximum_latitude",
                                 "location.bounding_box.minimum_longitude", "location.bounding_box.maximum_longitude",
                                 "location.bounding_box.extracted_on", "status", "features", "redirect.id", "redirect.comment"]
    /// A catalog has a few thousand rows; a file of far more is not one.
    package static let maxRows = 200_000
    static let columns = header.count
    // Columns by their place in `header`.
    static let (id, dataType, country, subdivision, municipality, provider, staticReference, status) = (0, 1, 3, 4, 5, 6, 11, 23)

    /// Every field of every row, `columns` a row.
    private let cells: StringTable
    package let count: Int

    /// The v2 CSV at `path`: its header must name every v2 column (in any order; more are
    /// ignored), every row an id. `what` names the file in errors.
    package init(file path: String, what: String) throws(TransitError) {
        let reader = try CSVReader(FileSource(path), file: what)
        guard !reader.header.isEmpty else { throw .parse(what: what, reason: "it is empty, not the catalog's v2 CSV") }
        let columns = Self.header.map { reader.column($0) }
        let missing = zip(Self.header, columns).filter { $0.1 == nil }.map(\.0)
        guard missing.isEmpty else {
            throw .parse(what: what, reason: "not the catalog's v2 CSV (no column \(missing.prefix(3).joined(separator: ", "))\(missing.count > 3 ? ", …" : ""))")
        }
        var cells = StringTable(), count = 0
        // Room for the whole file at once (growing by doubling copied it again and again).
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        cells.bytes.reserveCapacity(size)
        cells.offsets.reserveCapacity(size / 200 * Self.columns)
        while try reader.next() {
            guard count < Self.maxRows else { throw .parse(what: what, reason: "more than \(Self.maxRows) rows: not the catalog") }
            for column in columns {
                guard let column else { continue }
                cells.append(reader.bytes(column))
            }
            guard cells.withBytes(count * Self.columns + Self.id, { !$0.isEmpty }) else { throw .parse(what: what, reason: "line \(reader.line): a row without an id") }
            count += 1
        }
        guard count > 0 else { throw .parse(what: what, reason: "no feed in it: the download was cut short, or it is not the catalog") }
        self.cells = cells
        self.count = count
    }

    // MARK: rows

    private func cell(_ row: Int, _ column: Int) -> String { cells[row * Self.columns + column] }
    private func bytes<R>(_ row: Int, _ column: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R { cells.withBytes(row * Self.columns + column, body) }
    private func isRealtime(_ row: Int) -> Bool { bytes(row, Self.dataType) { $0.elementsEqual("gtfs_rt".utf8) } }
    /// As `CatalogFeed.isCurrent` says of the row made a feed (its status in any case).
    private func isCurrent(_ row: Int) -> Bool {
        bytes(row, Self.status) { status in !Self.isWord(status, Self.deprecated) && !Self.isWord(status, Self.inactive) }
    }
    static let deprecated = Array("DEPRECATED".utf8), inactive = Array("INACTIVE".utf8)

    /// Row `row` as a feed, every field.
    package func feed(at row: Int) -> CatalogFeed {
        func list(_ column: Int) -> [String] {
            bytes(row, column) { raw in
                raw.split(separator: UInt8(ascii: "|")).compactMap { part in
                    let text = String(decoding: part, as: UTF8.self).trimmedSpace(newlines: false)
                    return text.isEmpty ? nil : text
                }
            }
        }
        let box = (18...21).map { Double(cell(row, $0)) }.compactMap { $0 }.filter(\.isFinite)
        let status = cell(row, Self.status).lowercased(), redirect = cell(row, 25), comment = cell(row, 26)
        return CatalogFeed(
            id: cell(row, Self.id), dataType: cell(row, Self.dataType), entityTypes: list(2), countryCode: cell(row, Self.country),
            subdivision: cell(row, Self.subdivision), municipality: cell(row, Self.municipality), provider: cell(row, Self.provider),
            isOfficial: ["true": true, "false": false][cell(row, 7).lowercased()], name: cell(row, 8), note: cell(row, 9),
            contactEmail: cell(row, 10), staticReference: list(Self.staticReference), directDownload: cell(row, 12),
            authenticationType: Int(cell(row, 13)), authenticationInfo: cell(row, 14), apiKeyParameterName: cell(row, 15),
            latest: cell(row, 16), license: cell(row, 17),
            // A box upside down is no box: a search compares a point with it.
            boundingBox: box.count == 4 && box[0] <= box[1] && box[2] <= box[3] ? (box[0], box[1], box[2], box[3]) : nil,
            extractedOn: cell(row, 22), status: status.isEmpty ? "active" : status, features: list(24),
            redirectID: redirect == "nan" ? "" : redirect, redirectComment: comment == "nan" ? "" : comment)
    }

    /// Every row as a feed.
    package var feeds: [CatalogFeed] { (0..<count).map(feed(at:)) }

    package func feed(_ id: String) -> CatalogFeed? {
        var id = id
        return id.withUTF8 { wanted in (0..<count).first { row in bytes(row, Self.id) { $0.elementsEqual(wanted) } } }.map(feed(at:))
    }

    /// The real-time feeds that name `id` as their static feed, current ones first, by id.
    package func realtime(of id: String) -> [CatalogFeed] { realtime(of: [id])[id] ?? [] }

    /// The same for several feeds, in one pass over the rows.
    package func realtime(of ids: [String]) -> [String: [CatalogFeed]] {
        let wanted = Set(ids)
        var found: [String: [CatalogFeed]] = [:]
        for row in 0..<count where isRealtime(row) {
            let named = bytes(row, Self.staticReference) { raw in
                raw.split(separator: UInt8(ascii: "|")).map { String(decoding: $0, as: UTF8.self).trimmedSpace(newlines: false) }.filter(wanted.contains)
            }
            guard !named.isEmpty else { continue }
            let feed = feed(at: row)
            for id in named { found[id, default: []].append(feed) }
        }
        return found.mapValues { $0.sorted { ($0.isCurrent ? 0 : 1, $0.id) < ($1.isCurrent ? 0 : 1, $1.id) } }
    }

    /// GTFS feeds whose provider, name or place holds every word (any order and case, accents
    /// folded); `near`: whose bounding box holds the point, nearest centre first; `country`: an
    /// ISO code; `all`: deprecated and inactive ones too. Current feeds first; then by how the
    /// words match (`Match`: whole words before prefixes before the inside of a word, so that
    /// `bart` finds BART before Hobart), official before others, then by provider and id.
    package func search(_ words: [String], near: Coordinate? = nil, country: String? = nil, all: Bool = false) -> [CatalogFeed] {
        let wanted = words.map { Self.fold(Array($0.utf8)) }.filter { !$0.isEmpty }
        let country = country.map { Array($0.uppercased().utf8) }
        var found: [(feed: CatalogFeed, distance: Double, text: [UInt8], match: Int)] = []
        for row in 0..<count where !isRealtime(row) && (all || isCurrent(row)) {
            if let country, !bytes(row, Self.country, { Self.isWord($0, country) }) { continue }
            var text: [UInt8] = []
            for column in [Self.provider, 8, Self.municipality, Self.subdivision, Self.country] {
                bytes(row, column) { text.append(contentsOf: $0) }
                text.append(UInt8(ascii: " "))
            }
            text = Self.fold(text)
            var match = 0
            for word in wanted {
                guard let kind = Self.match(text, word) else { match = -1; break }
                match += kind.rawValue
            }
            guard match >= 0 else { continue }
            let feed = feed(at: row)
            var distance = 0.0
            if let near {
                // Compared, not made ranges: nothing here can trap on a box of the file's.
                guard let box = feed.boundingBox, box.south <= near.latitude, near.latitude <= box.north,
                      box.west <= near.longitude, near.longitude <= box.east else { continue }
                distance = near.meters(to: Coordinate(latitude: (box.south + box.north) / 2, longitude: (box.west + box.east) / 2))
            }
            found.append((feed, distance, text, match))
        }
        func order(_ a: (feed: CatalogFeed, distance: Double, text: [UInt8], match: Int)) -> (Int, Int, Double, Int) {
            (a.feed.isCurrent ? 0 : 1, a.match, a.distance, a.feed.isOfficial == true ? 0 : 1)
        }
        return found.sorted { a, b in
            let (x, y) = (order(a), order(b))
            if x != y { return x < y }
            return a.text.lexicographicallyPrecedes(b.text) || a.text == b.text && a.feed.id < b.feed.id
        }.map(\.feed)
    }

    /// How a word is found in a feed's text: as a whole word, as the start of one, or inside one.
    package enum Match: Int, Comparable {
        case word = 0, prefix = 1, inside = 2
        package static func < (a: Match, b: Match) -> Bool { a.rawValue < b.rawValue }
    }

    /// The best way `text` holds `word` (nil: not at all), as bytes (String's `contains` goes
    /// through Foundation). A letter or digit, or any byte of a character past ASCII, is part of
    /// a word.
    static func match(_ text: [UInt8], _ word: [UInt8]) -> Match? {
        guard word.count <= text.count, let first = word.first else { return word.isEmpty ? .word : nil }
        func inWord(_ byte: UInt8) -> Bool { byte >= 0x80 || (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) }
        var best: Match?, i = 0
        while i + word.count <= text.count {
            if text[i] == first && text[i..<(i + word.count)].elementsEqual(word) {
                let starts = i == 0 || !inWord(text[i - 1]), ends = i + word.count == text.count || !inWord(text[i + word.count])
                let kind: Match = starts ? (ends ? .word : .prefix) : .inside
                if kind == .word { return .word }
                best = min(best ?? kind, kind)
            }
            i += 1
        }
        return best
    }

    @inline(__always) static func upper(_ byte: UInt8) -> UInt8 { byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte }

    /// Whether `raw` is `word` (written in capitals) in any case.
    static func isWord(_ raw: UnsafeBufferPointer<UInt8>, _ word: [UInt8]) -> Bool {
        raw.count == word.count && zip(raw, word).allSatisfy { upper($0) == $1 }
    }

    /// Lower case, accents and other marks dropped ("Zürich" → "zurich"): ASCII and the Latin
    /// letters (U+00C0–U+024F) by table, other scripts through Foundation (a row in fifty).
    package static func fold(_ text: String) -> String { String(decoding: fold(Array(text.utf8)), as: UTF8.self) }

    static func fold(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte < 0x80 {
                out.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
                i += 1
            } else if byte >= 0xC3 && byte <= 0xC9, i + 1 < bytes.count, bytes[i + 1] & 0xC0 == 0x80 {
                let scalar = Int(byte & 0x1F) << 6 | Int(bytes[i + 1] & 0x3F)
                guard scalar >= 0xC0 && scalar <= 0x24F else { return foundationFold(bytes) }
                out.append(contentsOf: latin[scalar - 0xC0])
                i += 2
            } else {
                return foundationFold(bytes)
            }
        }
        return out
    }

    /// Each Latin letter of U+00C0–U+024F as Foundation folds it, worked out once.
    static let latin: [[UInt8]] = (0xC0...0x24F).map { v in Unicode.Scalar(UInt32(v)).map { Array(foundationFold(Array(String($0).utf8))) } ?? [] }

    static func foundationFold(_ bytes: [UInt8]) -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        return Array(text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).lowercased().utf8)
    }
}
