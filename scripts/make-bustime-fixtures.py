#!/usr/bin/env python3
"""Builds the BusTime recordings in Fixtures/cta and Fixtures/mbus.

transit asks for `format=json` from v3. The real CTA captures in
../shared/reference/bustime/samples are mostly v2 XML, so those are converted here to
BusTime's JSON shape, with the value types FORMAT.md §2 records (prd: strings but dstp int
and dly bool; vehicle: lat/lon/hdg strings, pid/pdist/spd ints; stops and patterns: numbers).
No real Magic Bus BusTime capture exists, so its vehicles are hand-made in the same shape
from the real positions of the 2010 legacy location feed (../shared/reference/mbus).
The facts (routes, stops, patterns, predictions, vehicles) are written by json.dumps in
BusTime's JSON shape, never a capture's bytes. Deterministic: running it twice writes the same
bytes (a test compares them with Fixtures/).

usage: python3 scripts/make-bustime-fixtures.py [OUT_DIR] [path/to/shared/reference]
       (OUT_DIR holds cta/ and mbus/; default Fixtures)
"""
import json, os, sys, xml.etree.ElementTree as ET
import recording

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "Fixtures")
SHARED = sys.argv[2] if len(sys.argv) > 2 else os.environ.get("TRANSIT_REFERENCE", os.path.join(ROOT, "..", "shared", "reference"))
BT = os.path.join(SHARED, "bustime", "samples")
MB = os.path.join(SHARED, "mbus", "samples")

INTS = {"prd": {"dstp"}, "vehicle": {"pid", "pdist", "spd"}, "ptr": {"pid"}, "pt": {"seq"}}
FLOATS = {"stop": {"lat", "lon"}, "ptr": {"ln"}, "pt": {"lat", "lon", "pdist"}}
BOOLS = {"dly"}
LISTS = {"prd": "prd", "vehicle": "vehicle", "stop": "stops", "ptr": "ptr", "sb": "sb", "error": "error", "route": "routes"}


def convert(el, kind=None):
    obj = {}
    for child in el:
        if len(child):
            sub = convert(child, child.tag)
            if child.tag == "pt":
                obj.setdefault("pt", []).append(sub)
            elif child.tag == "srvc":
                obj.setdefault("srvc", []).append(sub)
            else:
                obj[child.tag] = sub
            continue
        text = (child.text or "").strip()
        if child.tag in BOOLS:
            obj[child.tag] = text == "true"
        elif child.tag in INTS.get(kind, ()):
            obj[child.tag] = int(float(text)) if text else 0
        elif child.tag in FLOATS.get(kind, ()):
            obj[child.tag] = float(text) if text else 0.0
        else:
            obj[child.tag] = text
    return obj


def from_xml(name):
    root = ET.parse(os.path.join(BT, name)).getroot()
    out = {}
    for child in root:
        out.setdefault(LISTS.get(child.tag, child.tag), []).append(convert(child, child.tag))
    return {"bustime-response": out}


def write(provider, function, query, body, notes):
    parts = "&".join("%s=%s" % (k, v) for k, v in sorted(query.items()))
    q = "&".join(["key=REDACTED", "format=json"] + ["%s=%s" % kv for kv in query.items() if kv[0] != "format"])
    base = {"cta": "https://www.ctabustracker.com/bustime/api/v3", "mbus": "https://mbus.ltp.umich.edu/bustime/api/v3"}[provider]
    recording.write(os.path.join(OUT, provider, function, parts + ".http"),
                    json.dumps(body, indent="\t", ensure_ascii=False).encode() + b"\n",
                    ["GET %s/%s?%s" % (base, function, q)] + notes, "application/json; charset=utf-8")


