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
        return !excludedHighways.contains { highway.contains($0) }
    }
}
