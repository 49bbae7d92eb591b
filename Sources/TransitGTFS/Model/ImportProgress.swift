/// How far a long piece of the engine's work is, for a progress line on a terminal: reported
/// often (each compile step, every 64 Ki rows of stop_times, every blob of a map) and cheap to
/// make; the command line decides how it reads and draws it at most ten times a second.
package enum ImportProgress: Sendable, Equatable {
    /// A step of compiling a feed begins: its name, `index` (from 0) of `steps`.
    case step(String, index: Int, steps: Int)
    /// stop_times.txt: the rows read so far, and how much of the file that is (0 to 1) where its
    /// size is known.
    case rows(Int, fraction: Double?)
    /// A map: the bytes of its blobs read so far, of its size.
    case map(read: Int, of: Int)
}

package typealias ProgressReport = @Sendable (ImportProgress) -> Void
