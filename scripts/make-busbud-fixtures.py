#!/usr/bin/env python3
"""Builds the Busbud recordings in Fixtures/busbud from ../shared/reference/busbud/samples.

1. New York → Montréal, 2018-03-10, USD/en: the real first answer of frontend-b PR 51
   (incomplete, 5 departures), then a poll at index=5 hand-made in the README's poll shape
   that says complete with nothing new (no real poll of that search exists).
2. Québec → Montréal, 2021-08-28, EUR/en: native-b PR 19's real sequence: the first answer
   (incomplete, 3 departures), a poll (incomplete, 2 more), a poll (complete, 1 more).
Bodies are copied byte for byte, except the hand-made poll.
"""
import json, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
S = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "reference", "busbud", "samples")


def write(route, date, query, body, notes, poll=None):
    q = dict(query)
    path = "x-departures/%s/%s" % (route, date)
    if poll is not None:
        path += "/poll"
        q["index"] = str(poll)
    name = "&".join("%s=%s" % kv for kv in sorted(q.items()))
    target = os.path.join(ROOT, "Fixtures", "busbud", path, name + ".http")
    os.makedirs(os.path.dirname(target), exist_ok=True)
    shown = "&".join("%s=%s" % kv for kv in q.items())
    head = "# GET https://napi.busbud.com/%s?%s (X-Busbud-Token not recorded)\n" % (path, shown)
    head += "".join("# %s\n" % n for n in notes) + "status: 200\ncontent-type: application/json\n\n"
    with open(target, "wb") as f:
        f.write(head.encode() + body)


def read(name):
    with open(os.path.join(S, name), "rb") as f:
        return f.read()


def main():
    base = {"adult": "1", "child": "0", "senior": "0", "lang": "en"}
    usd = dict(base, currency="USD")
    write("dr5reg/f25dvk", "2018-03-10", usd, read("derived/initial_nyc-mtl_2018-03_incomplete-5deps.frontend-b-pr51.reserialized.json"),
          ["origin: shared/reference/busbud/samples/derived/initial_nyc-mtl_2018-03_incomplete-5deps.frontend-b-pr51.reserialized.json",
           "(real first answer, incomplete, 5 departures)"])
    poll = {"departures": [], "operators": [], "complete": True, "ttl": 900}
    write("dr5reg/f25dvk", "2018-03-10", usd, (json.dumps(poll, indent=2) + "\n").encode(),
          ["origin: hand-made in the poll shape of Busbud's challenge README (FORMAT.md 3.2): complete, nothing new;",
           "no real poll of this search was captured"], poll=5)
    eur = dict(base, currency="EUR")
    pr19 = "native-b-pr19/"
    write("f2m673/f25dvk", "2021-08-28", eur, read(pr19 + "search_response_not_complete.json"),
          ["origin: shared/reference/busbud/samples/native-b-pr19/search_response_not_complete.json (3 departures, incomplete)"])
    write("f2m673/f25dvk", "2021-08-28", eur, read(pr19 + "poll_response_not_complete.json"),
          ["origin: shared/reference/busbud/samples/native-b-pr19/poll_response_not_complete.json (2 more, incomplete)"], poll=3)
    write("f2m673/f25dvk", "2021-08-28", eur, read(pr19 + "poll_response_complete.json"),
          ["origin: shared/reference/busbud/samples/native-b-pr19/poll_response_complete.json (1 more, complete)"], poll=5)


if __name__ == "__main__":
    main()
