#!/usr/bin/env python3
"""Writes Fixtures/gtfs/lakeport: the bundled GTFS feed, a small fictional region made to show
what the GTFS provider does. Nothing in it is copied from anywhere; every name, place and time
is written below. Deterministic: running it twice writes the same bytes (a test checks that the
files in Fixtures/ are what this script writes).

Lakeport Transit (America/Chicago) runs:
- the Shore Line (rail): six stations, each a parent station (location_type 1) with a platform
  per direction (platform_code 1 and 2); every 30 minutes on weekdays, hourly at weekends;
- the M1 metro: five stops, frequencies.txt (every 6 minutes by day, every 10 in the evening,
  exact_times 0), one template trip per direction;
- buses 10 and 22, and the N night bus, whose last runs leave after midnight (25:10:00);
- a holiday: on Thursday 2026-11-26 (Thanksgiving) weekday service is removed and the weekend
  service added (calendar_dates.txt);
- transfers.txt: a timed change at Market between the Shore Line and the M1 (transfer_type 1:
  the M1's Market platform is a stop of the Shore Line's station), and 4 minutes at Riverside
  between the Shore Line and the bus bay of route 10 (transfer_type 2);
- wheelchair_accessible: the Shore Line's runs on the hour 1 (its weekday runs at half past 2),
  the M1 and bus 10 1, bus 22 and the night bus unsaid (what `--wheelchair` rides).

usage: python3 scripts/make-gtfs-fixture.py [OUT_DIR]    (default Fixtures/gtfs/lakeport)
"""
import math, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(HERE), "Fixtures", "gtfs", "lakeport")

# Stations of the Shore Line, south to north: id, name, latitude, longitude.
RAIL = [
    ("HBR", "Harbor", 41.8402, -87.6121),
    ("MKT", "Market", 41.8631, -87.6244),
    ("UNI", "University", 41.8905, -87.6337),
    ("APT", "Airport", 41.9276, -87.6603),
    ("NGT", "Northgate", 41.9602, -87.6712),
    ("RVS", "Riverside", 41.9894, -87.6929),
]
# M1 metro stops, west to east; Market is shared with the Shore Line's station.
METRO = [
    ("M_MKT", "Market", 41.8629, -87.6239),
    ("M_OLD", "Old Town", 41.8668, -87.6141),
    ("M_MUS", "Museum", 41.8702, -87.6050),
    ("M_STA", "Stadium", 41.8741, -87.5957),
    ("M_LKS", "Lakeside", 41.8790, -87.5861),
]
BUS_STOPS = [
    ("B_RVS", "Riverside Bus Bay", 41.9898, -87.6935),
    ("B_HOS", "Memorial Hospital", 41.9981, -87.7050),
    ("B_MAL", "Westfield Mall", 42.0066, -87.7190),
    ("B_UNI", "University Gate", 41.8911, -87.6345),
    ("B_HIL", "Hillcrest", 41.8995, -87.6561),
    ("B_PRK", "Park Avenue", 41.9060, -87.6702),
    ("B_HBR", "Harbor Terminal", 41.8398, -87.6129),
]


def meters(a, b):
    lat = math.radians((a[2] + b[2]) / 2)
    dx = (b[3] - a[3]) * 111_320 * math.cos(lat)
    dy = (b[2] - a[2]) * 110_540
    return math.hypot(dx, dy)


def hms(seconds):
    return "%02d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)


def runs(stops, speed_kmh, dwell):
    """Offsets in seconds (arrival, departure) of each stop from the first departure."""
    out, t = [(0, 0)], 0
    for a, b in zip(stops, stops[1:]):
        t += int(round(meters(a, b) / (speed_kmh / 3.6) / 30.0)) * 30 + 30
        out.append((t, t + dwell))
        t += dwell
    out[-1] = (out[-1][0], out[-1][0])
    return out


