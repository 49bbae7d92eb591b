import TransitSupport
/// What a journey search assumes where its asker says nothing, each written once: the command
/// line's help and parsing, the library's `GTFSFeed.TripQuery`, the router's query and the links
/// compiled into a combination all read them here.
public enum SearchDefaults {
    /// Changes at most.
    public static let transfers = 2
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
}
