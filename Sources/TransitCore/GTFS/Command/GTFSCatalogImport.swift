import Foundation
import TransitSupport
import TransitGTFS

/// `transit gtfs import mdb-53`: a feed of the Mobility Database catalog, downloaded from its
/// own URL (the catalog's copy, `urls.latest`, when that fails), named after its provider, with
/// the real-time feeds that name it remembered as its sources and its licence kept.
struct CatalogImport {
    let command: GTFSImportCommand

    init(_ command: GTFSImportCommand) { self.command = command }

    /// `mdb-53`, `tld-1234`: a catalog's id (a source's 2 to 5 letters, a dash, then a number
    /// or a code with a digit), and no file of that name here. A mistyped path (`bart-feed`)
    /// stays a path, and its error says so.
    static func isID(_ text: String) -> Bool {
        guard let dash = text.firstIndex(of: "-"), (2...5).contains(text.distance(from: text.startIndex, to: dash)),
              text[..<dash].allSatisfy({ $0.isASCII && $0.isLowercase }) else { return false }
        let rest = text[text.index(after: dash)...]
        guard rest.contains(where: { $0.isASCII && $0.isNumber }),
              rest.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else { return false }
        return !FileManager.default.fileExists(atPath: text)
    }

    func run(_ gtfs: GTFSContext) async throws(TransitError) -> Output {
        let (catalog, cacheNotices) = try await CatalogCache(gtfs).current()
        var notices = cacheNotices
        var feed = try GTFSCatalogCommand.feed(command.source, in: catalog)
        if feed.isRealtime {
            let statics = feed.staticReference.joined(separator: ", ")
            throw .usage("\(feed.id) is a GTFS-Realtime feed\(statics.isEmpty ? "" : " of \(statics)"); import a GTFS feed, whose real-time feeds come with it",
                         hint: feed.staticReference.first.map { "transit gtfs import \($0)" })
        }
        if feed.status == "deprecated" {
            if let target = catalog.feed(feed.redirectID), !target.isRealtime {
                let comment = feed.redirectComment.trimmedSpace(newlines: false)
                notices.append("\(feed.id) is deprecated: importing \(target.id), which replaces it\(comment.isEmpty ? "" : " (\(comment))")")
                feed = target
            } else {
                notices.append("\(feed.id) is deprecated and names no feed that replaces it: importing it as it is")
            }
        }
        if feed.status == "inactive" { notices.append("\(feed.id) is inactive: its provider no longer updates it") }
        let name = command.name ?? Self.name(feed.provider)
        if name == "all" { throw GTFSImportCommand.allIsReserved }

        // Its real-time feeds, unless --realtime names others.
        var realtime = command.typedRealtime(keeping: gtfs)
        if command.realtime.isEmpty {
            let variable = command.realtimeKey ?? RealtimeKeys.variable(forFeed: name)
            let found = Self.realtimeSources(catalog.realtime(of: feed.id).filter(\.isCurrent), variable: variable, environment: gtfs.settings.environment)
            realtime = FeedStore.RealtimeSources(sources: found.urls, headers: found.headers, keys: command.realtimeKey.map { [$0] } ?? [])
            notices += found.notices
        }

        var urls: [String] = []
        for url in [feed.directDownload, feed.latest] where HTTPRequest.isURL(url) && !urls.contains(url) { urls.append(url) }
        guard !urls.isEmpty else { throw .refused("\(feed.id) has no download URL in the catalog", hint: nil) }
        var output: Output?
        for (k, url) in urls.enumerated() {
            do {
                output = try await GTFSImportCommand.install(gtfs, url, name: name, ifChangedSince: nil, realtime: realtime, streets: command.streets,
                                                             catalog: FeedStore.CatalogEntry(id: feed.id, license: feed.license.isEmpty ? nil : feed.license))
                break
            } catch {
                // A download or a feed that fails: the catalog's own copy next. A usage error
                // (a map that does not fit) would fail there too.
                guard k + 1 < urls.count, error.exitStatus == 1 else { throw error }
                notices.append("\(feed.id): \(error.message); trying the catalog's copy")
            }
        }
        guard var output else { throw .refused("\(feed.id) could not be imported", hint: nil) }
        output.notices = notices + output.notices
        return output
    }

    /// A feed's name from its provider: `Bay Area Rapid Transit (BART)` → `bart` when the
    /// provider gives a short name in parentheses, else its words joined by `-`, lower case,
    /// accents folded, at most 40 characters.
    static func name(_ provider: String) -> String {
        let folded = FeedCatalog.fold(provider)
        func words(_ text: Substring) -> [String] { text.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }.map(String.init) }
        var found: [String] = []
        if let open = folded.lastIndex(of: "("), let close = folded.lastIndex(of: ")"), open < close {
            found = words(folded[folded.index(after: open)..<close])
        }
        if found.isEmpty || found.joined().count > 20 { found = words(folded[...]) }
        var name = ""
        for word in found where name.count + word.count < 40 { name += (name.isEmpty ? "" : "-") + word }
        return FeedStore.validName(name) && name != "all" ? name : "feed"
    }

    /// The real-time feeds' URLs, and the headers they need: a key in the query as
    /// `param=$VARIABLE`, in a header as `Name: $VARIABLE` (the variable the user chose, never
    /// one the row names: `RealtimeKeys`); notices for keys not set and for keys got some other way.
    static func realtimeSources(_ feeds: [CatalogFeed], variable: String, environment: RunEnvironment) -> (urls: [String], headers: [String], notices: [String]) {
        var urls: [String] = [], headers: [String] = [], notices: [String] = []
        for feed in feeds where HTTPRequest.isURL(feed.directDownload) {
            let where_ = feed.authenticationInfo.isEmpty ? "" : " (a key from \(feed.authenticationInfo))"
            // A row's URL and names are the row's text, not the user's: a `$` there would read the
            // environment, and a name that is not a token would break the request.
            let token = feed.apiKeyParameterName.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
            guard RealtimeKeys.references(in: feed.directDownload).isEmpty, token else {
                notices.append("\(feed.id): the catalog names its URL or key parameter with characters transit does not send; not remembered (give it with --realtime)")
                continue
            }
            switch feed.authenticationType ?? 0 {
            case 1:
                let parameter = feed.apiKeyParameterName.isEmpty ? "api_key" : feed.apiKeyParameterName
                urls.append(feed.directDownload + (feed.directDownload.contains("?") ? "&" : "?") + "\(parameter)=$\(variable)")
                if environment[variable] == nil { notices.append("\(feed.id) needs a key: set \(variable)\(where_)") }
            case 2:
                let header = feed.apiKeyParameterName.isEmpty ? "Authorization" : feed.apiKeyParameterName
                urls.append(feed.directDownload)
                if !headers.contains(where: { $0.hasPrefix(header + ":") }) { headers.append("\(header): $\(variable)") }
                if environment[variable] == nil { notices.append("\(feed.id) needs a key in the header \(header): set \(variable)\(where_)") }
            case 0:
                urls.append(feed.directDownload)
            default:
                notices.append("\(feed.id) (\(feed.entityTypes.joined(separator: ","))) needs access arranged with its provider\(where_); not remembered (give it with --realtime)")
            }
        }
        return (urls, headers, notices)
    }
}
