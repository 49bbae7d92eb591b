/// Which OpenStreetMap ways a walk may follow: walk rule 2 of ../shared/reference/osm/README.md
/// (2026-11-27), which replaced OSMnx's "walk" filter (rule 1: platforms and pedestrian areas
/// were not walkable, and a real city's answers got worse than straight lines).
///
/// A way is walkable when it has a `highway` tag or is a platform (`highway=platform`,
/// `railway=platform` or `public_transport=platform`), is not `foot=no`, and
/// - unless `foot` is `yes`, `designated` or `permissive` (which makes any such way walkable): is
///   not `access=private|no` nor `service=private`, and, platforms aside, its `highway` value
///   matches none of `excludedHighways` (a regular-expression search, as OSMnx writes it:
///   `motorway` and `motorway_link` are out through `motor`, `trunk` is in);
/// - with `area=yes`, only as a pedestrian area (`highway` one of `areaHighways`) or a platform,
///   whatever `foot` says.
/// Walking ignores `oneway`. Where a real map differs (barriers, ferries): docs/gtfs.md.
package enum Walkable {
    package static let excludedHighways = ["abandoned", "bus_guideway", "construction", "cycleway", "motor", "no", "planned",
                                           "proposed", "raceway", "razed"]
    /// The `highway` values an `area=yes` way may have and still be walked (and crossed).
    package static let areaHighways: Set<String> = ["pedestrian", "footway", "platform", "path", "living_street"]

    /// Is the way a platform, by any of the three tags that say so?
    package static func isPlatform(_ tags: PBFReader.WayTags) -> Bool {
        tags.highway == "platform" || tags.railway == "platform" || tags.publicTransport == "platform"
    }

    /// Who walks: anyone (the foot profile), or a rider who needs a way without steps.
    package enum Profile: Sendable {
        case foot
        /// The foot profile without `highway=steps` and without ways tagged `wheelchair=no`.
        case stepFree
    }

    /// Is the way walkable by rule 2 for `profile`?
    package static func way(_ tags: PBFReader.WayTags, _ profile: Profile) -> Bool {
        switch profile {
        case .foot: way(tags)
        case .stepFree: way(tags) && tags.highway != "steps" && tags.wheelchair != "no"
        }
    }

    /// Is the way walkable by rule 2 (the foot profile)?
    package static func way(_ tags: PBFReader.WayTags) -> Bool {
        let platform = isPlatform(tags)
        guard tags.highway != nil || platform, tags.foot != "no" else { return false }
        if tags.area == "yes" && !platform && !areaHighways.contains(tags.highway ?? "") { return false }
        if tags.foot == "yes" || tags.foot == "designated" || tags.foot == "permissive" { return true }
        if tags.access == "private" || tags.access == "no" || tags.service == "private" { return false }
        guard !platform, let highway = tags.highway else { return true }
        let value = Array(highway.utf8)
        return !excludedBytes.contains { contains(value, $0) }
    }

    /// Is the way crossed straight between its gates when it is closed: a pedestrian area or a
    /// platform (rule 2's "such a way, and any platform way")?
    package static func isArea(_ tags: PBFReader.WayTags) -> Bool {
        isPlatform(tags) || (tags.area == "yes" && areaHighways.contains(tags.highway ?? ""))
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
