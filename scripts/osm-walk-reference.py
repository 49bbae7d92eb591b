#!/usr/bin/env python3
"""An independent reference for walks on OpenStreetMap, for the tests (not transit's code).

Reads a .osm.pbf with pyosmium (PyPI `osmium`, which scripts/setup installs), keeps the ways
walk rule 2 of ../shared/reference/osm/README.md makes walkable, splits them where the file
lacks a node, and answers, for each pair of points on stdin (`lat1,lon1 lat2,lon2` a line):
the street distance in meters, joining each point to the nearest point of the nearest segment
within RADIUS meters (the straight piece counts), or `none`. Plain Python: a dict graph and heapq.

    scripts/osm-walk-reference.py FILE.osm.pbf [RADIUS] < pairs
"""
import heapq, math, re, sys
import osmium

R = 6371008.8
EXCLUDED = re.compile("abandoned|bus_guideway|construction|cycleway|motor|no|planned|proposed|raceway|razed")
AREA_HIGHWAYS = {"pedestrian", "footway", "platform", "path", "living_street"}


def walkable(tags):
    """Walk rule 2 of the README, read from its words."""
    platform = tags.get("highway") == "platform" or tags.get("railway") == "platform" or tags.get("public_transport") == "platform"
    hw = tags.get("highway")
    if hw is None and not platform:
        return False
    if tags.get("foot") == "no":
        return False
    if tags.get("area") == "yes" and not (platform or hw in AREA_HIGHWAYS):
        return False
    if tags.get("foot") in ("yes", "designated", "permissive"):
        return True
    if tags.get("access") in ("private", "no") or tags.get("service") == "private":
        return False
    return platform or EXCLUDED.search(hw) is None


def great_circle(a, b):
    p1, p2 = math.radians(a[0]), math.radians(b[0])
    dp, dl = p2 - p1, math.radians(b[1] - a[1])
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * R * math.atan2(math.sqrt(h), math.sqrt(max(0.0, 1 - h)))


class Reader(osmium.SimpleHandler):
    def __init__(self):
        super().__init__()
        self.places, self.ways = {}, []

    def node(self, n):
        # As the file stores it: 1e-7 degrees.
        self.places[n.id] = (n.location.y / 1e7, n.location.x / 1e7)

    def way(self, w):
        if walkable({t.k: t.v for t in w.tags}):
            self.ways.append([n.ref for n in w.nodes])


def main():
    path, radius = sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 100.0
    reader = Reader()
    reader.apply_file(path, locations=False)
    graph, segments = {}, []
    for refs in reader.ways:
        run = []
        for ref in refs + [None]:
            if ref is not None and ref in reader.places:
                run.append(ref)
                continue
            for a, b in zip(run, run[1:]):
                if a != b:
                    m = great_circle(reader.places[a], reader.places[b])
                    graph.setdefault(a, []).append((b, m))
                    graph.setdefault(b, []).append((a, m))
                    segments.append((a, b, m))
            run = []

    def join(point):
        scale, k = math.cos(math.radians(point[0])), R * math.pi / 180
        best = None
        for a, b, m in segments:
            ax, ay = (reader.places[a][1] - point[1]) * scale * k, (reader.places[a][0] - point[0]) * k
            bx, by = (reader.places[b][1] - point[1]) * scale * k, (reader.places[b][0] - point[0]) * k
            dx, dy = bx - ax, by - ay
            length = dx * dx + dy * dy
            t = min(1.0, max(0.0, -(ax * dx + ay * dy) / length)) if length > 0 else 0.0
            d = math.hypot(ax + t * dx, ay + t * dy)
            if d <= radius and (best is None or d < best[4]):
                best = (a, b, t * m, m, d)
        return best

    for line in sys.stdin:
        if not line.strip():
            continue
        p, q = [tuple(float(x) for x in part.split(",")) for part in line.split()]
        ja, jb = join(p), join(q)
        if ja is None or jb is None:
            print("none")
            continue
        dist = {ja[0]: ja[4] + ja[2]}
        dist[ja[1]] = min(dist.get(ja[1], math.inf), ja[4] + ja[3] - ja[2])
        heap = [(d, n) for n, d in dist.items()]
        heapq.heapify(heap)
        while heap:
            d, n = heapq.heappop(heap)
            if d > dist.get(n, math.inf):
                continue
            for nxt, m in graph.get(n, []):
                if d + m < dist.get(nxt, math.inf):
                    dist[nxt] = d + m
                    heapq.heappush(heap, (d + m, nxt))
        best = math.inf
        if jb[0] in dist:
            best = min(best, dist[jb[0]] + jb[2] + jb[4])
        if jb[1] in dist:
            best = min(best, dist[jb[1]] + jb[3] - jb[2] + jb[4])
        if {ja[0], ja[1]} == {jb[0], jb[1]}:
            along = jb[2] if ja[0] == jb[0] else jb[3] - jb[2]
            best = min(best, ja[4] + abs(ja[2] - along) + jb[4])
        print("%.3f" % best if best < math.inf else "none")


main()
