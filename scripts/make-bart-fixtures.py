#!/usr/bin/env python3
"""Writes the BART recordings in Fixtures/bart, in BART's XML API shapes, from facts.

Facts read from ../shared/reference/bart/samples (station names, codes, addresses and
coordinates of 2021; the route configurations and colours of 2018; the trains listed at Powell
St. on 2018-11-20; the ASHB -> CIVC trip plan of BART's documentation) are written out by the
serializer below, in our own layout; no capture's bytes are copied. The advisory is our own
words. No raw XML `routesched` capture exists (FORMAT.md 7.1), so route schedules for the
bundled date are made here from the route configurations and station coordinates.
Deterministic: running it twice writes the same bytes (a test compares them with Fixtures/).

usage: python3 scripts/make-bart-fixtures.py [OUT_DIR] [path/to/shared/reference/bart/samples]
       (OUT_DIR holds bart/; default Fixtures)
"""
import math, os, re, sys, xml.etree.ElementTree as ET
import recording

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OUT = os.path.join(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "Fixtures"), "bart")
SAMPLES = (sys.argv[2] if len(sys.argv) > 2 else
           os.environ.get("TRANSIT_REFERENCE", os.path.join(ROOT, "..", "shared", "reference")) + "/bart/samples")
DATE = (11, 23, 2026)  # the bundled service day (a Monday)


def facts(name):
    return ET.parse(os.path.join(SAMPLES, name)).getroot()


