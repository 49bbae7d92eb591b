import Foundation
import TransitSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes that arrive in chunks: a file, a zip entry. Readers never hold a whole file.
package protocol ByteSource {
    /// Fills `buffer` from the start; 0 means the end.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(TransitError) -> Int
    /// How many bytes it holds in all, where that is known before reading (for progress).
    var size: Int? { get }
}

extension ByteSource {
    package var size: Int? { nil }
}

/// A file opened for reading, read with `pread` at any offset; closed when released.
package final class ReadOnlyFile {
    package let path: String
    package let descriptor: Int32
    package let size: Int

    package init(_ path: String) throws(TransitError) {
        self.path = path
        // O_NONBLOCK: a FIFO opens at once (to be refused below) instead of waiting for a writer.
        descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw .usage("cannot open \(path): \(String(cString: strerror(errno)))") }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            close(descriptor)
            throw .usage("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw .usage("\(path) is not a regular file (a pipe or a device cannot be read twice; save it to a file first)")
        }
        size = Int(info.st_size)
    }

    deinit { close(descriptor) }

    /// Reads up to `buffer.count` bytes at `offset`, retrying on EINTR.
    package func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws(TransitError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let n = pread(descriptor, base, buffer.count, off_t(offset))
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw .parse(what: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Exactly `count` bytes at `offset`, or an error naming what was being read.
    package func bytes(at offset: Int, count: Int, what: String) throws(TransitError) -> [UInt8] {
        guard offset >= 0, count >= 0, count <= size, offset <= size - count else {
            throw .parse(what: path, reason: "\(what) lies past the end of the file")
        }
        var out = [UInt8](repeating: 0, count: count)
        var done = 0
        var failure: TransitError?
        out.withUnsafeMutableBytes { raw in
            while done < count {
                do throws(TransitError) {
                    let n = try read(at: offset + done, into: UnsafeMutableRawBufferPointer(rebasing: raw[done...]))
                    guard n > 0 else { failure = .parse(what: path, reason: "\(what) is cut short"); return }
                    done += n
                } catch {
                    failure = error
                    return
                }
            }
        }
        if let failure { throw failure }
        return out
    }
}

/// A plain file, front to back.
package struct FileSource: ByteSource {
    package let file: ReadOnlyFile
    package var offset = 0

    package init(_ path: String) throws(TransitError) {
        file = try ReadOnlyFile(path)
    }

    package var size: Int? { file.size }

    package mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(TransitError) -> Int {
        let n = try file.read(at: offset, into: buffer)
        offset += n
        return n
    }
}

/// A file mapped read-only; unmapped when released.
package final class MappedFile: @unchecked Sendable {
    package let bytes: UnsafeRawBufferPointer
    /// What the file system says of the file mapped (from the descriptor mapped, so a file
    /// renamed over the path meanwhile cannot lend its identity).
    package let identity: FileIdentity

    package init(_ path: String) throws(TransitError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .parse(what: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .parse(what: path, reason: String(cString: strerror(errno))) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .parse(what: path, reason: "not a regular file") }
        let size = Int(info.st_size)
        identity = FileIdentity(info)
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

/// A file as its file system knows it: device, inode, size and the times of its last change.
/// The change time (ctime) is set by the kernel on every write, rename or change of
/// attributes and cannot be set back by a program; with the inode it says "the same bytes".
package struct FileIdentity: Equatable, Sendable {
    package var device: UInt64, inode: UInt64, size: Int64
    package var modified: Int64, changed: Int64  // nanoseconds since 1970

    package init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64) {
        (self.device, self.inode, self.size, self.modified, self.changed) = (device, inode, size, modified, changed)
    }

    init(_ info: stat) {
        #if canImport(Darwin)
        let (m, c) = (info.st_mtimespec, info.st_ctimespec)
        #else
        let (m, c) = (info.st_mtim, info.st_ctim)
        #endif
        self.init(device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino), size: Int64(info.st_size),
                  modified: Int64(m.tv_sec) &* 1_000_000_000 &+ Int64(m.tv_nsec), changed: Int64(c.tv_sec) &* 1_000_000_000 &+ Int64(c.tv_nsec))
    }
}
