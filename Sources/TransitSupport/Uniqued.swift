extension Sequence {
    /// The elements in order, each key kept the first time it appears.
    public func uniqued<Key: Hashable>(by key: (Element) -> Key) -> [Element] {
        var seen = Set<Key>()
        return filter { seen.insert(key($0)).inserted }
    }
}

extension Sequence where Element: Hashable {
    /// The elements in order, repeats dropped.
    public func uniqued() -> [Element] { uniqued { $0 } }
}
