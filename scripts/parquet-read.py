#!/usr/bin/env python3
"""Reads a Parquet file with the standard library alone: the Thrift compact footer, and plain,
uncompressed data pages (version 1) with RLE/bit-packed definition levels, what transit's
writer makes (and what most writers make with compression off). Written from the format's
specification (parquet-format's parquet.thrift), as scripts/protowire.py is from protobuf's:
it shares nothing with the Swift writer it checks.

usage: scripts/parquet-read.py FILE                      print the rows as CSV (a null empty)
       scripts/parquet-read.py FILE --compare CSV [--with pyarrow|duckdb]
           compare the file's values with a CSV file's (header and rows, a null as an empty
           field); with --with, read the Parquet file through that library instead (exit 77
           when it is not installed). Exit 0 when they agree, 1 with the first difference.
"""
import csv, io, struct, sys

# Thrift compact types.
STOP, TRUE, FALSE, BYTE, I16, I32, I64, DOUBLE, BINARY, LIST, SET, MAP, STRUCT = range(13)


class Compact:
    def __init__(self, data, pos=0):
        self.data, self.pos = data, pos

    def byte(self):
        b = self.data[self.pos]
        self.pos += 1
        return b

    def varint(self):
        shift = result = 0
        while True:
            b = self.byte()
            result |= (b & 0x7F) << shift
            if b < 0x80:
                return result
            shift += 7
            if shift > 70:
                raise ValueError("varint too long")

    def zigzag(self):
        n = self.varint()
        return (n >> 1) ^ -(n & 1)

    def value(self, kind):
        if kind in (TRUE, FALSE):
            return kind == TRUE
        if kind == BYTE:
            return self.byte()
        if kind in (I16, I32, I64):
            return self.zigzag()
        if kind == DOUBLE:
            v = struct.unpack_from("<d", self.data, self.pos)[0]
            self.pos += 8
            return v
        if kind == BINARY:
            n = self.varint()
            v = bytes(self.data[self.pos:self.pos + n])
            if len(v) != n:
                raise ValueError("binary past the end")
            self.pos += n
            return v
        if kind in (LIST, SET):
            head = self.byte()
            size, element = head >> 4, head & 0x0F
            if size == 15:
                size = self.varint()
            return [self.value(element) if element not in (TRUE, FALSE) else self.byte() == 1 for _ in range(size)]
        if kind == MAP:
            size = self.varint()
            if size == 0:
                return {}
            types = self.byte()
            return {self.value(types >> 4): self.value(types & 0x0F) for _ in range(size)}
        if kind == STRUCT:
            return self.struct()
        raise ValueError("unknown compact type %d" % kind)

    def struct(self):
        fields, last = {}, 0
        while True:
            head = self.byte()
            if head == STOP:
                return fields
            delta, kind = head >> 4, head & 0x0F
            field = last + delta if delta else self.zigzag()
            fields[field] = self.value(kind)
            last = field


def levels(data, pos, end, count):
    """Definition levels of bit width 1: the RLE/bit-packed hybrid."""
    out = []
    reader = Compact(data, pos)
    while len(out) < count and reader.pos < end:
        head = reader.varint()
        if head & 1:  # bit-packed: groups of 8
            groups = head >> 1
            for _ in range(groups):
                b = reader.byte()
                out.extend((b >> k) & 1 for k in range(8))
        else:
            run = head >> 1
            out.extend([reader.byte() & 1] * run)
    return out[:count]


def plain(data, pos, kind, count):
    values = []
    for _ in range(count):
        if kind == 1:  # INT32
            values.append(struct.unpack_from("<i", data, pos)[0]); pos += 4
        elif kind == 2:  # INT64
            values.append(struct.unpack_from("<q", data, pos)[0]); pos += 8
        elif kind == 4:  # FLOAT
            values.append(struct.unpack_from("<f", data, pos)[0]); pos += 4
        elif kind == 5:  # DOUBLE
            values.append(struct.unpack_from("<d", data, pos)[0]); pos += 8
        elif kind == 6:  # BYTE_ARRAY
            n = struct.unpack_from("<I", data, pos)[0]; pos += 4
            values.append(bytes(data[pos:pos + n]).decode("utf-8")); pos += n
        else:
            raise ValueError("physical type %d is not read here" % kind)
    return values


