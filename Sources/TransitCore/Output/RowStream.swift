import TransitSupport

/// Rows made while they are written (a matrix's, a million of them): the renderer asks for
/// them once, and each is written and let go before the next comes, so memory does not grow
/// with the output. tsv, csv and JSON stream; a table (a terminal's) gathers them first.
package final class RowStream: @unchecked Sendable {
    package let keys: [String]
    /// false: tsv and csv are written without a header row whatever the format's default (a
    /// matrix's later shards, which are concatenated after the first).
    package let header: Bool
    private let produce: (([Value]) -> Void) -> Void

    /// `produce` hands each row (values in `keys`' order) to the function it is given, in order.
    package init(keys: [String], header: Bool = true, produce: @escaping (([Value]) -> Void) -> Void) {
        (self.keys, self.header) = (keys, header)
        self.produce = produce
    }

    package func rows(_ each: ([Value]) -> Void) { withoutActuallyEscaping(each) { produce($0) } }
}

extension Output {
    /// An output whose rows `stream` makes as they are written.
    package static func streamed(_ stream: RowStream, notices: [String] = []) -> Output {
        var output = Output.empty(notices)
        let gathered = Deferred<Grid> {
            var grid = Grid(headers: stream.keys)
            stream.rows { grid.rows.append($0) }
            return grid
        }
        output.rowStream = stream
        output.setGathered(gathered)
        return output
    }
}

extension Renderer {
    /// tsv or csv rows of a stream, each written as it comes.
    func delimited(_ stream: RowStream, separator: String, header: Bool, to sink: (UnsafeRawBufferPointer) -> Void) {
        let csv = separator == ","
        let comma = UInt8(ascii: csv ? "," : "\t"), end = Array((csv ? "\r\n" : "\n").utf8)
        var out: [UInt8] = [], offsets = ZoneOffsets()
        out.reserveCapacity(Self.piece + (1 << 16))
        if header && stream.header && !stream.keys.isEmpty {
            for (i, key) in stream.keys.enumerated() {
                if i > 0 { out.append(comma) }
                out.append(contentsOf: (csv ? Self.csvQuote(key) : key).utf8)
            }
            out.append(contentsOf: end)
        }
        let text = stream.keys.map { csv && !Self.isIDKey($0) }
        stream.rows { row in
            for (i, value) in row.enumerated() {
                if i > 0 { out.append(comma) }
                Self.flatCell(value, csv: csv, text: i < text.count && text[i], into: &out, offsets: &offsets)
            }
            out.append(contentsOf: end)
            if out.count >= Self.piece { Self.hand(&out, to: sink) }
        }
        Self.hand(&out, to: sink)
    }
}

extension JSONWriter {
    /// A stream's rows as a list of records, each written as it comes.
    static func document(_ stream: RowStream, to sink: (UnsafeRawBufferPointer) -> Void) {
        var out: [UInt8] = [], offsets = ZoneOffsets(), count = 0
        out.reserveCapacity(Renderer.piece + (1 << 16))
        stream.rows { row in
            token(count == 0 ? Token.openList : Token.commaNewline, &out)
            spaces(1, into: &out)
            append(.object(Record(Array(zip(stream.keys, row)))), to: &out, indent: 1, offsets: &offsets)
            count += 1
            if out.count >= Renderer.piece { Renderer.hand(&out, to: sink) }
        }
        if count == 0 {
            token(Token.emptyList, &out)
        } else {
            token(Token.newline, &out)
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "\n"))
        Renderer.hand(&out, to: sink)
    }
}
