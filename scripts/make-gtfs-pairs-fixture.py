#!/usr/bin/env python3
"""Writes Fixtures/gtfs/pairs: feeds of two agencies each, to show and test journeys across feeds
(`transit gtfs trips --feed bart --feed caltrain`). Nothing is copied from any published feed:
the stations' names and places are public facts, written below with the minutes between them;
the timetables are regular patterns made up here. Deterministic: running it twice writes the
same bytes (a test checks that Fixtures/gtfs/pairs is what this script writes).

- bay/bart (America/Los_Angeles): BART from Embarcadero to Millbrae, the 13 stations of the
  San Francisco peninsula, every 15 minutes on weekdays and 20 at weekends.
- bay/caltrain (America/Los_Angeles): Caltrain from San Francisco to San Jose Diridon, each
  station a parent with a northbound and a southbound platform (Millbrae's about 45 m and 55 m
  from BART's): locals every 30 minutes and an hourly express on weekdays, hourly locals at
  weekends. The two meet at Millbrae, where `--link` (300 m by default) joins them.
- border/renfe (Europe/Madrid) and border/cp (Europe/Lisbon): a regional train from Vigo to
  Valença and one from Valença to Porto, meeting at Valença station (the two feeds' stops 30 m
  apart), one hour apart in their clocks. Leaving Vigo at 07:40 (Madrid) reaches Valença at
  08:35 Madrid, 07:35 Lisbon: the 07:48 (Lisbon) to Porto is caught. A planner that compared
  the feeds' clock times as they are written would miss it.
- bay/caltrain-realtime.pb: GTFS-Realtime for the Caltrain feed at 07:40 (PST) on Monday
  2026-11-23, encoded by scripts/make-gtfs-rt-fixture.py's protobuf writer: local L005 (San
  Francisco 07:35) runs 5 minutes late from its first stop.
- border/renfe-late-10.pb and renfe-late-15.pb: Renfe's data at 07:45 (Madrid) that Monday: the
  07:40 from Vigo leaves 10 minutes late (Valença 08:45 Madrid, 07:45 Lisbon: the 07:48 to Porto
  is still caught), or 15 (07:50 Lisbon: missed).

usage: python3 scripts/make-gtfs-pairs-fixture.py [OUT_DIR]    (default Fixtures/gtfs/pairs)
"""
import importlib.util, os, sys
from datetime import datetime, timedelta, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(HERE), "Fixtures", "gtfs", "pairs")

# BART, north to south: id, name, latitude, longitude, minutes from Embarcadero.
BART = [
    ("EMBR", "Embarcadero", 37.792976, -122.396742, 0),
    ("MONT", "Montgomery St", 37.789256, -122.401407, 1),
    ("POWL", "Powell St", 37.784991, -122.406857, 3),
    ("CIVC", "Civic Center/UN Plaza", 37.779528, -122.413756, 5),
    ("16TH", "16th St Mission", 37.765062, -122.419694, 7),
    ("24TH", "24th St Mission", 37.752254, -122.418466, 9),
    ("GLEN", "Glen Park", 37.732921, -122.434092, 12),
    ("BALB", "Balboa Park", 37.721981, -122.447414, 14),
    ("DALY", "Daly City", 37.706121, -122.469081, 18),
    ("COLM", "Colma", 37.684638, -122.466233, 21),
    ("SSAN", "South San Francisco", 37.664174, -122.444116, 24),
    ("SBRN", "San Bruno", 37.637753, -122.416038, 27),
    ("MLBR", "Millbrae", 37.600271, -122.386702, 33),
]

