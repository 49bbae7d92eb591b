#!/usr/bin/env python3
"""Writes a national GTFS network of our own making (issue 47): a country of towns of Zipf sizes,
each with its buses and trams on a grid of streets, regional rail between neighbouring towns,
intercity rail between the largest. Deterministic by seed: the same SEED and SCALE write the same
bytes on every machine.

    scripts/make-national-gtfs.py SEED SCALE OUT_DIR

SCALE 1 is the full size (about 250,000 stops, 4,000 towns, 23 million stop events on a weekday,
45-50 million rows of stop_times.txt); a smaller SCALE keeps every (1/SCALE)-th town by rank, the
middle one of each block of ranks, so that 0.02 is a 1/50 country with towns of every size class
and 0.002 a 1/500 one. What it holds:

- Towns: rank k has max(6, 6400 / k^0.7) stops, placed at random in a box the size of Germany
  (47.3-55.0 N, 5.9-15.0 E; a smaller SCALE its sides times the square root of SCALE, as dense),
  none closer to another than their radii and 3 km. A town's stops lie
  on a square grid of streets 400 m apart (jittered by up to 40 m). Lines run to the middle, by
  the station: from each end of every row along the row to the middle column, then along it to
  the middle stop (every stop one ride from the station); in towns of 1,500 stops or more every
  fourth line is a tram.
  Headways by the town's size (15 minutes from 3,000 stops, 20 from 1,000, 30 from 300, 40 from
  100, else 60), both ways, first departures from 05:00, last before 01:00; 6 m/s between stops,
  whole minutes.
- Rail: every town has a station (a parent station with two platforms, beside its central
  street stop). The 5 % largest towns (at least four) are hubs; every other town belongs to its
  nearest hub, and regional lines leave each hub through its towns (3-9 towns a line, each next
  the nearest not yet on a line), so that every town is one regional ride from its hub; one town
  in ten also has a line between its two nearest neighbours through it. Every 30 or 60 minutes
  from 05:00 to 24:00, at 22 m/s over 1.2 times the straight line, a minute at each call, from
  platform 1. Intercity lines chain 4-8 hubs along random axes (half as many lines as hubs), and
  the nearest hubs of any two pieces they leave apart are joined by a line of two; every 60 or
  120 minutes from 06:00 to 22:00 at 45 m/s over 1.25 times the straight line, two minutes at
  each call, from platform 2.
- transfers.txt: at the stations of towns of 300 stops or more, 4 minutes (type 2) between its
  platforms and from each platform to the central street stop.
- Calendar, from 2026-12-01 to 2027-05-31 (Europe/Berlin): weekday trips (Monday to Friday,
  WD) and weekend trips (Saturday and Sunday, every other departure of the weekday's, WE); public
  holidays run the weekend service. Half the lines (chosen by seed) write their weekday trips
  twice: outside the school holidays (WN) and again, the same times, for the weekdays of the
  school holidays (WS): trips that differ only in their calendar, as the Swiss and German feeds
  write them.
"""
import math, os, random, sys

if len(sys.argv) != 4:
    sys.exit("usage: make-national-gtfs.py SEED SCALE OUT_DIR")
SEED, SCALE, OUT = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
if not 0 < SCALE <= 1:
    sys.exit("SCALE is a number in (0, 1]")
rng = random.Random(SEED)

TOWNS = 4000
# Germany's box at SCALE 1; a smaller country keeps the towns as dense (its sides times the
# square root of SCALE, about the same middle).
MIDDLE_LAT, MIDDLE_LON, HALF_LAT, HALF_LON = 51.15, 10.45, 3.85 * math.sqrt(SCALE), 4.55 * math.sqrt(SCALE)
LAT0, LAT1, LON0, LON1 = MIDDLE_LAT - HALF_LAT, MIDDLE_LAT + HALF_LAT, MIDDLE_LON - HALF_LON, MIDDLE_LON + HALF_LON
SPACING = 400.0
M_LAT = 111_320.0


def m_lon(lat):
    return 111_320.0 * math.cos(math.radians(lat))


def meters(a, b):
    """Great-circle meters between (lat, lon) pairs (R = 6,371,008.8 m)."""
    la1, lo1, la2, lo2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * 6_371_008.8 * math.asin(min(1.0, math.sqrt(h)))


def clock(seconds):
    return "%02d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)


