"""The protobuf wire format written by hand (varints, zigzag, fields), and OpenStreetMap PBF's
blobs around it: what scripts/make-gtfs-rt-fixture.py (GTFS-Realtime), make-osm-fixture.py (the
bundled map) and make-osm-city.py (a benchmark's city) write with. Not transit's reader; the
tests read what these write with transit's."""
import struct, zlib


def varint(v):
    out = bytearray()
    v &= (1 << 64) - 1  # a negative int32/int64 is ten bytes, as protobuf writes it
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def zigzag(v):
    return (v << 1) ^ (v >> 63)


def field(n, value):
    """Field n: an int as a varint, bytes or a str length-delimited."""
    if isinstance(value, int):
        return varint(n << 3) + varint(value)
    if isinstance(value, str):
        value = value.encode()
    return varint(n << 3 | 2) + varint(len(value)) + bytes(value)


def packed(values):
    return b"".join(varint(v) for v in values)


def deltas(values):
    """Delta-coded, zigzagged: how DenseNodes and way refs store ids and coordinates."""
    out, previous = [], 0
    for v in values:
        out.append(zigzag(v - previous))
        previous = v
    return out


def blob(kind, message, compress=True):
    """(length, BlobHeader, Blob): zlib_data with raw_size, or raw (byte for byte the same on
    every machine, whatever its zlib)."""
    data = field(2, len(message)) + field(3, zlib.compress(message, 6)) if compress else field(1, message)
    header = field(1, kind) + field(3, len(data))
    return struct.pack(">I", len(header)) + header + data


def header(program, compress=True):
    """The OSMHeader blob: the features every reader must know, and the writing program."""
    return blob("OSMHeader", field(4, "OsmSchema-V0.6") + field(4, "DenseNodes") + field(16, program), compress)
