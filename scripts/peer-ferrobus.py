#!/usr/bin/env python3
"""The peer for scripts/bench-gtfs: ferrobus (a Rust RAPTOR library, PyPI) on the same feed
and query as `transit-bench gtfs`, in process. Run with the throwaway venv's python:

    peer-ferrobus.py FEED_DIR WORK_DIR FROM_STOP TO_STOP YYYYMMDD RUNS
    peer-ferrobus.py FEED_DIR WORK_DIR --pairs FILE YYYYMMDD TRANSFERS
    peer-ferrobus.py FEED_DIR WORK_DIR --matrix POINTS YYYYMMDD HH:MM TRANSFERS MINUTES

The second asks ferrobus's earliest arrival (find_route) for each pair `transit-bench national`
wrote with TRANSIT_BENCH_PAIRS (from,to,after,our arrival,…) and prints its median and 95th
percentile, how many it found, and how its arrivals compare with ours.

The third times its `travel_time_matrix` (one departure, no window) between every pair of a
points file (`id,lat,lon`, as `scripts/make-matrix-points.py` writes), called once for each of
MINUTES minutes from HH:MM: the peer's way to a window that `transit gtfs matrix --window
MINUTES` answers in one run. Prints the seconds of one call (the first, the median) and of all.

ferrobus needs help to read a feed: hours zero-padded (it refuses 7:05:00), calendar rows
outside their dates removed (it ignores start_date and end_date), and an OpenStreetMap file for
walking (a node at every stop, written as OSM XML and converted to PBF by osmium-tool).
Prints one line: load time, best query time of RUNS, and how many departures it answered.
"""
import csv, os, subprocess, sys, time

feed, work = sys.argv[1], sys.argv[2]
pairs = matrix = None
if sys.argv[3] == "--matrix":
    matrix, day, start_clock, transfers, minutes = sys.argv[4], sys.argv[5], sys.argv[6], int(sys.argv[7]), int(sys.argv[8])
elif sys.argv[3] == "--pairs":
    pairs, day, transfers = sys.argv[4], sys.argv[5], int(sys.argv[6])
else:
    origin, destination, day, runs = sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6])
ready = os.path.join(work, "feed")
os.makedirs(ready, exist_ok=True)


def rows(name):
    with open(os.path.join(feed, name), newline="", encoding="utf-8-sig") as f:
        yield from csv.reader(f)


def padded(text):
    text = text.strip()
    if not text:
        return text
    h, m, s = text.split(":")
    return "%02d:%02d:%02d" % (int(h), int(m), int(s))


for name in os.listdir(feed):
    if not name.endswith(".txt"):
        continue
    out = open(os.path.join(ready, name), "w", newline="", encoding="utf-8")
    w = csv.writer(out, lineterminator="\n")
    it = rows(name)
    header = next(it)
    w.writerow(header)
    if name == "stop_times.txt":
        a, d = header.index("arrival_time"), header.index("departure_time")
        for row in it:
            row[a], row[d] = padded(row[a]), padded(row[d])
            w.writerow(row)
    elif name == "calendar.txt":
        s, e = header.index("start_date"), header.index("end_date")
        for row in it:
            if row[s] <= day <= row[e]:
                w.writerow(row)
    else:
        w.writerows(it)
    out.close()

coordinates = {}
it = rows("stops.txt")
header = next(it)
sid, lat, lon = header.index("stop_id"), header.index("stop_lat"), header.index("stop_lon")
for row in it:
    if row[lat] and row[lon]:
        coordinates[row[sid]] = (float(row[lat]), float(row[lon]))
osm = os.path.join(work, "stops.osm")
pbf = os.path.join(work, "stops.osm.pbf")
with open(osm, "w", encoding="utf-8") as f:
    f.write("<?xml version='1.0' encoding='UTF-8'?>\n<osm version='0.6' generator='transit bench'>\n")
    ids = []
    for n, (stop, (la, lo)) in enumerate(sorted(coordinates.items()), start=1):
        f.write(f"  <node id='{n}' version='1' lat='{la}' lon='{lo}'/>\n")
        ids.append(n)
    # A footway between each stop and the next: every stop is the end of a way, so a vertex of
    # the street graph (a graph keeps the ends and crossings of ways, not the points between).
    for k in range(1, len(ids)):
        f.write(f"  <way id='{k}' version='1'>\n    <nd ref='{ids[k - 1]}'/>\n    <nd ref='{ids[k]}'/>\n"
                "    <tag k='highway' v='footway'/>\n  </way>\n")
    f.write("</osm>\n")
subprocess.run(["osmium", "cat", "--overwrite", "-o", pbf, osm], check=True, stdout=subprocess.DEVNULL)

import datetime
import ferrobus

start = time.perf_counter()
model = ferrobus.create_transit_model(pbf, [ready], datetime.date(int(day[:4]), int(day[4:6]), int(day[6:])))
loaded = time.perf_counter() - start
if matrix:
    with open(matrix, newline="", encoding="utf-8-sig") as f:
        places = [(float(r["lat"]), float(r["lon"])) for r in csv.DictReader(f)]
    points = [ferrobus.create_transit_point(la, lo, model) for la, lo in places]
    hours, mins = start_clock.split(":")
    first = int(hours) * 3600 + int(mins) * 60
    calls, begun = [], time.perf_counter()
    for k in range(minutes):
        start = time.perf_counter()
        ferrobus.travel_time_matrix(model, points, first + 60 * k, transfers)
        calls.append(time.perf_counter() - start)
    whole = time.perf_counter() - begun
    print(f"ferrobus: load {loaded:.1f} s; {len(points)} x {len(points)} points, {minutes} calls of travel_time_matrix (max_transfers {transfers}): "
          f"first {calls[0]:.2f} s, median {sorted(calls)[len(calls) // 2]:.2f} s, all {whole:.1f} s")
    sys.exit(0)
if pairs:
    times, found, same, earlier, later, missed = [], 0, 0, 0, 0, 0
    for line in open(pairs):
        frm, to, after, ours = line.strip().split(",")[:4]
        after, ours = int(after), int(ours)
        a = ferrobus.create_transit_point(*coordinates[frm], model)
        b = ferrobus.create_transit_point(*coordinates[to], model)
        start = time.perf_counter()
        route = ferrobus.find_route(model, a, b, after, transfers)
        times.append((time.perf_counter() - start) * 1000)
        theirs = after + route["travel_time_seconds"] if route else -1
        found += theirs >= 0
        if theirs >= 0 and ours >= 0:
            same += theirs == ours
            earlier += theirs < ours
            later += theirs > ours
        elif ours >= 0:
            missed += 1
    times.sort()
    print(f"ferrobus: load {loaded * 1000:.0f} ms; find_route median {times[len(times) // 2]:.1f} ms, p95 {times[min(len(times) - 1, int(len(times) * 0.95))]:.1f} ms; "
          f"{found} of {len(times)} found; against transit's --earliest: {same} the same arrival, {earlier} earlier, {later} later, {missed} none where transit found one")
    sys.exit(0)
a = ferrobus.create_transit_point(*coordinates[origin], model)
b = ferrobus.create_transit_point(*coordinates[destination], model)
best, answer = float("inf"), None
for _ in range(runs):
    start = time.perf_counter()
    answer = ferrobus.range_multimodal_routing(model, a, b, (0, 30 * 3600), 2)
    best = min(best, time.perf_counter() - start)
print(f"ferrobus: load {loaded * 1000:.0f} ms, whole-day range query {best * 1000:.1f} ms ({len(answer.departure_times())} departures; best of {runs})")
