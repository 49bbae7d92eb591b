import Foundation
import TransitSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Values a `Packed` array can hold: plain bits, with a zero to answer out-of-range reads.
package protocol PackedElement: BitwiseCopyable, Sendable, Equatable {
    static var zero: Self { get }
}

extension Int32: PackedElement {}
extension Int64: PackedElement {}
extension UInt8: PackedElement {}
extension UInt64: PackedElement {}
extension Double: PackedElement { package static var zero: Double { 0 } }

/// An array of plain values, either owned (and growable, while a timetable is compiled) or
/// lying in a mapped file: a compiled timetable's arrays are used where the file is, without
/// copying them at load. Reading outside the bounds gives zero rather than a trap (every index
/// the router follows is checked at load anyway).
package struct Packed<Element: PackedElement>: RandomAccessCollection, Equatable, @unchecked Sendable {
    /// Keeps mapped memory alive; nil when the values are owned.
    private var mapping: AnyObject?
    private var owned: Buffer?
    private var base: UnsafePointer<Element>?
    package private(set) var count: Int

    package init() {
        count = 0
    }

    package init(_ values: [Element]) {
        count = 0
        values.withUnsafeBufferPointer { append(contentsOf: $0) }
    }

    /// `count` values at `pointer`, kept alive by `owner`.
    package init(_ pointer: UnsafePointer<Element>, count: Int, owner: AnyObject) {
        mapping = owner
        base = pointer
        self.count = count
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { count }

    package subscript(i: Int) -> Element {
        guard let base, i >= 0, i < count else { return .zero }
        return base[i]
    }

    /// The values, for hot loops; valid while this value (or a copy) lives.
    package var buffer: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    package func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) -> R) -> R { body(buffer) }

    package func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        body(UnsafeRawBufferPointer(start: base.map(UnsafeRawPointer.init), count: count * MemoryLayout<Element>.stride))
    }

    package static func == (a: Packed, b: Packed) -> Bool { a.elementsEqual(b) }

    package mutating func append(_ value: Element) {
        reserve(count + 1)
        owned?.pointer[count] = value
        count += 1
    }

    package mutating func append(contentsOf values: UnsafeBufferPointer<Element>) {
        guard let source = values.baseAddress, !values.isEmpty else { return }
        reserve(count + values.count)
        (owned?.pointer).map { ($0 + count).initialize(from: source, count: values.count) }
        count += values.count
    }

    package mutating func reserveCapacity(_ capacity: Int) { reserve(capacity) }

    /// Room for `needed` values in a buffer of our own (copying mapped or shared values first).
    private mutating func reserve(_ needed: Int) {
        if isKnownUniquelyReferenced(&owned), (owned?.capacity ?? 0) >= needed { return }
        let buffer = Buffer(capacity: Swift.max(needed, count * 2, 16))
        if let base, count > 0 { buffer.pointer.initialize(from: base, count: count) }
        owned = buffer
        mapping = nil
        base = UnsafePointer(buffer.pointer)
    }

    /// Values of our own, at a stable address.
    package final class Buffer {
        package let pointer: UnsafeMutablePointer<Element>
        package let capacity: Int

        package init(capacity: Int) {
            self.capacity = capacity
            pointer = .allocate(capacity: capacity)
        }

        deinit { pointer.deallocate() }
    }
}
