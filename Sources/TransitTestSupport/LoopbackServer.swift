import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1 over POSIX sockets, for tests and the benchmark.
/// Every connection gets its own thread and `Connection: close`, so delays and hangs overlap
/// like a real server's. It records every request, and answers what the handler says,
/// including the faults a real network produces.
public final class LoopbackServer: @unchecked Sendable {
    public struct Request: Sendable {
        public var method: String
        /// The path without the query, percent-decoded: `/api/stn.aspx`.
        public var path: String
        /// Query items in order, percent-decoded (`+` stays `+`).
        public var query: [(name: String, value: String)]
        /// Header names lower-cased.
        public var headers: [String: String]
        public var target: String

        public func value(_ name: String) -> String? { query.first { $0.name == name }?.value }
    }

    public enum Behavior: Sendable {
        /// A complete answer, after `delay` seconds.
        case respond(status: Int, headers: [String: String], body: Data, delay: TimeInterval)
        /// Read the request and never answer (until the server stops).
        case hang
        /// Announce the whole body in Content-Length, send only `bytes` of it, then close.
        case truncate(status: Int, body: Data, bytes: Int)
        /// Send these bytes instead of HTTP, then close.
        case garbage(Data)
        /// Close the connection without a byte.
        case close
        /// Headers without a length, then `chunk` again and again (as fast as the client reads,
        /// or every `every` seconds), until it hangs up or the server stops.
        case endless(status: Int, headers: [String: String], chunk: Data, every: TimeInterval = 0)
        /// A redirect to `location` (absolute, or a path on this server).
        case redirect(status: Int, location: String)
        /// The whole body announced in Content-Length, then sent at `bytesPerSecond` (a tenth of
        /// a second's bytes at a time), until it is sent, the client hangs up or the server stops.
        case slow(status: Int, headers: [String: String], body: Data, bytesPerSecond: Int)

        public static func ok(_ body: String, type: String = "text/xml; charset=utf-8", delay: TimeInterval = 0) -> Behavior {
            .respond(status: 200, headers: ["Content-Type": type], body: Data(body.utf8), delay: delay)
        }

        public static func status(_ code: Int, _ body: String = "", headers: [String: String] = [:]) -> Behavior {
            .respond(status: code, headers: headers, body: Data(body.utf8), delay: 0)
        }
    }

    public let port: Int
    /// Added before every answer: the benchmark's simulated round-trip time.
    public let extraDelay: TimeInterval
    private let handler: @Sendable (Request) -> Behavior
    private let listener: Int32
    private let lock = NSLock()
    private var seen: [Request] = []
    private var hungUp: [TimeInterval] = []
    private var open: Set<Int32> = []
    private var stopped = false

    /// The loopback address listened on.
    public let host: String

    /// Starts listening on an ephemeral port of `host` (any address of 127.0.0.0/8 is this
    /// machine on Linux: a second one stands for "another host").
    public init(host: String = "127.0.0.1", extraDelay: TimeInterval = 0, handler: @escaping @Sendable (Request) -> Behavior) throws {
        self.handler = handler
        self.extraDelay = extraDelay
        self.host = host
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError.socket(errno) }
        // No SO_REUSEADDR: port 0 then never hands out a port still in TIME_WAIT from an earlier
        // test's server, which a client could otherwise mistake for the old one.
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr(host)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            close(fd)
            throw ServerError.socket(errno)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: actual.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    public enum ServerError: Error { case socket(Int32) }

    /// `http://127.0.0.1:PORT`
    public var baseURL: String { "http://\(host):\(port)" }

    /// Every request received so far, in arrival order.
    public var requests: [Request] { lock.withLock { seen } }

    /// For each `.hang` whose client gave up, the seconds from the request's arrival to the
    /// client closing the connection, measured on the thread serving it. This is what a test of
    /// a client's deadline reads: it is the deadline, whatever the test's own task waited for a
    /// thread to resume on a busy machine.
    public var hangUps: [TimeInterval] { lock.withLock { hungUp } }

