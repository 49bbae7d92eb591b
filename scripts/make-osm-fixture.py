#!/usr/bin/env python3
"""Writes Fixtures/osm/lakeport.osm.pbf: the streets of two neighbourhoods of the fictional
Lakeport (scripts/make-gtfs-fixture.py), as an OpenStreetMap PBF, for the README's journey whose
change and last walk follow streets. Every place below is a fact of this script; blobs are raw
(not zlib), so the file is byte for byte the same on every machine.

- University: the rail platforms (UNI1, UNI2, beside University Avenue) and the gate where the
  22 stops (University Gate, B_UNI) are 86 m apart across the campus, which has no way through;
  walkers go up University Avenue and along College Street to where Gate Walk (a footway) leads
  down to the gate, 33 m from the stop (by walk rule 2 the stop joins College Street there). The
  Campus Expressway crosses straight between them and is no walk (highway=motorway).
- Hillcrest: the 22's stop on Hillcrest Road; Crest Lane runs north from the road's west end,
  past the houses at 41.9006,-87.6576 (the README's destination, nearer the lane than the road).
- Each neighbourhood's streets go on, away from the stops, as a lane of 40 nodes 0.0001° apart
  (west from College Street's west end, east from Hillcrest Road's east end): walk rule 2
  joins nothing to a piece of fewer than 40 nodes, and these two would be such islands.

usage: python3 scripts/make-osm-fixture.py [OUT_DIR]    (default Fixtures/osm)
"""
import os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from protowire import blob, deltas, field, header, packed  # noqa: E402

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(HERE), "Fixtures", "osm")

# Node id: (latitude, longitude).
NODES = {
    1: (41.8898, -87.6335), 2: (41.8906, -87.6335), 3: (41.8914, -87.6335),   # University Avenue
    4: (41.8914, -87.6345), 5: (41.8914, -87.6350),                           # College Street
    6: (41.8912, -87.6345),                                                   # Gate Walk's south end
    7: (41.8904, -87.6342), 8: (41.8912, -87.6340),                           # Campus Expressway
    11: (41.8997, -87.6580), 12: (41.8997, -87.6561), 13: (41.8997, -87.6550),  # Hillcrest Road
    14: (41.9003, -87.6580), 15: (41.9012, -87.6580),                         # Crest Lane
}

# (way id, highway, name, node ids).
WAYS = [
    (101, "residential", "University Avenue", [1, 2, 3]),
    (102, "residential", "College Street", [3, 4, 5]),
    (103, "footway", "Gate Walk", [4, 6]),
    (104, "motorway", "Campus Expressway", [7, 8]),
    (111, "residential", "Hillcrest Road", [11, 12, 13]),
    (112, "residential", "Crest Lane", [11, 14, 15]),
]
# The lanes onward: (way id, name, first node, direction of longitude), their nodes numbered from 1000.
LANES = [(121, "West Lane", 5, -1), (122, "East Lane", 13, 1)]
for way, name, first, direction in LANES:
    start = 1000 + 100 * (way - 121)
    lat, lon = NODES[first]
    for k in range(1, 41):
        NODES[start + k] = (lat, round(lon + direction * 0.0001 * k, 7))
    WAYS.append((way, "residential", name, [first] + [start + k for k in range(1, 41)]))


def main():
    strings = ["", "highway", "name"] + sorted({w[1] for w in WAYS} | {w[2] for w in WAYS})
    index = {s: k for k, s in enumerate(strings)}
    table = b"".join(field(1, s) for s in strings)
    ids = sorted(NODES)
    # 1e-7 degrees, granularity 100 (the default).
    lats = [round(NODES[i][0] * 1e7) for i in ids]
    lons = [round(NODES[i][1] * 1e7) for i in ids]
    dense = field(1, packed(deltas(ids))) + field(8, packed(deltas(lats))) + field(9, packed(deltas(lons)))
    ways = b"".join(field(3, field(1, way) + field(2, packed([index["highway"], index["name"]]))
                            + field(3, packed([index[kind], index[name]])) + field(8, packed(deltas(refs))))
                    for way, kind, name, refs in WAYS)
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "lakeport.osm.pbf"), "wb") as f:
        f.write(header("transit make-osm-fixture.py", compress=False))
        f.write(blob("OSMData", field(1, table) + field(2, field(2, dense)) + field(2, ways), compress=False))


main()
