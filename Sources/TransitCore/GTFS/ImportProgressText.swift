import TransitGTFS

extension ProgressBar {
    /// How far compiling a feed or reading a map is, in words for the progress line.
    package static func text(_ progress: ImportProgress) -> String {
        switch progress {
        case .step(let name, let index, let steps): return "\(name) (step \(index + 1) of \(steps))"
        case .rows(let rows, let fraction):
            let count = rows >= 1_000_000 ? String(format: "%.1f M", Double(rows) / 1e6) : "\(rows / 1000) k"
            return "stop times " + (fraction.map { bar($0) + " " } ?? "") + count + " rows"
        case .map(let read, let size): return "the map " + text(Int64(read), of: Int64(size))
        }
    }
}