# Caltrain, north to south: id, name, northbound platform (lat, lon), southbound platform,
# minutes from San Francisco on a local, and on the express (None: the express passes).
CALTRAIN = [
    ("sf", "San Francisco", (37.776439, -122.394322), (37.776348, -122.394935), 0, 0),
    ("22nd", "22nd Street", (37.757599, -122.392047), (37.757583, -122.392404), 4, 4),
    ("bayshore", "Bayshore", (37.709544, -122.401318), (37.709537, -122.401586), 9, None),
    ("ssf", "South San Francisco", (37.655946, -122.405018), (37.655981, -122.405209), 14, None),
    ("sanbruno", "San Bruno", (37.632378, -122.412234), (37.632335, -122.412250), 18, None),
    ("millbrae", "Millbrae", (37.599880, -122.386647), (37.599797, -122.386832), 23, 18),
    ("burlingame", "Burlingame", (37.579725, -122.344962), (37.579671, -122.345120), 27, None),
    ("sanmateo", "San Mateo", (37.568087, -122.323953), (37.568209, -122.324058), 31, None),
    ("hillsdale", "Hillsdale", (37.537868, -122.297349), (37.537814, -122.297461), 35, 26),
    ("belmont", "Belmont", (37.520844, -122.275800), (37.520713, -122.275890), 38, None),
    ("sancarlos", "San Carlos", (37.507702, -122.260338), (37.507616, -122.260422), 41, None),
    ("redwood", "Redwood City", (37.485390, -122.231900), (37.485315, -122.232005), 46, 33),
    ("menlo", "Menlo Park", (37.454745, -122.182297), (37.454710, -122.182405), 52, None),
    ("paloalto", "Palo Alto", (37.443475, -122.164614), (37.443405, -122.164697), 55, 40),
    ("mountainview", "Mountain View", (37.394458, -122.076131), (37.394402, -122.076327), 63, 47),
    ("sunnyvale", "Sunnyvale", (37.378427, -122.030742), (37.378366, -122.030897), 68, 52),
    ("sanjose", "San Jose Diridon", (37.329239, -121.903011), (37.329231, -121.903173), 80, 62),
]

# The border: id, name, latitude, longitude, minutes from the first station.
RENFE = [
    ("VGO", "Vigo Guixar", 42.238900, -8.712800, 0),
    ("RDN", "Redondela", 42.283700, -8.609700, 14),
    ("POR", "O Porriño", 42.161100, -8.618600, 27),
    ("TUI", "Tui", 42.047800, -8.643600, 47),
    ("VAL", "Valença", 42.027900, -8.641300, 55),
]
CP = [
    ("94-30007", "Valença", 42.027700, -8.641000, 0),
    ("94-30106", "Vila Nova de Cerveira", 41.940600, -8.744700, 17),
    ("94-30205", "Caminha", 41.875300, -8.837200, 31),
    ("94-30403", "Viana do Castelo", 41.694600, -8.830500, 58),
    ("94-31005", "Barcelos", 41.535200, -8.613000, 92),
    ("94-31104", "Nine", 41.468900, -8.569700, 104),
    ("94-31609", "Porto Campanhã", 41.148700, -8.585500, 142),
]