def read(path):
    """The file's column names and rows (None for a null)."""
    data = open(path, "rb").read()
    if len(data) < 12 or data[:4] != b"PAR1" or data[-4:] != b"PAR1":
        raise ValueError("%s: not a Parquet file (no PAR1 at both ends)" % path)
    length = struct.unpack_from("<I", data, len(data) - 8)[0]
    meta = Compact(data, len(data) - 8 - length).struct()
    schema = meta[2]
    leaves = schema[1:]
    names = [leaf[4].decode() for leaf in leaves]
    optional = [leaf.get(3, 0) == 1 for leaf in leaves]
    rows = []
    for group in meta.get(4, []):
        columns = []
        for k, chunk in enumerate(group[1]):
            info = chunk[3]
            kind, codec, total = info[1], info[4], info[5]
            if codec != 0:
                raise ValueError("column %s is compressed (codec %d)" % (names[k], codec))
            pos = info.get(11, info[9])
            values = []
            while len(values) < total:
                reader = Compact(data, pos)
                header = reader.struct()
                body = reader.pos
                size = header[3]
                if header[1] != 0:  # not DATA_PAGE
                    raise ValueError("page type %d is not read here" % header[1])
                page = header[5]
                count = page[1]
                if page[2] != 0:
                    raise ValueError("encoding %d is not read here" % page[2])
                at = body
                if optional[k]:
                    n = struct.unpack_from("<I", data, at)[0]
                    defined = levels(data, at + 4, at + 4 + n, count)
                    at += 4 + n
                else:
                    defined = [1] * count
                present = iter(plain(data, at, kind, sum(defined)))
                values.extend(next(present) if d else None for d in defined)
                pos = body + size
            columns.append(values)
        rows.extend(zip(*columns))
    return names, [list(r) for r in rows]


def text(value):
    if value is None:
        return ""
    if isinstance(value, float) and value == int(value):
        return str(int(value))
    return str(value)


def through(library, path):
    if library == "pyarrow":
        import pyarrow.parquet as pq  # noqa: raises ImportError where absent
        table = pq.read_table(path)
        return table.column_names, [list(r) for r in zip(*[table.column(n).to_pylist() for n in table.column_names])]
    if library == "duckdb":
        import duckdb
        relation = duckdb.sql("SELECT * FROM read_parquet('%s')" % path.replace("'", "''"))
        return list(relation.columns), [list(r) for r in relation.fetchall()]
    raise SystemExit("parquet-read: --with pyarrow or duckdb")


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) > 1 else 2
    path = argv[1]
    library = argv[argv.index("--with") + 1] if "--with" in argv else None
    try:
        names, rows = through(library, path) if library else read(path)
    except ImportError:
        print("parquet-read: %s is not installed" % library, file=sys.stderr)
        return 77
    if "--compare" not in argv:
        out = csv.writer(sys.stdout, lineterminator="\r\n")
        out.writerow(names)
        for row in rows:
            out.writerow([text(v) for v in row])
        return 0
    expected = list(csv.reader(io.StringIO(open(argv[argv.index("--compare") + 1], encoding="utf-8", newline="").read())))
    got = [names] + [[text(v) for v in row] for row in rows]
    if len(got) != len(expected):
        print("parquet-read: %d rows (with the header) against the CSV's %d" % (len(got), len(expected)), file=sys.stderr)
        return 1
    for k, (a, b) in enumerate(zip(got, expected)):
        if a != b:
            print("parquet-read: row %d is %s, the CSV's %s" % (k, a, b), file=sys.stderr)
            return 1
    print("parquet-read: %d rows agree%s" % (len(rows), " (through %s)" % library if library else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