def main():
    conv = "converted from XML to BusTime's JSON shape by scripts/make-bustime-fixtures.py"
    write("cta", "getpredictions", {"format": "json", "rt": "22", "stpid": "15895"}, from_xml("cta-v2-getpredictions-rt22-stpid15895.xml"),
          ["origin: shared/reference/bustime/samples/cta-v2-getpredictions-rt22-stpid15895.xml (real CTA v2 capture, 2015-02-14)", conv])
    write("cta", "getvehicles", {"format": "json", "rt": "22"}, from_xml("cta-v2-getvehicles-rt22.xml"),
          ["origin: shared/reference/bustime/samples/cta-v2-getvehicles-rt22.xml (real CTA v2 capture, 2015-02-14)", conv])
    write("cta", "getstops", {"format": "json", "rt": "22", "dir": "Northbound"}, from_xml("cta-v2-getstops-rt22-northbound.xml"),
          ["origin: shared/reference/bustime/samples/cta-v2-getstops-rt22-northbound.xml (real CTA v2 capture)", conv])
    write("cta", "getpatterns", {"format": "json", "rt": "22"}, from_xml("cta-v2-getpatterns-rt22.xml"),
          ["origin: shared/reference/bustime/samples/cta-v2-getpatterns-rt22.xml (real CTA v2 capture)", conv])
    with open(os.path.join(BT, "cta-v3-getroutes-scraper-envelope.json")) as f:
        routes = json.load(f)["requests"][0]["response"]
    write("cta", "getroutes", {"format": "json"}, routes,
          ["origin: shared/reference/bustime/samples/cta-v3-getroutes-scraper-envelope.json (real CTA v3 answer, 2025-01-07), the response inside the scraper's envelope"])
    write("cta", "getdirections", {"format": "json", "rt": "22"},
          {"bustime-response": {"directions": [{"id": "Northbound", "name": "Northbound"}, {"id": "Southbound", "name": "Southbound"}]}},
          ["origin: hand-made in the v3 {id, name} shape of BusTime's guide; the directions are those of the real",
           "v2 capture shared/reference/bustime/samples/cta-v2-getdirections-rt22.xml"])
    write("cta", "getservicebulletins", {"format": "json", "rt": "22"},
          {"bustime-response": {"sb": [
              {"nm": "Clark/Belmont stop relocation", "sbj": "#22 Clark: temporary stop relocation at Belmont",
               "dtl": "Northbound #22 buses will stop on the far side of Belmont.<br/>Allow extra time.", "brf": "", "prty": "Medium",
               "srvc": [{"rt": "22", "rtdir": "Northbound", "stpid": "", "stpnm": ""}]},
              {"nm": "Clark reroute", "sbj": "#22 Clark reroute near Harrison", "dtl": "Buses are rerouted via Dearborn due to a water main break.",
               "brf": "", "prty": "High", "srvc": [{"rt": "22", "rtdir": "", "stpid": "", "stpnm": ""}]},
              {"nm": "Winter weather", "sbj": "Allow extra travel time", "dtl": "Snow may slow service system-wide.", "brf": "", "prty": "Low", "srvc": []},
          ]}},
          ["origin: hand-made in the shape of shared/reference/bustime/samples/cta-v2-getservicebulletins-rt8.xml",
           "and fairfax-v3-getservicebulletins.json (High/Medium/Low, HTML in dtl, an empty srvc = system-wide)"])

    # Magic Bus: vehicles of route BB (Bursley-Baits) in BusTime v3 shape from the legacy feed's real positions.
    feed = ET.parse(os.path.join(MB, "mbus-legacy-location_feed.xml")).getroot()
    vehicles = []
    for item in feed.findall("item"):
        if not (item.findtext("route") or "").startswith("Bursley-Baits"):
            continue
        vehicles.append({"vid": item.findtext("id"), "tmstmp": "20261122 14:05", "lat": item.findtext("latitude"),
                         "lon": item.findtext("longitude"), "hdg": item.findtext("heading"), "pid": 101, "rt": "BB",
                         "des": "Bursley", "pdist": 1000 * len(vehicles), "dly": False, "tatripid": "", "tablockid": "",
                         "zone": "", "mode": 1, "psgld": "N/A", "origtatripno": "", "stst": 0, "stsd": "2026-11-22"})
    write("mbus", "getvehicles", {"format": "json", "rt": "BB"}, {"bustime-response": {"vehicle": vehicles}},
          ["origin: hand-made in BusTime v3 vehicle shape (FORMAT.md §4 getvehicles); positions, ids and headings are",
           "the real Bursley-Baits buses of shared/reference/mbus/samples/mbus-legacy-location_feed.xml (2010);",
           "no real Magic Bus BusTime capture exists"])


def feet(a, b):
    import math
    r = 20902231.0
    p1, p2 = math.radians(a[0]), math.radians(b[0])
    dp, dl = p2 - p1, math.radians(b[1] - a[1])
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * r * math.atan2(math.sqrt(h), math.sqrt(1 - h))


def project(point, line):
    """Distance along `line` (list of (lat, lon, pdist)) of the nearest point to `point`."""
    import math
    best = None
    for (a, b) in zip(line, line[1:]):
        # flat projection in a local frame (feet), fine over a few hundred metres
        kx = math.cos(math.radians(a[0])) * 364000.0
        ky = 364000.0
        ax, ay = 0.0, 0.0
        bx, by = (b[1] - a[1]) * kx, (b[0] - a[0]) * ky
        px, py = (point[1] - a[1]) * kx, (point[0] - a[0]) * ky
        seg = bx * bx + by * by
        t = 0.0 if seg == 0 else max(0.0, min(1.0, (px * bx + py * by) / seg))
        dx, dy = px - t * bx, py - t * by
        d = math.hypot(dx, dy)
        along = a[2] + t * (b[2] - a[2])
        if best is None or d < best[0]:
            best = (d, along)
    return best[1]


