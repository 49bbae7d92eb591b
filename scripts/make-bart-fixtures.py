#!/usr/bin/env python3
"""Builds the BART recordings in Fixtures/bart from ../shared/reference/bart/samples.

Real captures are copied byte for byte (leading whitespace kept: the parser must cope).
No raw XML `routesched` capture exists (FORMAT.md §7.1), so route schedules for the
bundled date are synthesized here in exactly BART's routesched XML shape, using the real
2018 route configs and station coordinates for run times. Deterministic: re-running it
rewrites the same bytes.

usage: python3 scripts/make-bart-fixtures.py [path/to/shared/reference/bart/samples]
"""
import math, os, re, sys, xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SAMPLES = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "reference", "bart", "samples")
OUT = os.path.join(ROOT, "Fixtures", "bart")
DATE = (11, 23, 2026)  # the bundled service day (a Monday)


def read(name):
    with open(os.path.join(SAMPLES, name), "rb") as f:
        return f.read()


def write(rel, body, notes, content_type="text/xml; charset=utf-8"):
    path = os.path.join(OUT, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    head = "".join("# %s\n" % n for n in notes)
    head += "status: 200\ncontent-type: %s\n\n" % content_type
    with open(path, "wb") as f:
        f.write(head.encode() + body)


def clock(minutes):
    m = minutes % 1440
    h, mm = divmod(m, 60)
    return "%d:%02d %s" % (h % 12 or 12, mm, "AM" if h < 12 else "PM")


def main():
    stns = read("derived/stns-2021.from-json.xml")
    routeinfo = read("derived/routeinfo-all-2018.from-json.xml")
    write("stn.aspx/cmd=stns.http", stns,
          ["GET https://api.bart.gov/api/stn.aspx?cmd=stns&key=REDACTED",
           "origin: shared/reference/bart/samples/derived/stns-2021.from-json.xml (real Dec 2021 capture, XML form)"])
    slash = "%02d-%02d-%04d" % DATE
    for rel, note in [("route.aspx/cmd=routeinfo&route=all.http", "route=all"),
                      ("route.aspx/cmd=routeinfo&date=%s&route=all.http" % slash, "route=all&date=%02d/%02d/%04d" % DATE)]:
        write(rel, routeinfo,
              ["GET https://api.bart.gov/api/route.aspx?cmd=routeinfo&%s&key=REDACTED" % note,
               "origin: shared/reference/bart/samples/derived/routeinfo-all-2018.from-json.xml (real Feb 2018 capture, XML form), served for this date"])

    coords = {}
    for st in ET.fromstring(stns).iter("station"):
        coords[st.findtext("abbr")] = (float(st.findtext("gtfs_latitude")), float(st.findtext("gtfs_longitude")))

    def run_minutes(a, b):
        (la1, lo1), (la2, lo2) = coords[a], coords[b]
        dx = (lo2 - lo1) * 111.3 * math.cos(math.radians((la1 + la2) / 2))
        dy = (la2 - la1) * 111.3
        return max(2, round(math.hypot(dx, dy) / 0.9) + 1)  # ~54 km/h plus a minute's dwell

    for route in ET.fromstring(routeinfo).iter("route"):
        number = int(route.findtext("number"))
        config = [s.text for s in route.find("config")]
        first_dep = 4 * 60 + 50 + (number * 3) % 15
        headway = 15 if number not in (19, 20) else 6
        trains = []
        t = first_dep
        index = 1
        while t <= 24 * 60 + 20:  # last departures run past midnight
            start, end = 0, len(config)
            if index <= 2 and len(config) > 6:
                start = 3  # the first trains of the day start mid-line, like the real route 6
            if number == 1 and index % 3 == 0:
                end = len(config) - 1  # every third Yellow train ends at SFIA and skips MLBR
            stops = []
            clock_t = t
            for i, station in enumerate(config):
                if i > 0:
                    clock_t += run_minutes(config[i - 1], station)
                if start <= i < end:
                    stops.append('<stop station="%s" load="1" level="normal" origTime="%s" bikeflag="1" />' % (station, clock(clock_t)))
                else:
                    stops.append('<stop station="%s" load="" level="" bikeflag="1" />' % station)
            trains.append('<train index="%d">%s</train>' % (index, "".join(stops)))
            index += 1
            t += headway if t < 19 * 60 else headway + 5
        body = ('<?xml version="1.0" encoding="utf-8"?><root><uri><![CDATA[http://api.bart.gov/api/sched.aspx?cmd=routesched&route=%d&date=%02d/%02d/%04d]]></uri>'
                '<date>%d/%d/%d</date><route>%s</route><message></message></root>') % (
            number, DATE[0], DATE[1], DATE[2], DATE[0], DATE[1], DATE[2], "".join(trains))
        write("sched.aspx/cmd=routesched&date=%s&route=%d.http" % (slash, number), body.encode(),
              ["GET https://api.bart.gov/api/sched.aspx?cmd=routesched&route=%d&date=%02d/%02d/%04d&key=REDACTED" % ((number,) + DATE),
               "origin: synthesized by scripts/make-bart-fixtures.py in BART's routesched XML shape",
               "(shape of shared/reference/bart/samples/derived/routesched-route6-2018.from-json.xml; no raw XML capture exists)"])

    write("etd.aspx/cmd=etd&orig=POWL.http", read("derived/etd-powl-2018.from-json.xml"),
          ["GET https://api.bart.gov/api/etd.aspx?cmd=etd&orig=POWL&key=REDACTED",
           "origin: shared/reference/bart/samples/derived/etd-powl-2018.from-json.xml (real Nov 2018 capture, XML form)"])
    write("bsa.aspx/cmd=bsa.http", read("bsa-delay-2013.xml"),
          ["GET https://api.bart.gov/api/bsa.aspx?cmd=bsa&key=REDACTED",
           "origin: shared/reference/bart/samples/bsa-delay-2013.xml (real 2013 capture; leading newline and iso-8859-1 kept)"])
    write("sched.aspx/a=1&b=0&cmd=depart&date=01-02-2018&dest=CIVC&orig=ASHB&time=10:10am.http",
          read("derived/depart-ashb-civc-docs-2018.from-json.xml"),
          ["GET https://api.bart.gov/api/sched.aspx?cmd=depart&orig=ASHB&dest=CIVC&date=01/02/2018&time=10:10am&b=0&a=1&key=REDACTED",
           "origin: shared/reference/bart/samples/derived/depart-ashb-civc-docs-2018.from-json.xml (BART docs example, XML form)"])


if __name__ == "__main__":
    main()
