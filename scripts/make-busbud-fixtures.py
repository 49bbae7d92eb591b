#!/usr/bin/env python3
"""Writes the Busbud recordings in Fixtures/busbud, in Busbud's JSON shape, from facts.

1. New York -> Montreal, 2018-03-10, USD/en: the departures of frontend-b PR 51's first answer
   (incomplete, 5 departures), then a poll at index=5 in the poll shape of Busbud's challenge
   README that says complete with nothing new (no poll of that search was captured).
2. Quebec -> Montreal, 2021-08-28, EUR/en: native-b PR 19's sequence: the first answer
   (incomplete, 3 departures), a poll (incomplete, 2 more), a poll (complete, 1 more).
The facts (cities, stations, operators, departures: times, zones, prices, seats, classes) are
read from ../shared/reference/busbud/samples and written with the fields Busbud's answers carry
that a client reads, in our own order and layout; no capture's bytes are copied.
Deterministic: running it twice writes the same bytes (a test compares them with Fixtures/).

usage: python3 scripts/make-busbud-fixtures.py [OUT_DIR] [path/to/shared/reference/busbud/samples]
       (OUT_DIR holds busbud/; default Fixtures)
"""
import json, os, sys
import recording

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OUT = os.path.join(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "Fixtures"), "busbud")
S = (sys.argv[2] if len(sys.argv) > 2 else
     os.environ.get("TRANSIT_REFERENCE", os.path.join(ROOT, "..", "shared", "reference")) + "/busbud/samples")

# What of each list a client reads, in this order.
FIELDS = {
    "cities": ["id", "name"],
    "locations": ["id", "city_id", "name"],
    "operators": ["id", "name", "display_name"],
    "departures": ["id", "operator_id", "origin_location_id", "destination_location_id", "class_name", "class",
                   "departure_time", "departure_timezone", "arrival_time", "arrival_timezone", "duration", "available_seats", "prices"],
}


def write(route, date, query, body, notes, poll=None):
    q = dict(query)
    path = "x-departures/%s/%s" % (route, date)
    if poll is not None:
        path += "/poll"
        q["index"] = str(poll)
    name = "&".join("%s=%s" % kv for kv in sorted(q.items()))
    shown = "&".join("%s=%s" % kv for kv in q.items())
    recording.write(os.path.join(OUT, path, name + ".http"), body,
                    ["GET https://napi.busbud.com/%s?%s (X-Busbud-Token not recorded)" % (path, shown)] + notes, "application/json")


def facts(name):
    """The answer's facts, as Busbud's JSON shape holds them."""
    with open(os.path.join(S, name), encoding="utf-8") as f:
        raw = json.load(f)
    out = {}
    for key in ("complete", "is_valid_route", "ttl"):
        if key in raw:
            out[key] = raw[key]
    if isinstance(raw.get("metadata"), dict) and "interval" in raw["metadata"]:
        out["metadata"] = {"interval": raw["metadata"]["interval"]}
    for key, names in FIELDS.items():
        if isinstance(raw.get(key), list):
            out[key] = [{n: item[n] for n in names if n in item} for item in raw[key]]
    for d in out.get("departures", []):
        if isinstance(d.get("prices"), dict):
            d["prices"] = {n: d["prices"][n] for n in ("total", "currency") if n in d["prices"]}
    return (json.dumps(out, indent=1, ensure_ascii=False) + "\n").encode()


def main():
    base = {"adult": "1", "child": "0", "senior": "0", "lang": "en"}
    usd = dict(base, currency="USD")
    write("dr5reg/f25dvk", "2018-03-10", usd, facts("derived/initial_nyc-mtl_2018-03_incomplete-5deps.frontend-b-pr51.reserialized.json"),
          ["written by scripts/make-busbud-fixtures.py from the departures of a real first answer (frontend-b PR 51: incomplete, 5 departures)"])
    poll = {"departures": [], "operators": [], "complete": True, "ttl": 900}
    write("dr5reg/f25dvk", "2018-03-10", usd, (json.dumps(poll, indent=2) + "\n").encode(),
          ["written by scripts/make-busbud-fixtures.py in the poll shape of Busbud's challenge README (FORMAT.md 3.2): complete, nothing new;",
           "no real poll of this search was captured"], poll=5)
    eur = dict(base, currency="EUR")
    pr19 = "native-b-pr19/"
    write("f2m673/f25dvk", "2021-08-28", eur, facts(pr19 + "search_response_not_complete.json"),
          ["written by scripts/make-busbud-fixtures.py from a real first answer (native-b PR 19: 3 departures, incomplete)"])
    write("f2m673/f25dvk", "2021-08-28", eur, facts(pr19 + "poll_response_not_complete.json"),
          ["written by scripts/make-busbud-fixtures.py from a real poll (native-b PR 19: 2 more, incomplete)"], poll=3)
    write("f2m673/f25dvk", "2021-08-28", eur, facts(pr19 + "poll_response_complete.json"),
          ["written by scripts/make-busbud-fixtures.py from a real poll (native-b PR 19: 1 more, complete)"], poll=5)


if __name__ == "__main__":
    main()