def hms(minutes):
    return "%02d:%02d:00" % (minutes // 60, minutes % 60)


def hhmm(text):
    h, m = text.split(":")
    return int(h) * 60 + int(m)


class Feed:
    def __init__(self, agency_id, name, url, zone, lang):
        self.files = {}
        self.table("agency.txt", "agency_id,agency_name,agency_url,agency_timezone,agency_lang", [(agency_id, name, url, zone, lang)])
        self.table("calendar.txt", "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date", [
            ("WK", 1, 1, 1, 1, 1, 0, 0, "20260101", "20261231"),
            ("WE", 0, 0, 0, 0, 0, 1, 1, "20260101", "20261231"),
        ])
        self.trips, self.times = [], []

    def table(self, name, header, rows):
        self.files[name] = header + "\n" + "".join(",".join(str(f) for f in row) + "\n" for row in rows)

    def trip(self, route, service, trip_id, headsign, direction, calls):
        """calls: (stop_id, minutes of the service day), in order; a stop's arrival is its departure."""
        self.trips.append((route, service, trip_id, headsign, direction))
        for seq, (stop, minute) in enumerate(calls, start=1):
            self.times.append((trip_id, hms(minute), hms(minute), stop, seq))

    def write(self, directory):
        self.table("trips.txt", "route_id,service_id,trip_id,trip_headsign,direction_id", self.trips)
        self.table("stop_times.txt", "trip_id,arrival_time,departure_time,stop_id,stop_sequence", self.times)
        os.makedirs(directory, exist_ok=True)
        for name, text in sorted(self.files.items()):
            with open(os.path.join(directory, name), "w", encoding="utf-8", newline="\n") as f:
                f.write(text)


def bart():
    feed = Feed("BART", "Bay Area Rapid Transit", "https://www.bart.gov", "America/Los_Angeles", "en")
    feed.table("stops.txt", "stop_id,stop_name,stop_lat,stop_lon",
               [(sid, name, "%.6f" % lat, "%.6f" % lon) for sid, name, lat, lon, _ in BART])
    feed.table("routes.txt", "route_id,agency_id,route_short_name,route_long_name,route_type,route_color",
               [("RED", "BART", "Red", "Richmond - Millbrae", 1, "ED1C24")])
    last = BART[-1][4]
    for service, every, first, end in [("WK", 15, hhmm("05:00"), hhmm("24:00")), ("WE", 20, hhmm("06:00"), hhmm("24:00"))]:
        for n, start in enumerate(range(first, end, every), start=1):
            feed.trip("RED", service, "RED-%s-S%03d" % (service, n), "Millbrae", 0, [(s[0], start + s[4]) for s in BART])
            feed.trip("RED", service, "RED-%s-N%03d" % (service, n), "Richmond", 1,
                      [(s[0], start + 7 + last - s[4]) for s in reversed(BART)])
    return feed


def caltrain():
    feed = Feed("CT", "Caltrain", "https://www.caltrain.com", "America/Los_Angeles", "en")
    stops = []
    for sid, name, north, south, _, _ in CALTRAIN:
        stops.append((sid, name, "%.6f" % ((north[0] + south[0]) / 2), "%.6f" % ((north[1] + south[1]) / 2), 1, "", ""))
        stops.append((sid + "-nb", name + " Northbound", "%.6f" % north[0], "%.6f" % north[1], 0, sid, "NB"))
        stops.append((sid + "-sb", name + " Southbound", "%.6f" % south[0], "%.6f" % south[1], 0, sid, "SB"))
    feed.table("stops.txt", "stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,platform_code", stops)
    feed.table("routes.txt", "route_id,agency_id,route_short_name,route_long_name,route_type,route_color", [
        ("LOCAL", "CT", "Local", "Local", 2, "E31837"), ("EXPRESS", "CT", "Express", "Express", 2, "E31837"),
    ])
    local_end, express_end = CALTRAIN[-1][4], CALTRAIN[-1][5]

    def run(route, service, trip_id, start, south, express):
        minutes = [(s[0], s[5] if express else s[4]) for s in CALTRAIN if not express or s[5] is not None]
        end = express_end if express else local_end
        if south:
            calls = [(sid + "-sb", start + m) for sid, m in minutes]
            feed.trip(route, service, trip_id, "San Jose Diridon", 0, calls)
        else:
            calls = [(sid + "-nb", start + end - m) for sid, m in reversed(minutes)]
            feed.trip(route, service, trip_id, "San Francisco", 1, calls)

    n = 0
    for start in range(hhmm("05:35"), hhmm("22:36"), 30):
        n += 1
        run("LOCAL", "WK", "L%03d" % n, start, True, False)
        run("LOCAL", "WK", "L%03dN" % n, start - 5, False, False)
    for k, start in enumerate(range(hhmm("06:15"), hhmm("19:16"), 60), start=1):
        run("EXPRESS", "WK", "X%03d" % k, start, True, True)
        run("EXPRESS", "WK", "X%03dN" % k, start + 30, False, True)
    for k, start in enumerate(range(hhmm("07:05"), hhmm("22:06"), 60), start=1):
        run("LOCAL", "WE", "W%03d" % k, start, True, False)
        run("LOCAL", "WE", "W%03dN" % k, start + 20, False, False)
    return feed


def border():
    renfe = Feed("RENFE", "Renfe Viajeros", "https://www.renfe.com", "Europe/Madrid", "es")
    renfe.table("stops.txt", "stop_id,stop_name,stop_lat,stop_lon",
                [(sid, name, "%.6f" % lat, "%.6f" % lon) for sid, name, lat, lon, _ in RENFE])
    renfe.table("routes.txt", "route_id,agency_id,route_short_name,route_long_name,route_type",
                [("R-VGO-VAL", "RENFE", "R", "Vigo - Valença", 2)])
    cp = Feed("CP", "CP Comboios de Portugal", "https://www.cp.pt", "Europe/Lisbon", "pt")
    cp.table("stops.txt", "stop_id,stop_name,stop_lat,stop_lon",
             [(sid, name, "%.6f" % lat, "%.6f" % lon) for sid, name, lat, lon, _ in CP])
    cp.table("routes.txt", "route_id,agency_id,route_short_name,route_long_name,route_type",
             [("MINHO", "CP", "R", "Linha do Minho: Valença - Porto", 2)])
    renfe_end, cp_end = RENFE[-1][4], CP[-1][4]
    # Each clock as its agency prints it: Renfe's in Madrid time, CP's in Lisbon time (an hour behind).
    for service in ("WK", "WE"):
        for n, start in enumerate(["07:40", "11:40", "15:40", "19:40"], start=1):
            renfe.trip("R-VGO-VAL", service, "R%s%d" % (service, n), "Valença", 0, [(s[0], hhmm(start) + s[4]) for s in RENFE])
        for n, start in enumerate(["09:50", "13:50", "18:50", "20:35"], start=1):
            renfe.trip("R-VGO-VAL", service, "R%s%dN" % (service, n), "Vigo Guixar", 1,
                       [(s[0], hhmm(start) + renfe_end - s[4]) for s in reversed(RENFE)])
        for n, start in enumerate(["07:48", "11:48", "15:48", "19:48"], start=1):
            cp.trip("MINHO", service, "C%s%d" % (service, n), "Porto Campanhã", 0, [(s[0], hhmm(start) + s[4]) for s in CP])
        for n, start in enumerate(["06:00", "10:00", "16:00"], start=1):
            cp.trip("MINHO", service, "C%s%dN" % (service, n), "Valença", 1,
                    [(s[0], hhmm(start) + cp_end - s[4]) for s in reversed(CP)])
    return renfe, cp


def protobuf():
    """scripts/make-gtfs-rt-fixture.py's protobuf writer (its functions, not its output)."""
    spec = importlib.util.spec_from_file_location("rt", os.path.join(HERE, "make-gtfs-rt-fixture.py"))
    pb = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pb)
    return pb


