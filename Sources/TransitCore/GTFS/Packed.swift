import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A read-only array of plain values, either owned or lying in a mapped file: the big arrays of
/// a compiled timetable are used where the file is, without copying them at load. Reading
/// outside the bounds gives zero rather than a trap (every index is checked at load anyway).
struct Packed<Element: FixedWidthInteger & BitwiseCopyable & Sendable>: RandomAccessCollection, Equatable, @unchecked Sendable {
    private let owner: AnyObject?
    private let base: UnsafePointer<Element>?
    let count: Int

    init(_ array: [Element] = []) {
        let box = Box(array)
        owner = box
        base = box.pointer
        count = array.count
    }

    /// `count` values at `pointer`, kept alive by `owner`.
    init(_ pointer: UnsafePointer<Element>, count: Int, owner: AnyObject) {
        self.owner = owner
        base = pointer
        self.count = count
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(i: Int) -> Element {
        guard let base, i >= 0, i < count else { return 0 }
        return base[i]
    }

    /// The values, for hot loops; valid while this value (or a copy) lives. Every index the
    /// router reads through it was checked when the timetable was loaded.
    var buffer: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        body(UnsafeRawBufferPointer(start: base.map(UnsafeRawPointer.init), count: count * MemoryLayout<Element>.stride))
    }

    static func == (a: Packed, b: Packed) -> Bool { a.elementsEqual(b) }

    /// Owned values at a stable address.
    final class Box {
        let pointer: UnsafePointer<Element>?
        private let storage: UnsafeMutablePointer<Element>?

        init(_ array: [Element]) {
            guard !array.isEmpty else { storage = nil; pointer = nil; return }
            let memory = UnsafeMutablePointer<Element>.allocate(capacity: array.count)
            array.withUnsafeBufferPointer { if let source = $0.baseAddress { memory.initialize(from: source, count: array.count) } }
            storage = memory
            pointer = UnsafePointer(memory)
        }

        deinit { storage?.deallocate() }
    }
}

/// A file mapped read-only; unmapped when released.
final class MappedFile: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer

    init(_ path: String) throws(TransitError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .parse(what: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .parse(what: path, reason: String(cString: strerror(errno))) }
        let size = Int(info.st_size)
        guard size > 0 else { bytes = UnsafeRawBufferPointer(start: nil, count: 0); return }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else {
            throw .parse(what: path, reason: "cannot map it: \(String(cString: strerror(errno)))")
        }
        bytes = UnsafeRawBufferPointer(start: address, count: size)
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }
}