# Towns: the middle rank of each block of 1/SCALE ranks.
count = max(1, round(TOWNS * SCALE))
block = TOWNS / count
ranks = [int(block * j + block / 2) + 1 for j in range(count)]
SYLLABLES = ["ber", "lin", "ham", "burg", "mün", "chen", "köln", "frank", "furt", "stutt", "gart", "düssel", "dorf", "leip", "zig",
             "dort", "mund", "es", "sen", "bre", "men", "dres", "den", "han", "no", "ver", "nürn", "berg", "du", "is", "bo", "chum",
             "wup", "per", "tal", "bie", "le", "feld", "bonn", "müns", "ter", "karls", "ruhe", "mann", "heim", "augs", "wies", "baden"]
towns = []
names = set()
for k in ranks:
    stops = max(6, round(6400 / k ** 0.7))
    side = math.ceil(math.sqrt(stops))
    radius = side * SPACING / 2 * 1.5
    for _ in range(10_000):
        lat, lon = rng.uniform(LAT0, LAT1), rng.uniform(LON0, LON1)
        if all(meters((lat, lon), (t["lat"], t["lon"])) > radius + t["radius"] + 3000 for t in towns):
            break
    while True:
        name = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize()
        if name not in names:
            names.add(name)
            break
    towns.append({"rank": k, "stops": stops, "side": side, "radius": radius, "lat": lat, "lon": lon, "name": name})

os.makedirs(OUT, exist_ok=True)


def open_csv(name, header):
    f = open(os.path.join(OUT, name), "w", encoding="utf-8", newline="")
    f.write(header + "\n")
    return f


with open_csv("agency.txt", "agency_id,agency_name,agency_url,agency_timezone,agency_lang") as f:
    f.write("NV,Nationalverkehr (generated),https://example.org/national,Europe/Berlin,de\n")
    f.write("RV,Regionalverkehr (generated),https://example.org/regional,Europe/Berlin,de\n")

# Stops: each town's grid, its station and two platforms.
stops_f = open_csv("stops.txt", "stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,platform_code")
grid = []  # per town: {(row, col): (stop_id, lat, lon)}
stop_count = 0
for t, town in enumerate(towns):
    side, here = town["side"], {}
    kept = town["stops"]
    for r in range(side):
        for c in range(side):
            if len(here) >= kept:
                break
            dy = (r - (side - 1) / 2) * SPACING + rng.uniform(-40, 40)
            dx = (c - (side - 1) / 2) * SPACING + rng.uniform(-40, 40)
            lat = town["lat"] + dy / M_LAT
            lon = town["lon"] + dx / m_lon(town["lat"])
            sid = "t%d_%d_%d" % (t, r, c)
            here[(r, c)] = (sid, lat, lon)
            stops_f.write("%s,%s %s %d,%.6f,%.6f,0,,\n" % (sid, town["name"], "Straße" if c % 2 else "Weg", r * side + c + 1, lat, lon))
    grid.append(here)
    stop_count += len(here)
    # The station 60 m north of the town's middle, its platforms 20 m either side.
    slat = town["lat"] + 60 / M_LAT
    stops_f.write("t%d_S,%s Hbf,%.6f,%.6f,1,,\n" % (t, town["name"], slat, town["lon"]))
    for p in (1, 2):
        stops_f.write("t%d_P%d,%s Hbf,%.6f,%.6f,0,t%d_S,%d\n" % (t, p, town["name"], slat, town["lon"] + (p * 2 - 3) * 20 / m_lon(town["lat"]), t, p))
    stop_count += 3
stops_f.close()

# Services: weekday, weekend (and public holidays), the school-holiday weekday variant.
FIRST, LAST = "20261201", "20270531"
PUBLIC = ["20261225", "20261226", "20270101", "20270402", "20270405", "20270501", "20270513", "20270524"]
SCHOOL = ["202612%02d" % d for d in range(21, 32)] + ["202701%02d" % d for d in range(1, 6)] + ["202704%02d" % d for d in range(6, 17)]


def weekday(date):
    import datetime
    return datetime.date(int(date[:4]), int(date[4:6]), int(date[6:])).weekday()


with open_csv("calendar.txt", "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date") as f:
    f.write("WD,1,1,1,1,1,0,0,%s,%s\n" % (FIRST, LAST))
    f.write("WN,1,1,1,1,1,0,0,%s,%s\n" % (FIRST, LAST))
    f.write("WE,0,0,0,0,0,1,1,%s,%s\n" % (FIRST, LAST))
    f.write("WS,0,0,0,0,0,0,0,%s,%s\n" % (FIRST, LAST))