    /// Stops accepting and closes every open connection (hung ones included).
    /// Connections are only shut down here; each is closed by the thread serving it, so that
    /// no thread ever writes to a descriptor number the system has already handed to another
    /// file or socket.
    public func stop() {
        let fds: [Int32]? = lock.withLock {
            guard !stopped else { return nil }
            stopped = true
            return Array(open)
        }
        guard let fds else { return }  // stopped already: the listener may be closed and its number reused
        for fd in fds { shutdown(fd, Int32(SHUT_RDWR)) }
        shutdown(listener, Int32(SHUT_RDWR))  // ends accept(); the accepting thread closes it
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    private func acceptLoop() {
        defer { close(listener) }
        while !isStopped {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            if isStopped {
                close(client)
                return
            }
            var one: Int32 = 1
            setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            lock.withLock { _ = open.insert(client) }
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
    }

    private func serve(_ fd: Int32) {
        defer {
            lock.withLock { _ = open.remove(fd) }
            close(fd)
        }
        guard let request = readRequest(fd) else { return }
        lock.withLock { seen.append(request) }
        let behavior = handler(request)
        if extraDelay > 0 { Thread.sleep(forTimeInterval: extraDelay) }
        switch behavior {
        case .respond(let status, let headers, let body, let delay):
            if delay > 0 { Thread.sleep(forTimeInterval: delay) }
            send(fd, head(status: status, headers: headers, length: body.count) + body)
        case .hang:
            let arrived = DispatchTime.now().uptimeNanoseconds
            while !isStopped {
                // The client's hang-up reads as the end of the stream.
                var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&entry, 1, 20) > 0 else { continue }
                var byte: UInt8 = 0
                if recv(fd, &byte, 1, Int32(MSG_DONTWAIT)) <= 0 {
                    let seconds = Double(DispatchTime.now().uptimeNanoseconds - arrived) / 1e9
                    lock.withLock { hungUp.append(seconds) }
                    break
                }
            }
        case .truncate(let status, let body, let bytes):
            send(fd, head(status: status, headers: ["Content-Type": "text/xml"], length: body.count) + body.prefix(bytes))
            // Drop the line a moment later, as a real network does. Closing in the same instant
            // as the last write sometimes leaves Linux URLSession waiting for bytes that never
            // come (about 1 run in 20 here); the client's deadline still ends that wait.
            Thread.sleep(forTimeInterval: 0.05)
            shutdown(fd, Int32(SHUT_RDWR))
        case .garbage(let bytes):
            send(fd, bytes)
            shutdown(fd, Int32(SHUT_RDWR))
        case .close:
            shutdown(fd, Int32(SHUT_RDWR))
        case .endless(let status, let headers, let chunk, let every):
            var text = "HTTP/1.1 \(status) OK\r\n"
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
            guard send(fd, Data((text + "Connection: close\r\n\r\n").utf8)) else { return }
            while !isStopped && send(fd, chunk) {
                if every > 0 { Thread.sleep(forTimeInterval: every) }
            }
            shutdown(fd, Int32(SHUT_RDWR))
        case .redirect(let status, let location):
            send(fd, head(status: status, headers: ["Location": location], length: 0))
        case .slow(let status, let headers, let body, let bytesPerSecond):
            guard send(fd, head(status: status, headers: headers, length: body.count)) else { return }
            let step = max(1, bytesPerSecond / 10)
            var offset = 0
            while !isStopped && offset < body.count && send(fd, body.subdata(in: offset..<min(body.count, offset + step))) {
                offset += step
                Thread.sleep(forTimeInterval: 0.1)
            }
            shutdown(fd, Int32(SHUT_RDWR))
        }
    }

    private func head(status: Int, headers: [String: String], length: Int) -> Data {
        var text = "HTTP/1.1 \(status) \(status < 400 ? "OK" : "Error")\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        text += "Content-Length: \(length)\r\nConnection: close\r\n\r\n"
        return Data(text.utf8)
    }

    /// Whether every byte went out.
    @discardableResult
    private func send(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return true }
            var sent = 0
            while sent < raw.count {
                let n = Glibc.send(fd, base + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                if n <= 0 { return false }
                sent += n
            }
            return true
        }
    }

    private func readRequest(_ fd: Int32) -> Request? {
        var buffer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        let end: [UInt8] = [13, 10, 13, 10]
        while buffer.count < 65536 {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { return nil }
            buffer += chunk[0..<n]
            if buffer.count >= 4, let _ = find(end, in: buffer) { break }
        }
        let text = String(decoding: buffer, as: UTF8.self)
        let lines = text.components(separatedBy: "\r\n")
        let first = lines.first?.split(separator: " ") ?? []
        guard first.count >= 2 else { return nil }
        let target = String(first[1])
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0]).removingPercentEncoding ?? String(parts[0])
        var query: [(String, String)] = []
        if parts.count > 1 {
            for item in parts[1].split(separator: "&") {
                let kv = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(kv[0]).removingPercentEncoding ?? String(kv[0])
                let value = kv.count > 1 ? (String(kv[1]).removingPercentEncoding ?? String(kv[1])) : ""
                query.append((name, value))
            }
        }
        return Request(method: String(first[0]), path: path, query: query.map { (name: $0.0, value: $0.1) },
                       headers: headers, target: target)
    }

    private func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where haystack[i] == needle[0] {
            if Array(haystack[i..<(i + needle.count)]) == needle { return i }
        }
        return nil
    }
}
