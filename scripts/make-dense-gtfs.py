#!/usr/bin/env python3
"""A dense timetable from a real feed, for the benchmark: every trip copied K times on the same
stops, copy k shifted by k × SHIFT seconds (the patterns keep their stops and carry K times the
trips; the origin has K times the departures). Times are written zero-padded (HH:MM:SS).
With --fares, the feed's Fares v1 files (fare_attributes.txt, fare_rules.txt) are kept as they
are: a route's copies are its own trips, so every journey is priced as the real feed prices it.

    scripts/make-dense-gtfs.py [--fares] FEED_DIR OUT_DIR [K=81] [SHIFT=7]
"""
import csv, os, sys

args = [a for a in sys.argv[1:] if a != "--fares"]
fares = len(args) < len(sys.argv) - 1
src, out = args[0], args[1]
copies = int(args[2]) if len(args) > 2 else 81
shift = int(args[3]) if len(args) > 3 else 7
os.makedirs(out, exist_ok=True)


def seconds(text):
    h, m, s = text.strip().split(":")
    return int(h) * 3600 + int(m) * 60 + int(s)


def clock(value):
    return "%02d:%02d:%02d" % (value // 3600, value // 60 % 60, value % 60)


def rows(name):
    with open(os.path.join(src, name), newline="", encoding="utf-8-sig") as f:
        reader = csv.reader(f)
        header = next(reader)
        yield header
        yield from reader


copied = ("agency.txt", "stops.txt", "routes.txt", "calendar.txt", "calendar_dates.txt", "transfers.txt")
for name in copied + (("fare_attributes.txt", "fare_rules.txt") if fares else ()):
    if os.path.exists(os.path.join(src, name)):
        with open(os.path.join(out, name), "w", newline="", encoding="utf-8") as f:
            csv.writer(f, lineterminator="\n").writerows(rows(name))

keep = ("route_id", "service_id", "trip_id", "trip_headsign", "direction_id", "wheelchair_accessible", "bikes_allowed")
trips = rows("trips.txt")
header = next(trips)
columns = [header.index(c) for c in keep if c in header]
trip_column = header.index("trip_id")
with open(os.path.join(out, "trips.txt"), "w", newline="", encoding="utf-8") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow([header[c] for c in columns])
    for row in trips:
        for k in range(copies):
            w.writerow([row[c] + ("~%d" % k if c == trip_column else "") for c in columns])

keep = ("trip_id", "arrival_time", "departure_time", "stop_id", "stop_sequence", "pickup_type", "drop_off_type")
stop_times = rows("stop_times.txt")
header = next(stop_times)
columns = [header.index(c) for c in keep if c in header]
trip, arrival, departure = header.index("trip_id"), header.index("arrival_time"), header.index("departure_time")
by_trip = {}
order = []
for row in stop_times:
    if row[trip] not in by_trip:
        by_trip[row[trip]] = []
        order.append(row[trip])
    by_trip[row[trip]].append(row)
with open(os.path.join(out, "stop_times.txt"), "w", newline="", encoding="utf-8") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow([header[c] for c in columns])
    for trip_id in order:
        for k in range(copies):
            for row in by_trip[trip_id]:
                values = []
                for c in columns:
                    value = row[c]
                    if c == trip:
                        value += "~%d" % k
                    elif c in (arrival, departure) and value.strip():
                        value = clock(seconds(value) + k * shift)
                    values.append(value)
                w.writerow(values)
