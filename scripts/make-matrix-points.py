#!/usr/bin/env python3
"""Points for `transit gtfs matrix`, drawn from a feed's stops, deterministically:

    make-matrix-points.py SEED N FEED [--at-stops] > points.csv

N points (a header `id,lat,lon`, ids p0 … pN-1), each within 2 km of a stop a vehicle calls at
(location_type 0 or empty): a stop drawn at random, then a point drawn uniformly over the disc of
2 km around it. With --at-stops, each point is the drawn stop's own place (the peers' benchmarks
put their points at stops). FEED is a GTFS directory; the same SEED, N and FEED write the same
bytes.
"""
import csv, math, os, random, sys

if len(sys.argv) not in (4, 5) or (len(sys.argv) == 5 and sys.argv[4] != "--at-stops"):
    sys.exit(__doc__.strip().splitlines()[2].strip())
seed, count, feed = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
at_stops = len(sys.argv) == 5
with open(os.path.join(feed, "stops.txt"), newline="", encoding="utf-8-sig") as f:
    stops = [(float(r["stop_lat"]), float(r["stop_lon"])) for r in csv.DictReader(f)
             if r.get("location_type", "") in ("", "0") and r.get("stop_lat") and r.get("stop_lon")]
stops.sort()
rng = random.Random(seed)
out = csv.writer(sys.stdout, lineterminator="\n")
out.writerow(["id", "lat", "lon"])
for k in range(count):
    lat, lon = stops[rng.randrange(len(stops))]
    if not at_stops:
        # Uniform over the disc: the distance is 2 km times the square root of a uniform draw.
        d, bearing = 2000 * math.sqrt(rng.random()), rng.random() * 2 * math.pi
        lat += d * math.cos(bearing) / 111320
        lon += d * math.sin(bearing) / (111320 * math.cos(math.radians(lat)))
    out.writerow([f"p{k}", f"{lat:.6f}", f"{lon:.6f}"])
