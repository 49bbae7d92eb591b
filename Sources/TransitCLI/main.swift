import Foundation
import TransitCore
#if canImport(Glibc)
import Glibc
#endif

// Ctrl-C: end at once with 130, also mid-request or mid-watch; clear a spinner line first.
signal(SIGINT) { _ in
    if isatty(2) != 0 {
        let clear: [UInt8] = [13, 27, 91, 75]  // "\r\e[K"
        _ = clear.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count) }
    }
    _exit(130)
}

let app = App(terminal: Terminal(stdout: isatty(1) != 0, stderr: isatty(2) != 0),
              writeOut: { FileHandle.standardOutput.write(Data($0.utf8)) },
              writeErr: { FileHandle.standardError.write(Data($0.utf8)) })
let status = await app.run(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
exit(status)