def magic_bus_eta_set():
    """The night commuter loop of the 2010 legacy feeds as BusTime answers: its two legs'
    ordered stops (real positions) as one pattern, the buses of the location feed (real
    positions) placed on their leg, and the feed's own arrival times (toa, seconds) as predictions."""
    public = ET.parse(os.path.join(MB, "mbus-legacy-public_feed.xml")).getroot()
    legs = ["Commuter Southbound (Nights)", "Commuter Northbound (Nights)"]
    routes = {r.findtext("name"): r for r in public.findall("route")}
    points, lines, total, prev, seq = [], {}, 0.0, None, 0
    stop_rows = []
    for leg in legs:
        lines[leg] = []
        for st in routes[leg].findall("stop"):
            lat, lon = float(st.findtext("latitude")), float(st.findtext("longitude"))
            if prev is not None:
                total += feet(prev, (lat, lon))
            prev = (lat, lon)
            seq += 1
            sid = "C%03d" % (500 + seq)
            points.append({"seq": seq, "lat": lat, "lon": lon, "typ": "S", "stpid": sid, "stpnm": st.findtext("name"), "pdist": round(total, 1)})
            lines[leg].append((lat, lon, total))
            stop_rows.append((sid, st))
    pattern = {"bustime-response": {"ptr": [{"pid": 501, "ln": round(total, 1), "rtdir": "LOOP", "pt": points}]}}
    capture = "20101115 22:00"
    # The location feed's positions disagree with the public feed's arrival times (bus 111 is
    # 32 s from Huron and Hubbard in one and at Crisler Arena in the other), so each bus is
    # placed from the arrival times alone: short of its next stop by the seconds it needs at
    # 15 ft/s, on the line between that stop and the one before.
    soonest = {}
    for index, (sid, st) in enumerate(stop_rows):
        for k in range(1, int(st.findtext("toacount") or "0") + 1):
            vid, toa = st.findtext("id%d" % k), float(st.findtext("toa%d" % k))
            if vid not in soonest or toa < soonest[vid][0]:
                soonest[vid] = (toa, index)
    vehicles = []
    for vid, (toa, index) in sorted(soonest.items(), key=lambda kv: int(kv[0])):
        nxt = points[index]
        before = points[index - 1] if index > 0 else nxt
        back = min(toa * 15.0, nxt["pdist"] - before["pdist"])
        t = 0.0 if nxt["pdist"] == before["pdist"] else 1 - back / (nxt["pdist"] - before["pdist"])
        lat = before["lat"] + t * (nxt["lat"] - before["lat"])
        lon = before["lon"] + t * (nxt["lon"] - before["lon"])
        vehicles.append({"vid": vid, "tmstmp": capture, "lat": "%.6f" % lat, "lon": "%.6f" % lon, "hdg": "0", "pid": 501, "rt": "CM",
                         "des": "Commuter loop", "pdist": int(round(nxt["pdist"] - back)), "dly": False,
                         "tatripid": "", "tablockid": "", "zone": ""})
    by_stop, by_vid = {}, []
    for sid, st in stop_rows:
        n = int(st.findtext("toacount") or "0")
        for k in range(1, n + 1):
            toa = float(st.findtext("toa%d" % k))
            minutes = 22 * 60 + toa / 60.0
            t = "201011%02d %02d:%02d:%02d" % (15 + int(minutes // 1440), int(minutes // 60) % 24, int(minutes % 60), int(toa % 60))
            prd = {"tmstmp": capture + ":00", "typ": "A", "stpnm": st.findtext("name"), "stpid": sid, "vid": st.findtext("id%d" % k),
                   "dstp": 0, "rt": "CM", "rtdd": "CM", "rtdir": "LOOP", "des": "Commuter loop", "prdtm": t,
                   "tablockid": "", "tatripid": "", "dly": False, "prdctdn": str(int(toa // 60)) if toa >= 60 else "DUE", "zone": ""}
            by_stop.setdefault(sid, []).append(prd)
            by_vid.append(prd)
    notes = ["origin: the 2010 legacy Magic Bus feed shared/reference/mbus/samples/mbus-legacy-public_feed.xml, put in BusTime v3",
             "shape by scripts/make-bustime-fixtures.py: stop names and positions and the buses' arrival times (toa) are real;",
             "the route id CM (the night commuter loop: the Southbound leg, then the Northbound leg), stop ids C501…, pattern",
             "distances (chained stop-to-stop great-circle feet), each bus's position (short of its next stop by its toa at",
             "15 ft/s) and the clock (2010-11-15 22:00) are made here; hand-built because no Magic Bus BusTime capture exists"]
    write("mbus", "getpatterns", {"format": "json", "rt": "CM"}, pattern, notes)
    write("mbus", "getvehicles", {"format": "json", "rt": "CM"}, {"bustime-response": {"vehicle": vehicles}}, notes)
    vids = sorted({p["vid"] for p in by_vid}, key=int)
    write("mbus", "getpredictions", {"format": "json", "vid": ",".join(vids)}, {"bustime-response": {"prd": by_vid}}, notes)
    for sid, prds in by_stop.items():
        write("mbus", "getpredictions", {"format": "json", "stpid": sid}, {"bustime-response": {"prd": prds}}, notes)


if __name__ == "__main__":
    main()
    magic_bus_eta_set()
