/// Which OpenStreetMap ways a walk may follow: OSMnx's "walk" network, the rule
/// ../shared/reference/osm/README.md counts with. A way is walkable when it has a `highway` tag
/// and none of `area=yes`, `access=private`, `foot=no`, `service=private`, and its `highway`
/// value does not contain any of `excludedHighways` (OSMnx writes them as one regular-expression
/// search, so `motorway` and `motorway_link` are out through `motor`). Walking ignores `oneway`.
/// Where a real map differs (steps, ferries, areas): docs/gtfs.md.
package enum Walkable {
    package static let excludedHighways = ["abandoned", "bus_guideway", "construction", "cycleway", "motor", "no", "planned", "platform",
                                           "proposed", "raceway", "razed"]

    package static func way(_ tags: PBFReader.WayTags) -> Bool {
        guard let highway = tags.highway else { return false }
        if tags.area == "yes" || tags.access == "private" || tags.foot == "no" || tags.service == "private" { return false }
        let value = Array(highway.utf8)
        return !excludedBytes.contains { contains(value, $0) }
    }

    // Byte by byte: Foundation's `String.contains` bridges to NSString on Linux (most of a map's
    // reading time went there).
    static let excludedBytes = excludedHighways.map { Array($0.utf8) }

    static func contains(_ text: [UInt8], _ part: [UInt8]) -> Bool {
        guard part.count <= text.count else { return false }
        for start in 0...(text.count - part.count) where text[start] == part[0] {
            if text[start..<(start + part.count)].elementsEqual(part) { return true }
        }
        return false
    }
}
