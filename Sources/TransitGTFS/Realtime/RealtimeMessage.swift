import Foundation
import TransitSupport

/// One GTFS-Realtime message as a query reads it: where it came from, and the clock it is read
/// at (rule 6: a recording at its own time, a live source at now).
package struct RealtimeMessage {
    package var source: String
    package var message: FeedMessage
    package var now: Int
    /// Over several feeds, the feed whose ids it names ("" for one feed).
    package var feed = ""

    package init(source: String, message: FeedMessage, now: Int, feed: String = "") {
        self.source = source
        self.message = message
        self.now = now
        self.feed = feed
    }
}
