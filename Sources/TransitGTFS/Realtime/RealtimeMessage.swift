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
    /// A recording (a file), read at its own header time: `now` is that time.
    package var isRecording = false

    package init(source: String, message: FeedMessage, now: Int, feed: String = "", isRecording: Bool = false) {
        self.source = source
        self.message = message
        self.now = now
        self.feed = feed
        self.isRecording = isRecording
    }
}
