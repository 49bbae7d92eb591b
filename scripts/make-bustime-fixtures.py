#!/usr/bin/env python3
"""Builds the BusTime recordings in Fixtures/cta and Fixtures/mbus.

transit asks for `format=json` from v3. The real CTA captures in
../shared/reference/bustime/samples are mostly v2 XML, so those are converted here to
BusTime's JSON shape, with the value types FORMAT.md §2 records (prd: strings but dstp int
and dly bool; vehicle: lat/lon/hdg strings, pid/pdist/spd ints; stops and patterns: numbers).
No real Magic Bus BusTime capture exists, so its vehicles are hand-made in the same shape
from the real positions of the 2010 legacy location feed (../shared/reference/mbus).
Deterministic: re-running rewrites the same bytes.
"""
import json, os, sys, xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "reference")
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
    path = os.path.join(ROOT, "Fixtures", provider, function, parts + ".http")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    q = "&".join(["key=REDACTED", "format=json"] + ["%s=%s" % kv for kv in query.items() if kv[0] != "format"])
    base = {"cta": "https://www.ctabustracker.com/bustime/api/v3", "mbus": "https://mbus.ltp.umich.edu/bustime/api/v3"}[provider]
    head = "# GET %s/%s?%s\n" % (base, function, q) + "".join("# %s\n" % n for n in notes)
    head += "status: 200\ncontent-type: application/json; charset=utf-8\n\n"
    with open(path, "wb") as f:
        f.write(head.encode() + json.dumps(body, indent="\t", ensure_ascii=False).encode() + b"\n")


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


if __name__ == "__main__":
    main()
