#!/usr/bin/env python3
"""Replicates a real GTFS feed with new ids until it holds at least N stop_times.

    scripts/make-synthetic-gtfs.py SOURCE_DIR OUT_DIR [--stop-times 5000000] [--group 8]

Every copy gets new stop, trip, route and service ids (suffix `~k`) and its times shifted by
7 minutes per copy within a group. Copies are gathered in groups of `--group`: the copies of a
station in one group share one parent station, so a group is one network of interlaced lines
(changes between copies happen at shared stations); groups are not linked to each other.
Files the router does not read (shapes, fares) are left out. Used by the GTFS benchmark
(README, Performance); the output is not committed.
"""
import argparse, csv, io, os, sys

p = argparse.ArgumentParser()
p.add_argument("source")
p.add_argument("out")
p.add_argument("--stop-times", type=int, default=5_000_000)
p.add_argument("--group", type=int, default=8)
a = p.parse_args()

def read(name):
    path = os.path.join(a.source, name)
    if not os.path.exists(path):
        return None, []
    with open(path, encoding="utf-8-sig", newline="") as f:
        r = csv.reader(f)
        rows = [row for row in r if row]
    return rows[0], rows[1:]

def shift(t, seconds):
    if not t:
        return t
    h, m, s = map(int, t.split(":"))
    total = h * 3600 + m * 60 + s + seconds
    return "%02d:%02d:%02d" % (total // 3600, total % 3600 // 60, total % 60)

agency = read("agency.txt")
stops_h, stops = read("stops.txt")
routes_h, routes = read("routes.txt")
trips_h, trips = read("trips.txt")
st_h, stop_times = read("stop_times.txt")
cal_h, cal = read("calendar.txt")
cd_h, cd = read("calendar_dates.txt")
copies = -(-a.stop_times // len(stop_times))
os.makedirs(a.out, exist_ok=True)

def writer(name, header):
    f = open(os.path.join(a.out, name), "w", newline="", encoding="utf-8")
    w = csv.writer(f, lineterminator="\n")
    w.writerow(header)
    return f, w

f, w = writer("agency.txt", agency[0]); w.writerows(agency[1]); f.close()
si = {c: i for i, c in enumerate(stops_h)}
parent_col = si.get("parent_station")
stations = {row[si["stop_id"]] for row in stops if row[si.get("location_type", 0)] == "1"} if "location_type" in si else set()
f, w = writer("stops.txt", stops_h)
for k in range(copies):
    g = k // a.group
    for row in stops:
        row = list(row)
        sid = row[si["stop_id"]]
        if sid in stations:
            if k % a.group != 0:
                continue          # one station per group
            row[si["stop_id"]] = "%s~g%d" % (sid, g)
        else:
            row[si["stop_id"]] = "%s~%d" % (sid, k)
            if parent_col is not None and row[parent_col]:
                row[parent_col] = "%s~g%d" % (row[parent_col], g)
        if "stop_code" in si and row[si["stop_code"]]:
            row[si["stop_code"]] = row[si["stop_id"]]
        if "stop_lat" in si and row[si["stop_lat"]]:
            row[si["stop_lat"]] = "%.6f" % (float(row[si["stop_lat"]]) + 0.5 * g)
        w.writerow(row)
f.close()

ri = {c: i for i, c in enumerate(routes_h)}
f, w = writer("routes.txt", routes_h)
for k in range(copies):
    for row in routes:
        row = list(row); row[ri["route_id"]] += "~%d" % k; w.writerow(row)
f.close()

ti = {c: i for i, c in enumerate(trips_h)}
f, w = writer("trips.txt", trips_h)
for k in range(copies):
    for row in trips:
        row = list(row)
        row[ti["trip_id"]] += "~%d" % k
        row[ti["route_id"]] += "~%d" % k
        row[ti["service_id"]] += "~%d" % k
        w.writerow(row)
f.close()

for name, header, rows in (("calendar.txt", cal_h, cal), ("calendar_dates.txt", cd_h, cd)):
    if header is None:
        continue
    ci = header.index("service_id")
    f, w = writer(name, header)
    for k in range(copies):
        for row in rows:
            row = list(row); row[ci] += "~%d" % k; w.writerow(row)
    f.close()

sti = {c: i for i, c in enumerate(st_h)}
f, w = writer("stop_times.txt", st_h)
for k in range(copies):
    offset = (k % a.group) * 420
    out = []
    for row in stop_times:
        row = list(row)
        row[sti["trip_id"]] += "~%d" % k
        row[sti["stop_id"]] += "~%d" % k
        row[sti["arrival_time"]] = shift(row[sti["arrival_time"]], offset)
        row[sti["departure_time"]] = shift(row[sti["departure_time"]], offset)
        out.append(row)
    w.writerows(out)
f.close()
print("%s: %d copies, %d stop_times" % (a.out, copies, copies * len(stop_times)), file=sys.stderr)
