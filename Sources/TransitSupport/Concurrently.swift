/// Runs `body` for every item at once and returns the results in the items' order: one network
/// round for many requests. The first error wins.
package func concurrently<T: Sendable, R: Sendable>(_ items: [T], _ body: @escaping @Sendable (T) async throws(TransitError) -> R) async throws(TransitError) -> [R] {
    do {
        return try await withThrowingTaskGroup(of: (Int, R).self) { group in
            for (index, item) in items.enumerated() {
                group.addTask { (index, try await body(item)) }
            }
            var results = [R?](repeating: nil, count: items.count)
            for try await (index, result) in group { results[index] = result }
            return results.compactMap { $0 }
        }
    } catch let error as TransitError {
        throw error
    } catch {
        throw .network(url: "", reason: String(describing: error))
    }
}
