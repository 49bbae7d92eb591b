#!/usr/bin/env python3
"""Copies a GTFS feed whose fares are Fares v1 zone pairs (as BART publishes them) and writes its
fares again as Fares v2, in the shape of the GTFS reference's zone example (BART's fares in the
San Francisco Bay Area regional feed: area-pair leg rules): each zone an area
(areas.txt, stop_areas.txt from stops.txt's zone_id), each fare a product (fare_products.txt,
one row for every rider, one more per rider category from fare_rider_categories.txt), each
fare_rules.txt row an origin → destination leg rule (fare_leg_rules.txt), and every route in one
network whose changes within a station join one fare leg (fare_leg_join_rules.txt, for a fare
paid from entry to exit, as v1's unlimited transfers say). fare_attributes.txt,
fare_rules.txt and fare_rider_categories.txt are left out of the copy.

Only rules of an origin and a destination are converted (BART's every rule); a feed with route
or contains rules is refused (exit 2), as the two would not mean the same. Used by FareTests
(the two forms price alike) and scripts/bench-fares (what each costs a query).

usage: python3 scripts/make-fares-v2-from-v1.py SOURCE_DIR OUT_DIR
"""
import csv, os, shutil, sys

if len(sys.argv) != 3:
    sys.exit(__doc__)
source, out = sys.argv[1], sys.argv[2]


def rows(name):
    path = os.path.join(source, name)
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8-sig", newline="") as f:
        return list(csv.DictReader(f))


def write(name, header, lines):
    with open(os.path.join(out, name), "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(lines)


rules = rows("fare_rules.txt")
if any(r.get("route_id") or r.get("contains_id") or not r.get("origin_id") or not r.get("destination_id") for r in rules):
    print("make-fares-v2-from-v1: only rules of an origin and a destination convert", file=sys.stderr)
    sys.exit(2)
os.makedirs(out, exist_ok=True)
v1 = {"fare_attributes.txt", "fare_rules.txt", "fare_rider_categories.txt"}
for name in sorted(os.listdir(source)):
    if name.endswith(".txt") and name not in v1:
        shutil.copyfile(os.path.join(source, name), os.path.join(out, name))

zones = sorted({s["zone_id"] for s in rows("stops.txt") if s.get("zone_id")})
write("areas.txt", ["area_id"], [[z] for z in zones])
write("stop_areas.txt", ["area_id", "stop_id"], [[s["zone_id"], s["stop_id"]] for s in rows("stops.txt") if s.get("zone_id")])
currency = {a["fare_id"]: a["currency_type"] for a in rows("fare_attributes.txt")}
products = [[a["fare_id"], a["price"], a["currency_type"], ""] for a in rows("fare_attributes.txt")]
products += [[r["fare_id"], r["price"], currency[r["fare_id"]], r["rider_category_id"]] for r in rows("fare_rider_categories.txt") if r["fare_id"] in currency]
write("fare_products.txt", ["fare_product_id", "amount", "currency", "rider_category_id"], products)
write("fare_leg_rules.txt", ["from_area_id", "to_area_id", "fare_product_id"], [[r["origin_id"], r["destination_id"], r["fare_id"]] for r in rules])
# A change of trains within a station is not a new fare leg (BART's fare is from entry to exit):
# every route in one network, and a join rule from it to itself.
write("networks.txt", ["network_id", "network_name"], [["rail", "Rail"]])
write("route_networks.txt", ["network_id", "route_id"], [["rail", r["route_id"]] for r in rows("routes.txt")])
write("fare_leg_join_rules.txt", ["from_network_id", "to_network_id"], [["rail", "rail"]])