def late(trip, stop, delay, clock, offset_hours):
    """TripUpdates at `clock` (HH:MM on 2026-11-23, UTC+offset): `trip` late by `delay` s from its first stop."""
    pb = protobuf()
    h, m = (int(p) for p in clock.split(":"))
    now = int(datetime(2026, 11, 23, h, m, tzinfo=timezone(timedelta(hours=offset_hours))).timestamp())
    header = pb.message(1, pb.text(1, "2.0"), pb.uint(2, 0), pb.uint(3, now))
    return header + pb.entity(trip.lower(), pb.message(3, pb.trip(trip), pb.stop_update(sequence=1, stop=stop, delay=delay), pb.uint(4, now - 30)))


def main():
    for folder, name, data in [("bay", "caltrain-realtime.pb", late("L005", "sf-sb", 300, "07:40", -8)),
                               ("border", "renfe-late-10.pb", late("RWK1", "VGO", 600, "07:45", 1)),
                               ("border", "renfe-late-15.pb", late("RWK1", "VGO", 900, "07:45", 1))]:
        os.makedirs(os.path.join(OUT, folder), exist_ok=True)
        with open(os.path.join(OUT, folder, name), "wb") as f:
            f.write(data)
    bart().write(os.path.join(OUT, "bay", "bart"))
    caltrain().write(os.path.join(OUT, "bay", "caltrain"))
    renfe, cp = border()
    renfe.write(os.path.join(OUT, "border", "renfe"))
    cp.write(os.path.join(OUT, "border", "cp"))


if __name__ == "__main__":
    main()