with open_csv("calendar_dates.txt", "service_id,date,exception_type") as f:
    for d in sorted(set(PUBLIC + SCHOOL)):
        if weekday(d) >= 5:
            continue
        if d in PUBLIC:
            f.write("WD,%s,2\nWN,%s,2\nWE,%s,1\n" % (d, d, d))
        else:
            # A school-holiday weekday: the lines with a variant run it (WS) instead of their
            # weekday trips (WN); the other lines' weekday trips (WD) run as every weekday.
            f.write("WN,%s,2\nWS,%s,1\n" % (d, d))

routes_f = open_csv("routes.txt", "route_id,agency_id,route_short_name,route_long_name,route_type")
trips_f = open_csv("trips.txt", "route_id,service_id,trip_id,direction_id")
times_f = open_csv("stop_times.txt", "trip_id,arrival_time,departure_time,stop_id,stop_sequence")
rows = 0
weekday_events = 0
route_count = 0
trip_count = 0
buffer = []


def flush(force=False):
    global buffer
    if force or len(buffer) > 20_000:
        times_f.write("".join(buffer))
        buffer = []


def line(route_id, calls, headway, first, last, dwell, variant, weekend):
    """Trips both ways along `calls` ((stop_id, seconds from the first call) pairs), every
    `headway` seconds from `first` to `last`: under WD, or where `variant` under WN and again,
    the same times, under WS; and every other one under WE where `weekend`."""
    global rows, weekday_events, trip_count
    total = calls[-1][1]
    for direction in (0, 1):
        seq = calls if direction == 0 else [(s, total - t) for s, t in reversed(calls)]
        k = 0
        start = first
        while start < last:
            services = (["WN", "WS"] if variant else ["WD"]) + (["WE"] if weekend and k % 2 == 0 else [])
            for service in services:
                trip = "%s_%d_%d_%s" % (route_id, direction, k, service)
                trips_f.write("%s,%s,%s,%d\n" % (route_id, service, trip, direction))
                trip_count += 1
                for n, (stop, offset) in enumerate(seq):
                    arrive = start + offset
                    depart = arrive + (dwell if 0 < n < len(seq) - 1 else 0)
                    buffer.append("%s,%s,%s,%s,%d\n" % (trip, clock(arrive), clock(depart), stop, n + 1))
                rows += len(seq)
                if service in ("WD", "WN"):
                    weekday_events += len(seq)
                flush()
            start += headway
            k += 1


def headway(stops):
    for size, minutes in ((3000, 15), (1000, 20), (300, 30), (100, 40)):
        if stops >= size:
            return minutes * 60
    return 3600


