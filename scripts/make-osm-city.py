#!/usr/bin/env python3
"""A synthetic city as an OpenStreetMap PBF, for benchmarks (not a fixture): a square grid of
N × N streets 100 m apart around a centre, every street a way of `highway=residential` split
at each crossing, with extra nodes every 20 m along it, plus unwalkable motorways every tenth
street and one node a crossing for every building corner it would have. Written by hand: the
protobuf wire format, zlib blobs, DenseNodes, 8,000 elements a block, as osmium writes them.

    scripts/make-osm-city.py OUT.osm.pbf [N] [LAT] [LON]     (default N=150, at 41.88, -87.63)
"""
import math, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from protowire import blob, deltas, field, header, packed, zigzag  # noqa: E402

def main():
    out = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 150
    lat0 = float(sys.argv[3]) if len(sys.argv) > 3 else 41.88
    lon0 = float(sys.argv[4]) if len(sys.argv) > 4 else -87.63
    dlat = 100 / 111_195.0
    dlon = dlat / math.cos(math.radians(lat0))
    step = 5  # nodes per 100 m block edge
    nodes = {}  # (i, j, k) -> id; grid points on a fine lattice of 20 m
    def node(x, y):
        key = (x, y)
        if key not in nodes:
            nodes[key] = len(nodes) + 1
        return nodes[key]
    ways = []
    for i in range(n):
        for j in range(n - 1):
            # Along x (east-west) street i between crossings j and j + 1, and the same north-south.
            ways.append(([node(j * step + k, i * step) for k in range(step + 1)], "motorway" if i % 10 == 9 else "residential"))
            ways.append(([node(i * step, j * step + k) for k in range(step + 1)], "residential"))
    with open(out, "wb") as f:
        f.write(header("transit make-osm-city.py"))
        items = sorted(nodes.items(), key=lambda kv: kv[1])
        for start in range(0, len(items), 8000):
            chunk = items[start:start + 8000]
            ids, lats, lons = [], [], []
            pid = plat = plon = 0
            for (x, y), nid in chunk:
                lat = int(round((lat0 + (y / step - n / 2) * dlat) * 1e7))
                lon = int(round((lon0 + (x / step - n / 2) * dlon) * 1e7))
                ids.append(zigzag(nid - pid)); lats.append(zigzag(lat - plat)); lons.append(zigzag(lon - plon))
                pid, plat, plon = nid, lat, lon
            dense = field(1, packed(ids)) + field(8, packed(lats)) + field(9, packed(lons)) + field(10, packed([0] * len(chunk)))
            block = field(1, field(1, b"")) + field(2, field(2, dense))
            f.write(blob("OSMData", block))
        strings = field(1, b"") + field(1, "highway") + field(1, "residential") + field(1, "motorway")
        for start in range(0, len(ways), 8000):
            group = b""
            for k, (refs, kind) in enumerate(ways[start:start + 8000]):
                group += field(3, field(1, start + k + 1) + field(2, packed([1])) + field(3, packed([2 if kind == "residential" else 3])) + field(8, packed(deltas(refs))))
            f.write(blob("OSMData", field(1, strings) + field(2, group)))
    print(f"{out}: {len(nodes)} nodes, {len(ways)} ways")

main()
