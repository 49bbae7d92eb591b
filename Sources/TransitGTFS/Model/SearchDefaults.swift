import TransitSupport
/// What a journey search assumes where its asker says nothing, each written once: the command
/// line's help and parsing, the library's `JourneyQuery`, the router's query and the links
/// compiled into a combination all read them here.
public enum SearchDefaults {
    /// Changes at most.
    public static let transfers = 2
    /// The most changes a query may ask for: 7, as nigiri and MOTIS allow (a random pair of stops
    /// across a country takes a bus, regional rail, two or three intercity lines, regional rail and
    /// a bus: half the generated national network's pairs need 6 or 7).
    public static let maxTransfers = 7
    /// Seconds a change needs where transfers.txt says nothing.
    public static let minTransferSeconds = 120
    /// Meters within which stops of different feeds are linked by a walk; links this long are
    /// found once, when a combination is compiled.
    public static let linkMeters = 300.0
    /// Meters within which a change may be made on foot between stops of one feed (`--walk`; 0
    /// turns it off): walks this long are found once, when the feed is compiled.
    public static let walkMeters = 300.0
    /// Meters around an end given as `LAT,LON`: every stop this close is reached on foot.
    public static let radiusMeters = 1000.0
    /// Meters a second on foot, for every walk (links, changes, a point's stops).
    public static let walkingSpeed = 1.2
    /// On a map, a point's stops are those within the radius in a straight line (the same as
    /// without one), each walked on the streets as long as the walk is at most this many times
    /// the radius: a street grid's detour is 1.2–1.6 times the straight line, a river or a
    /// motorway between a point and a stop is more.
    public static let streetDetour = 2.0
}
