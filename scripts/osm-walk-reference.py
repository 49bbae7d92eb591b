#!/usr/bin/env python3
"""An independent reference for walks on OpenStreetMap, for the tests (not transit's code).

Reads a .osm.pbf with pyosmium (PyPI `osmium`, which scripts/setup installs), keeps the ways
walk rule 2 of ../shared/reference/osm/README.md makes walkable, splits them where the file
lacks a node, and answers, for each pair of points on stdin (`lat1,lon1 lat2,lon2` a line):
the street distance in meters by rule 2 (closed areas crossed between their gates, islands of
fewer than 40 nodes joined by nothing, each point joining every segment within the nearest's
distance plus 25 m and within RADIUS, the straight pieces counting), `none` where a point
joins nothing, or `unreachable` where no walk connects them. Plain Python: a dict graph and heapq.

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


def is_area(tags):
    """Crossed straight between its gates when closed: a pedestrian area or any platform."""
    platform = tags.get("highway") == "platform" or tags.get("railway") == "platform" or tags.get("public_transport") == "platform"
    return platform or (tags.get("area") == "yes" and tags.get("highway") in AREA_HIGHWAYS)


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
        tags = {t.k: t.v for t in w.tags}
        if walkable(tags):
            self.ways.append(([n.ref for n in w.nodes], is_area(tags)))


def main():
    path, radius = sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 100.0
    reader = Reader()
    reader.apply_file(path, locations=False)
    graph, segments = {}, set()

    def add(a, b):
        if a == b or (a, b) in segments or (b, a) in segments:
            return
        m = great_circle(reader.places[a], reader.places[b])
        graph.setdefault(a, []).append((b, m))
        graph.setdefault(b, []).append((a, m))
        segments.add((a, b))

    for refs, _ in reader.ways:
        run = []
        for ref in refs + [None]:
            if ref is not None and ref in reader.places:
                run.append(ref)
                continue
            for a, b in zip(run, run[1:]):
                add(a, b)
            run = []
    # Closed areas the file holds whole: every two gates (nodes another walkable way uses) joined straight.
    users = {}
    for refs, _ in reader.ways:
        for ref in set(refs):
            users[ref] = users.get(ref, 0) + 1
    for refs, area in reader.ways:
        if area and len(refs) >= 4 and refs[0] == refs[-1] and all(r in reader.places for r in refs):
            gates = sorted({r for r in refs if users[r] > 1})
            if 2 <= len(gates) <= 100:
                for i in range(len(gates)):
                    for j in range(i + 1, len(gates)):
                        add(gates[i], gates[j])
    # Islands: pieces of fewer than 40 nodes join nothing.
    piece_size, seen = {}, set()
    for seed in graph:
        if seed in seen:
            continue
        members, stack = [], [seed]
        seen.add(seed)
        while stack:
            n = stack.pop()
            members.append(n)
            for nxt, _ in graph[n]:
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        for n in members:
            piece_size[n] = len(members)
    joinable = [(a, b, great_circle(reader.places[a], reader.places[b])) for a, b in segments if piece_size[a] >= 40]

    def joins(point):
        """Every segment within the nearest one's distance plus 25 m, and within RADIUS."""
        scale = math.cos(math.radians(point[0]))
        found = []
        for a, b, m in joinable:
            ax, ay = (reader.places[a][1] - point[1]) * scale * 111320.0, (reader.places[a][0] - point[0]) * 110574.0
            bx, by = (reader.places[b][1] - point[1]) * scale * 111320.0, (reader.places[b][0] - point[0]) * 110574.0
            dx, dy = bx - ax, by - ay
            length = dx * dx + dy * dy
            t = min(1.0, max(0.0, -(ax * dx + ay * dy) / length)) if length > 0 else 0.0
            d = math.hypot(ax + t * dx, ay + t * dy)
            if d <= radius:
                found.append((a, b, t * m, m, d))
        if not found:
            return []
        nearest = min(j[4] for j in found)
        return [j for j in found if j[4] <= nearest + 25.0]

    for line in sys.stdin:
        if not line.strip():
            continue
        p, q = [tuple(float(x) for x in part.split(",")) for part in line.split()]
        ja, jb = joins(p), joins(q)
        if not ja or not jb:
            print("none")
            continue
        dist = {}
        for a, b, off, m, d in ja:
            dist[a] = min(dist.get(a, math.inf), d + off)
            dist[b] = min(dist.get(b, math.inf), d + m - off)
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
        for a, b, off, m, d in jb:
            best = min(best, dist.get(a, math.inf) + off + d, dist.get(b, math.inf) + m - off + d)
            for a2, b2, off2, m2, d2 in ja:
                if {a2, b2} == {a, b}:
                    along = off if a2 == a else m - off
                    best = min(best, d2 + abs(off2 - along) + d)
        print("%.3f" % best if best < math.inf else "unreachable")


main()