# Each town's lines run to its middle, where its station is: from each end of every row along the
# row to the middle column, then along the middle column to the middle stop.
for t, town in enumerate(towns):
    here, side, mid = grid[t], town["side"], town["side"] // 2
    paths = []
    for r in range(side):
        toward = [(r2, mid) for r2 in (range(r + 1, mid + 1) if r < mid else range(r - 1, mid - 1, -1))]
        for half in (range(0, mid + 1), range(side - 1, mid - 1, -1)):
            cells = [(r, c) for c in half] + toward
            paths.append([here[cell] for cell in cells if cell in here])
    every = headway(town["stops"])
    for n, path in enumerate(p for p in paths if len(p) >= 2):
        tram = town["stops"] >= 1500 and n % 4 == 0
        route_id = "t%d_%s%d" % (t, "T" if tram else "B", n + 1)
        routes_f.write("%s,RV,%s%d,%s %s %d,%d\n" % (route_id, "T" if tram else "", n + 1, town["name"], "Tram" if tram else "Bus", n + 1, 0 if tram else 3))
        route_count += 1
        calls, at = [], 0
        for i, (sid, lat, lon) in enumerate(path):
            if i > 0:
                at += max(60, round(meters(path[i - 1][1:], (lat, lon)) / 6 / 60) * 60)
            calls.append((sid, at))
        line(route_id, calls, every, 5 * 3600 + rng.randrange(0, every // 60) * 60, 25 * 3600, 0, rng.random() < 0.5, True)

# Rail. Hubs: the 5 % largest towns (at least four). Each other town belongs to its nearest hub;
# regional lines leave each hub through its towns (from the hub to the nearest of them not yet on
# a line, then on to the nearest of the rest, 3-9 towns), so that every town is one regional ride
# from its hub; a few more chain neighbouring towns across. Intercity lines chain hubs along
# random axes, and join every hub to the nearest hub of another piece until they are one network.
places = [(town["lat"], town["lon"]) for town in towns]
COS = math.cos(math.radians((LAT0 + LAT1) / 2))


def flat(a, b):
    """Squared distance on a plane (for ranking neighbours only)."""
    return (places[a][0] - places[b][0]) ** 2 + ((places[a][1] - places[b][1]) * COS) ** 2


hubs = sorted(range(len(towns)), key=lambda t: -towns[t]["stops"])[:min(len(towns), max(4, len(towns) // 20))]
members = {h: [] for h in hubs}
for t in range(len(towns)):
    if t not in members:
        members[min(hubs, key=lambda h: (flat(t, h), h))].append(t)
regional_chains = []
for h in hubs:
    rest = sorted(members[h], key=lambda t: (flat(h, t), t))
    while rest:
        chain = [h, rest.pop(0)]
        for _ in range(rng.randint(1, 7)):
            if not rest:
                break
            nearest = min(rest, key=lambda t: (flat(chain[-1], t), t))
            rest.remove(nearest)
            chain.append(nearest)
        regional_chains.append(chain)
for _ in range(len(towns) // 10):
    a = rng.randrange(len(towns))
    others = sorted((t for t in range(len(towns)) if t != a), key=lambda t: (flat(a, t), t))[:2]
    if others:
        regional_chains.append([others[0], a] + others[1:])

intercity_chains = []
for _ in range(max(2, len(hubs) // 2)):
    angle = rng.uniform(0, math.pi)
    chosen = rng.sample(hubs, min(len(hubs), rng.randint(4, 8)))
    chosen.sort(key=lambda t: places[t][0] * math.cos(angle) + places[t][1] * COS * math.sin(angle))
    intercity_chains.append(chosen)
piece = {h: h for h in hubs}


def find(x):
    while piece[x] != x:
        piece[x] = piece[piece[x]]
        x = piece[x]
    return x


for chain in intercity_chains:
    for t in chain:
        piece[find(t)] = find(chain[0])
while len({find(h) for h in hubs}) > 1:
    root = find(hubs[0])
    _, a, b = min((flat(a, b), a, b) for a in hubs if find(a) == root for b in hubs if find(b) != root)
    piece[find(b)] = root
    intercity_chains.append([a, b])

def rail_calls(route_id, agency, name, chain, platform, dwell, detour, speed):
    """Writes a rail route through the towns of `chain` and returns its calls: from the given
    platform, `dwell` seconds at each call, `speed` m/s over `detour` times the straight line,
    rounded up to the minute."""
    global route_count
    routes_f.write("%s,%s,%s,%s - %s,2\n" % (route_id, agency, name, towns[chain[0]]["name"], towns[chain[-1]]["name"]))
    route_count += 1
    calls, at = [], 0
    for i, town in enumerate(chain):
        if i > 0:
            at += dwell + math.ceil(meters(places[chain[i - 1]], places[town]) * detour / speed / 60) * 60
        calls.append(("t%d_P%d" % (town, platform), at))
    return calls


regional = 0
for chain in regional_chains:
    regional += 1
    calls = rail_calls("R%d" % regional, "RV", "RB %d" % regional, chain, 1, 60, 1.2, 22)
    line("R%d" % regional, calls, rng.choice([1800, 3600]), 5 * 3600 + rng.randrange(0, 30) * 60, 24 * 3600, 60, rng.random() < 0.5, True)

intercity = 0
for chain in intercity_chains:
    intercity += 1
    calls = rail_calls("IC%d" % intercity, "NV", "IC %d" % intercity, chain, 2, 120, 1.25, 45)
    line("IC%d" % intercity, calls, rng.choice([3600, 7200]), 6 * 3600, 22 * 3600, 120, False, True)

flush(force=True)
routes_f.close()
trips_f.close()
times_f.close()

with open_csv("transfers.txt", "from_stop_id,to_stop_id,transfer_type,min_transfer_time") as f:
    for t, town in enumerate(towns):
        if town["stops"] < 300:
            continue
        middle = (town["side"] // 2, town["side"] // 2)
        central = grid[t].get(middle, next(iter(grid[t].values())))[0]
        for a, b in (("t%d_P1" % t, "t%d_P2" % t), ("t%d_P2" % t, "t%d_P1" % t), ("t%d_P1" % t, central), (central, "t%d_P1" % t),
                     ("t%d_P2" % t, central), (central, "t%d_P2" % t)):
            f.write("%s,%s,2,240\n" % (a, b))

print("national network seed %d scale %g: towns %d, stops %d, routes %d, regional lines %d, intercity lines %d, trips %d, "
      "stop_times rows %d, weekday stop events %d" % (SEED, SCALE, len(towns), stop_count, route_count, regional, intercity,
                                                      trip_count, rows, weekday_events))