def esc(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def xml(tag, content=None, attrs=(), depth=0):
    """One element, indented by depth: content is text, a list of elements, or None (empty)."""
    pad = "  " * depth
    attr = "".join(' %s="%s"' % (k, esc(v)) for k, v in attrs)
    if content is None:
        return "%s<%s%s />" % (pad, tag, attr)
    if isinstance(content, str):
        return "%s<%s%s>%s</%s>" % (pad, tag, attr, esc(content), tag)
    return "%s<%s%s>\n%s\n%s</%s>" % (pad, tag, attr, "\n".join(content), pad, tag)


def fields(element, names, depth):
    return [xml(n, element.findtext(n) or "", depth=depth) for n in names]


def document(uri, children, encoding="utf-8"):
    body = '<?xml version="1.0" encoding="%s"?>\n<root>\n  <uri><![CDATA[%s]]></uri>\n%s\n</root>\n' % (encoding, uri, "\n".join(children))
    return body.encode(encoding)


def write(rel, body, notes, content_type="text/xml; charset=utf-8"):
    recording.write(os.path.join(OUT, rel), body, notes, content_type)


def clock(minutes):
    m = minutes % 1440
    h, mm = divmod(m, 60)
    return "%d:%02d %s" % (h % 12 or 12, mm, "AM" if h < 12 else "PM")


def main():
    stations = facts("derived/stns-2021.from-json.xml")
    station_fields = ["name", "abbr", "gtfs_latitude", "gtfs_longitude", "address", "city", "county", "state", "zipcode"]
    stns = document("http://api.bart.gov/api/stn.aspx?cmd=stns", [xml("stations", [
        xml("station", fields(st, station_fields, 3), depth=2) for st in stations.iter("station")], depth=1)])
    write("stn.aspx/cmd=stns.http", stns,
          ["GET https://api.bart.gov/api/stn.aspx?cmd=stns&key=REDACTED",
           "written by scripts/make-bart-fixtures.py: the stations of BART's list of Dec 2021 (names, codes, addresses, coordinates)"])
    routes = facts("derived/routeinfo-all-2018.from-json.xml")
    route_fields = ["name", "abbr", "routeID", "number", "origin", "destination", "direction", "hexcolor", "color", "holidays", "num_stns"]
    routeinfo = document("http://api.bart.gov/api/route.aspx?cmd=routeinfo&route=all", [
        xml("sched_num", routes.findtext("sched_num") or "", depth=1),
        xml("routes", [xml("route", fields(r, route_fields, 3) + [xml("config", [xml("station", s.text or "", depth=4) for s in r.find("config")], depth=3)], depth=2)
                       for r in routes.iter("route")], depth=1)])
    slash = "%02d-%02d-%04d" % DATE
    for rel, note in [("route.aspx/cmd=routeinfo&route=all.http", "route=all"),
                      ("route.aspx/cmd=routeinfo&date=%s&route=all.http" % slash, "route=all&date=%02d/%02d/%04d" % DATE)]:
        write(rel, routeinfo,
              ["GET https://api.bart.gov/api/route.aspx?cmd=routeinfo&%s&key=REDACTED" % note,
               "written by scripts/make-bart-fixtures.py: the route configurations and colours of Feb 2018, served for this date"])
    coords = {}
    for st in stations.iter("station"):
        coords[st.findtext("abbr")] = (float(st.findtext("gtfs_latitude")), float(st.findtext("gtfs_longitude")))

    def run_minutes(a, b):
        (la1, lo1), (la2, lo2) = coords[a], coords[b]
        dx = (lo2 - lo1) * 111.3 * math.cos(math.radians((la1 + la2) / 2))
        dy = (la2 - la1) * 111.3
        return max(2, round(math.hypot(dx, dy) / 0.9) + 1)  # ~54 km/h plus a minute's dwell

    for route in routes.iter("route"):
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
                    stops.append(xml("stop", None, [("station", station), ("load", "1"), ("level", "normal"), ("origTime", clock(clock_t)), ("bikeflag", "1")], 4))
                else:
                    stops.append(xml("stop", None, [("station", station), ("load", ""), ("level", ""), ("bikeflag", "1")], 4))
            trains.append(xml("train", stops, [("index", str(index))], 3))
            index += 1
            t += headway if t < 19 * 60 else headway + 5
        body = document("http://api.bart.gov/api/sched.aspx?cmd=routesched&route=%d&date=%02d/%02d/%04d" % ((number,) + DATE), [
            xml("date", "%d/%d/%d" % DATE, depth=1), xml("route", trains, depth=1), xml("message", "", depth=1)])
        write("sched.aspx/cmd=routesched&date=%s&route=%d.http" % (slash, number), body,
              ["GET https://api.bart.gov/api/sched.aspx?cmd=routesched&route=%d&date=%02d/%02d/%04d&key=REDACTED" % ((number,) + DATE),
               "written by scripts/make-bart-fixtures.py in BART's routesched XML shape: trains on the route's configuration,",
               "run times from the stations' coordinates (no raw XML routesched capture exists)"])

    powell = facts("derived/etd-powl-2018.from-json.xml")
    estimate_fields = ["minutes", "platform", "direction", "length", "color", "hexcolor", "bikeflag", "delay"]
    station = powell.find("station")
    etd = document("http://api.bart.gov/api/etd.aspx?cmd=etd&orig=POWL", [
        xml("date", powell.findtext("date") or "", depth=1), xml("time", powell.findtext("time") or "", depth=1),
        xml("station", fields(station, ["name", "abbr"], 2) + [
            xml("etd", fields(e, ["destination", "abbreviation", "limited"], 3) + [xml("estimate", fields(x, estimate_fields, 4), depth=3) for x in e.findall("estimate")], depth=2)
            for e in station.findall("etd")], depth=1),
        xml("message", "", depth=1)])
    write("etd.aspx/cmd=etd&orig=POWL.http", etd,
          ["GET https://api.bart.gov/api/etd.aspx?cmd=etd&orig=POWL&key=REDACTED",
           "written by scripts/make-bart-fixtures.py: the trains listed at Powell St. on 2018-11-20 at 8:23 PM (destinations, minutes, platforms, cars, delays)"])

    # Our own advisory, in the form of BART's 2013 answers: a leading newline and ISO-8859-1.
    bsa = document("http://api.bart.gov/api/bsa.aspx?cmd=bsa&orig=ALL", [
        xml("date", "11/23/2026", depth=1), xml("time", "05:40:00 PM PST", depth=1),
        xml("bsa", [xml("station", "BART", depth=2), xml("type", "DELAY", depth=2),
                    "    <description><![CDATA[Trains run at reduced speed between Concord and Pittsburg/Bay Point while it is above 95 \u00b0F: expect up to 10 minutes of delay toward Antioch.]]></description>",
                    "    <sms_text><![CDATA[Heat: up to 10 min delay twd Antioch, Concord to Pittsburg/Bay Point.]]></sms_text>",
                    xml("posted", "Mon Nov 23 2026 05:31 PM PST", depth=2), xml("expires", "Mon Nov 23 2026 11:59 PM PST", depth=2)],
            [("id", "262611")], 1),
        xml("message", "", depth=1)], encoding="iso-8859-1")
    write("bsa.aspx/cmd=bsa.http", b"\n" + bsa,
          ["GET https://api.bart.gov/api/bsa.aspx?cmd=bsa&key=REDACTED",
           "written by scripts/make-bart-fixtures.py: an advisory of our own, with a leading newline and ISO-8859-1, as BART's 2013 answers had"])

    plan = facts("derived/depart-ashb-civc-docs-2018.from-json.xml")
    schedule = plan.find("schedule")
    trip_attrs = ["origin", "destination", "fare", "origTimeMin", "origTimeDate", "destTimeMin", "destTimeDate", "clipper", "tripTime"]
    leg_attrs = ["order", "transfercode", "origin", "destination", "origTimeMin", "origTimeDate", "destTimeMin", "destTimeDate",
                 "line", "bikeflag", "trainHeadStation", "load", "trainId", "trainIdx"]
    trips = []
    for trip in schedule.find("request").findall("trip"):
        parts = []
        for fares in trip.findall("fares"):
            parts.append(xml("fares", [xml("fare", None, [(k, f.get(k, "")) for k in ("amount", "class", "name")], 5) for f in fares.findall("fare")],
                             [("level", fares.get("level", ""))], 4))
        parts += [xml("leg", None, [(k, leg.get(k, "")) for k in leg_attrs], 4) for leg in trip.findall("leg")]
        trips.append(xml("trip", parts, [(k, trip.get(k, "").strip()) for k in trip_attrs], 3))
    depart = document("http://api.bart.gov/api/sched.aspx?cmd=depart&orig=ASHB&dest=CIVC&date=01/02/2018&time=10:10am&b=0&a=1", [
        xml("origin", plan.findtext("origin") or "", depth=1), xml("destination", plan.findtext("destination") or "", depth=1),
        xml("sched_num", plan.findtext("sched_num") or "", depth=1),
        xml("schedule", fields(schedule, ["date", "time", "before", "after"], 2) + [xml("request", trips, depth=2)], depth=1),
        xml("message", "", depth=1)])
    write("sched.aspx/a=1&b=0&cmd=depart&date=01-02-2018&dest=CIVC&orig=ASHB&time=10:10am.http", depart,
          ["GET https://api.bart.gov/api/sched.aspx?cmd=depart&orig=ASHB&dest=CIVC&date=01/02/2018&time=10:10am&b=0&a=1&key=REDACTED",
           "written by scripts/make-bart-fixtures.py: the trips, legs and fares of BART's documentation example (ASHB to CIVC, 2018-01-02 10:10 am)"])


if __name__ == "__main__":
    main()