def main():
    files = {}

    def table(name, header, rows):
        files[name] = header + "\n" + "".join(",".join(str(f) for f in row) + "\n" for row in rows)

    table("agency.txt", "agency_id,agency_name,agency_url,agency_timezone,agency_lang",
          [("LT", "Lakeport Transit", "https://transit.example/lakeport", "America/Chicago", "en")])
    table("feed_info.txt", "feed_publisher_name,feed_publisher_url,feed_lang,feed_start_date,feed_end_date,feed_version",
          [("transit (scripts/make-gtfs-fixture.py)", "https://transit.example", "en", "20260101", "20261231", "fictional-1")])

    stops = []
    for sid, name, lat, lon in RAIL:
        stops.append((sid, name, "%.4f" % lat, "%.4f" % lon, 1, "", "", ""))
        # Platform 1 southbound, 2 northbound, a few meters apart.
        stops.append((sid + "1", name, "%.4f" % (lat - 0.0001), "%.4f" % lon, 0, sid, "1", sid.lower() + "1"))
        stops.append((sid + "2", name, "%.4f" % (lat + 0.0001), "%.4f" % lon, 0, sid, "2", sid.lower() + "2"))
    for sid, name, lat, lon in METRO + BUS_STOPS:
        stops.append((sid, name, "%.4f" % lat, "%.4f" % lon, 0, "MKT" if sid == "M_MKT" else "", "", sid.lower()))
    table("stops.txt", "stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,platform_code,stop_code", stops)

    table("routes.txt", "route_id,agency_id,route_short_name,route_long_name,route_type,route_color,route_text_color", [
        ("SL", "LT", "SL", "Shore Line", 2, "1B5E9E", "FFFFFF"),
        ("M1", "LT", "M1", "Market - Lakeside", 1, "C8102E", "FFFFFF"),
        ("10", "LT", "10", "Riverside - Westfield Mall", 3, "2E7D32", "FFFFFF"),
        ("22", "LT", "22", "University - Park Avenue", 3, "6A1B9A", "FFFFFF"),
        ("N", "LT", "N", "Night Bus Harbor - Riverside", 3, "263238", "FFFFFF"),
    ])

    table("calendar.txt", "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date", [
        ("WK", 1, 1, 1, 1, 1, 0, 0, "20260101", "20261231"),
        ("WE", 0, 0, 0, 0, 0, 1, 1, "20260101", "20261231"),
        ("NT", 1, 1, 1, 1, 1, 1, 1, "20260101", "20261231"),
    ])
    # Thanksgiving: a weekend timetable on a Thursday.
    table("calendar_dates.txt", "service_id,date,exception_type", [("WK", "20261126", 2), ("WE", "20261126", 1)])

    trips, times, freqs = [], [], []

    def trip(route, service, trip_id, headsign, direction, pattern, start, offsets, platforms=None, step_free=""):
        trips.append((route, service, trip_id, headsign, direction, step_free))
        for seq, (stop, (arr, dep)) in enumerate(zip(pattern, offsets), start=1):
            stop_id = stop[0] + platforms if platforms else stop[0]
            times.append((trip_id, hms(start + arr), hms(start + dep), stop_id, seq))

    north, south = RAIL, list(reversed(RAIL))
    rail = runs(RAIL, 60, 30)
    for service, first, last, every in [("WK", 6 * 3600, 22 * 3600, 1800), ("WE", 7 * 3600, 22 * 3600, 3600)]:
        for n, start in enumerate(range(first, last + 1, every), start=1):
            step_free = "1" if start % 3600 == 0 else "2"
            trip("SL", service, "SL-%s-N%02d" % (service, n), "Riverside", 0, north, start, rail, "2", step_free)
            trip("SL", service, "SL-%s-S%02d" % (service, n), "Harbor", 1, south, start + 600, rail, "1", step_free)

    metro = runs(METRO, 35, 20)
    for service in ("WK", "WE"):
        for direction, pattern, name in [(0, METRO, "Lakeside"), (1, list(reversed(METRO)), "Market")]:
            trip_id = "M1-%s-%s" % (service, "E" if direction == 0 else "W")
            trip("M1", service, trip_id, name, direction, pattern, 6 * 3600, metro, step_free="1")
            freqs.append((trip_id, "06:00:00", "20:00:00", 360, 0))
            freqs.append((trip_id, "20:00:00", "24:00:00", 600, 0))

    bay, hospital, mall, gate, hill, park, terminal = BUS_STOPS
    bus10 = [bay, hospital, mall]
    for n, start in enumerate(range(6 * 3600 + 900, 21 * 3600 + 1, 1200), start=1):
        trip("10", "WK", "10-WK-%02d" % n, "Westfield Mall", 0, bus10, start, runs(bus10, 25, 0), step_free="1")
        trip("10", "WK", "10-WK-%02dR" % n, "Riverside", 1, list(reversed(bus10)), start + 1500, runs(list(reversed(bus10)), 25, 0), step_free="1")
    bus22 = [gate, hill, park]
    for n, start in enumerate(range(7 * 3600, 19 * 3600 + 1, 1800), start=1):
        trip("22", "WK", "22-WK-%02d" % n, "Park Avenue", 0, bus22, start, runs(bus22, 22, 0))
    # The night bus: its last runs leave after midnight, written as 24:10:00 and 25:10:00.
    night = [terminal, bay]
    for n, start in enumerate(range(23 * 3600 + 600, 25 * 3600 + 601, 3600), start=1):
        trip("N", "NT", "N-%02d" % n, "Riverside", 0, night, start, [(0, 0), (1800, 1800)])

    table("trips.txt", "route_id,service_id,trip_id,trip_headsign,direction_id,wheelchair_accessible", trips)
    table("stop_times.txt", "trip_id,arrival_time,departure_time,stop_id,stop_sequence", times)
    table("frequencies.txt", "trip_id,start_time,end_time,headway_secs,exact_times", freqs)
    table("transfers.txt", "from_stop_id,to_stop_id,transfer_type,min_transfer_time", [
        ("MKT", "M_MKT", 1, ""),
        ("M_MKT", "MKT", 1, ""),
        ("RVS", "B_RVS", 2, 240),
        ("B_RVS", "RVS", 2, 240),
    ])

    os.makedirs(OUT, exist_ok=True)
    for name in sorted(os.listdir(OUT)):
        if name.endswith(".txt") and name not in files:
            os.remove(os.path.join(OUT, name))
    for name, text in sorted(files.items()):
        with open(os.path.join(OUT, name), "w", encoding="utf-8", newline="") as f:
            f.write(text)


if __name__ == "__main__":
    main()
