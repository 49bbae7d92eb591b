#!/usr/bin/env python3
"""Writes Fixtures/gtfs/fares: one small feed per worked example of Fares v2 in the GTFS
reference's fares examples (gtfs.org, "Fares Examples" and its pages on fare transfers and rider
categories), each with the price the reference gives. The fare files hold the examples' own ids,
amounts and rules; the stops are the real places they name (public facts); the timetables are
made up here, a few trips each, so that a journey rides what the example prices. Nothing is
copied from any published feed. Deterministic: running it twice writes the same bytes (a test
checks that Fixtures/gtfs/fares is what this script writes).

- flat/ (Maryland Transit Administration, "Define a transit fare", "Create rules for single
  leg journeys", "Create rules for transfers"): four products, one-way $2.00 the cheapest, for
  any leg of the `core` network; a 90-minute transfer (duration_limit 5400, type 1) that costs
  nothing more (fare_transfer_type 0, transfer_count -1). Metro SubwayLink from Mondawmin to
  Lexington Market, then Light RailLink to Camden Yards: boarding the light rail within 90
  minutes costs $2.00 in all; the 10:00 after the 08:25 subway (95 minutes) costs $4.00.
- areas/ (BART, "Describe service locations in the same fare zone"): areas ASHB, GLEN and OAKL,
  a station each; Ashby to Glen Park $4.75, Ashby to Oakland Airport $9.45. (The reference's
  second rule reads from_area_id ASKB, a slip for ASHB, as its product id
  BA:matrix:ASHB-OAKL says; written ASHB here.) Glen Park to Ashby has no rule: no price.
- transfer/ (TransLink, "Fare Transfers"): the 99 B-Line bus (flat_fare_leg, $3.20) to
  Commercial-Broadway, then the Expo Line: to Waterfront (zone 1, ZN1_ZN1) the change is free,
  to Metrotown (zone 2, ZN1_ZN2) it costs the AddFare 1_zone_to_2_zone_upgrade, 1.45 CAD: 4.65 in
  all, the two-zone fare, as the reference reckons it.
- timeframes/ (Washington's Metrorail, "Define price differences based on time and day of trip",
  the reference's fictional example): network 1 (routes.txt's network_id), timeframes for
  weekday peak, off-peak and late night and weekends; Metro Center to Union Station at 07:30 on
  a weekday costs $5.00 (peak), at 11:30 $3.00 (off-peak), at 22:00 $2.00 (late night), on a
  Saturday $2.00 (weekend).
- riders/ (TransLink, "Rider Categories"): categories adult (the default) and concession; the bus
  flat fare costs 3.20 CAD for an adult, 2.15 for a concession.
- media/ (San Francisco Muni, "Define price differences based on fare media"): the single local
  fare costs $3.00 in cash and $2.50 on Clipper: the cheapest, $2.50 on Clipper, is the price.

usage: python3 scripts/make-gtfs-fares-fixture.py [OUT_DIR]    (default Fixtures/gtfs/fares)
"""
import os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(HERE), "Fixtures", "gtfs", "fares")


def write(path, header, rows):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(",".join(header) + "\n")
        for row in rows:
            f.write(",".join(str(v) for v in row) + "\n")


def feed(name, agency, url, zone, stops, routes, trips, calendar, fares):
    """stops: (id, name, lat, lon); routes: (id, short, long, type[, network_id]);
    trips: (id, route, service, [(stop, time), ...]); calendar: (service, 7 day flags, start, end);
    fares: {file: (header, rows)}."""
    d = os.path.join(OUT, name)
    write(os.path.join(d, "agency.txt"), ["agency_id", "agency_name", "agency_url", "agency_timezone"], [(name, agency, url, zone)])
    write(os.path.join(d, "stops.txt"), ["stop_id", "stop_name", "stop_lat", "stop_lon"], stops)
    with_network = any(len(r) > 4 for r in routes)
    header = ["route_id", "agency_id", "route_short_name", "route_long_name", "route_type"] + (["network_id"] if with_network else [])
    write(os.path.join(d, "routes.txt"), header, [(r[0], name) + tuple(r[1:]) for r in routes])
    write(os.path.join(d, "trips.txt"), ["route_id", "service_id", "trip_id"], [(t[1], t[2], t[0]) for t in trips])
    times = []
    for trip, _, _, calls in trips:
        for k, (stop, time) in enumerate(calls):
            times.append((trip, time, time, stop, k + 1))
    write(os.path.join(d, "stop_times.txt"), ["trip_id", "arrival_time", "departure_time", "stop_id", "stop_sequence"], times)
    write(os.path.join(d, "calendar.txt"),
          ["service_id", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "start_date", "end_date"], calendar)
    for file, (header, rows) in sorted(fares.items()):
        write(os.path.join(d, file), header, rows)


WEEKDAYS_2022 = [("weekday", 1, 1, 1, 1, 1, 0, 0, 20220708, 20221231)]

# Maryland Transit Administration: Metro SubwayLink and Light RailLink, both in `core`.
feed("flat", "Maryland Transit Administration", "https://www.mta.maryland.gov", "America/New_York",
     [("MOND", "Mondawmin", 39.31657, -76.65160), ("LEXM", "Lexington Market (Metro)", 39.29166, -76.62150),
      ("LEXL", "Lexington Market (Light Rail)", 39.29182, -76.62115), ("CAMY", "Camden Yards", 39.28480, -76.62040)],
     [("subway", "Metro", "Metro SubwayLink", 1), ("lightrail", "Light Rail", "Light RailLink", 0)],
     [("subway-0800", "subway", "weekday", [("MOND", "08:00:00"), ("LEXM", "08:10:00")]),
      ("subway-0825", "subway", "weekday", [("MOND", "08:25:00"), ("LEXM", "08:35:00")]),
      ("lightrail-0820", "lightrail", "weekday", [("LEXL", "08:20:00"), ("CAMY", "08:26:00")]),
      ("lightrail-1000", "lightrail", "weekday", [("LEXL", "10:00:00"), ("CAMY", "10:06:00")])],
     WEEKDAYS_2022,
     {"fare_products.txt": (["fare_product_id", "fare_product_name", "amount", "currency"],
                            [("core_local_oneway_fare", "One Way Full Fare", "2.00", "USD"),
                             ("core_local_1_day_fare", "1-Day Pass - Core Service", "4.60", "USD"),
                             ("core_local_31_day_fare", "31-Day Pass - Core Service", "77.00", "USD"),
                             ("core_local_7_day_fare", "7-Day Pass - Core Service", "22.00", "USD")]),
      "networks.txt": (["network_id", "network_name"], [("core", "Core Service")]),
      "route_networks.txt": (["network_id", "route_id"], [("core", "subway"), ("core", "lightrail")]),
      "fare_leg_rules.txt": (["leg_group_id", "network_id", "fare_product_id"],
                             [("core_local_one_way_trip", "core", p) for p in
                              ("core_local_oneway_fare", "core_local_1_day_fare", "core_local_31_day_fare", "core_local_7_day_fare")]),
      "fare_transfer_rules.txt": (["from_leg_group_id", "to_leg_group_id", "duration_limit", "duration_limit_type", "fare_transfer_type", "transfer_count"],
                                  [("core_local_one_way_trip", "core_local_one_way_trip", 5400, 1, 0, -1)])})

# BART: one station per area.
feed("areas", "Bay Area Rapid Transit", "https://www.bart.gov", "America/Los_Angeles",
     [("ASHB", "Ashby", 37.852803, -122.270062), ("GLEN", "Glen Park", 37.732921, -122.434092),
      ("OAKL", "Oakland International Airport", 37.713238, -122.212191)],
     [("ASHB-GLEN", "", "Ashby - Glen Park", 1), ("ASHB-OAKL", "", "Ashby - Oakland Airport", 1)],
     [("ashb-glen-0800", "ASHB-GLEN", "weekday", [("ASHB", "08:00:00"), ("GLEN", "08:31:00")]),
      ("glen-ashb-0900", "ASHB-GLEN", "weekday", [("GLEN", "09:00:00"), ("ASHB", "09:31:00")]),
      ("ashb-oakl-0810", "ASHB-OAKL", "weekday", [("ASHB", "08:10:00"), ("OAKL", "08:40:00")])],
     WEEKDAYS_2022,
     {"areas.txt": (["area_id", "area_name"], [("ASHB", ""), ("GLEN", ""), ("OAKL", "")]),
      "stop_areas.txt": (["area_id", "stop_id"], [("ASHB", "ASHB"), ("GLEN", "GLEN"), ("OAKL", "OAKL")]),
      "fare_leg_rules.txt": (["leg_group_id", "from_area_id", "to_area_id", "fare_product_id"],
                             [("BA", "ASHB", "GLEN", "BA:matrix:ASHB-GLEN"), ("BA", "ASHB", "OAKL", "BA:matrix:ASHB-OAKL")]),
      "fare_products.txt": (["fare_product_id", "fare_product_name", "amount", "currency"],
                            [("BA:matrix:ASHB-GLEN", "generated", "4.75", "USD"), ("BA:matrix:ASHB-OAKL", "generated", "9.45", "USD")])})

# TransLink: the 99 B-Line to Commercial-Broadway, then the Expo Line.
TRANSLINK_STOPS = [("UBC", "UBC Exchange", 49.267599, -123.247513), ("CMBY-BUS", "Commercial-Broadway (bus)", 49.262676, -123.069236),
                   ("CMBY", "Commercial-Broadway Station", 49.262500, -123.069000), ("WFRN", "Waterfront Station", 49.285900, -123.111600),
                   ("MTWN", "Metrotown Station", 49.225800, -123.003900)]
feed("transfer", "TransLink", "https://www.translink.ca", "America/Vancouver", TRANSLINK_STOPS,
     [("99", "99", "UBC / Commercial-Broadway B-Line", 3), ("expo", "Expo", "Expo Line", 1)],
     [("99-0800", "99", "weekday", [("UBC", "08:00:00"), ("CMBY-BUS", "08:40:00")]),
      ("expo-0850-west", "expo", "weekday", [("CMBY", "08:50:00"), ("WFRN", "09:01:00")]),
      ("expo-0850-east", "expo", "weekday", [("CMBY", "08:50:00"), ("MTWN", "09:02:00")])],
     WEEKDAYS_2022,
     {"networks.txt": (["network_id", "network_name"], [("bus", "Bus"), ("skytrain", "SkyTrain")]),
      "route_networks.txt": (["network_id", "route_id"], [("bus", "99"), ("skytrain", "expo")]),
      "areas.txt": (["area_id", "area_name"], [("zone1", "Zone 1"), ("zone2", "Zone 2")]),
      "stop_areas.txt": (["area_id", "stop_id"], [("zone1", "CMBY"), ("zone1", "WFRN"), ("zone2", "MTWN")]),
      "fare_media.txt": (["fare_media_id", "fare_media_name", "fare_media_type"], [("contactless", "Contactless", 3)]),
      "fare_products.txt": (["fare_product_id", "fare_product_name", "amount", "currency", "fare_media_id"],
                            [("bus_flat_fare", "Bus Flat Fare", "3.20", "CAD", "contactless"),
                             ("1_zone_fare", "1 Zone Fare", "3.20", "CAD", "contactless"),
                             ("2_zone_fare", "2 Zone Fare", "4.65", "CAD", "contactless"),
                             ("1_zone_to_2_zone_upgrade", "AddFare 1 zone to 2 zones upgrade", "1.45", "CAD", "contactless")]),
      "fare_leg_rules.txt": (["leg_group_id", "network_id", "from_area_id", "to_area_id", "fare_product_id"],
                             [("flat_fare_leg", "bus", "", "", "bus_flat_fare"),
                              ("ZN1_ZN1", "skytrain", "zone1", "zone1", "1_zone_fare"),
                              ("ZN1_ZN2", "skytrain", "zone1", "zone2", "2_zone_fare")]),
      "fare_transfer_rules.txt": (["from_leg_group_id", "to_leg_group_id", "duration_limit", "duration_limit_type", "fare_transfer_type", "fare_product_id", "transfer_count"],
                                  [("flat_fare_leg", "flat_fare_leg", 5400, 1, 0, "", -1),
                                   ("flat_fare_leg", "ZN1_ZN1", 5400, 1, 0, "", ""),
                                   ("flat_fare_leg", "ZN1_ZN2", 5400, 1, 0, "1_zone_to_2_zone_upgrade", "")])})

# Washington's Metrorail (the reference's fictional fares): network 1 in routes.txt.
feed("timeframes", "Washington Metropolitan Area Transit Authority", "https://www.wmata.com", "America/New_York",
     [("MCEN", "Metro Center", 38.898303, -77.028099), ("UNST", "Union Station", 38.897723, -77.006745)],
     [("red", "RD", "Red Line", 1, "1")],
     [("red-0730", "red", "weekday_service", [("MCEN", "07:30:00"), ("UNST", "07:36:00")]),
      ("red-1130", "red", "weekday_service", [("MCEN", "11:30:00"), ("UNST", "11:36:00")]),
      ("red-2200", "red", "weekday_service", [("MCEN", "22:00:00"), ("UNST", "22:06:00")]),
      ("red-sat-1130", "red", "saturday_service", [("MCEN", "11:30:00"), ("UNST", "11:36:00")])],
     [("weekday_service", 1, 1, 1, 1, 1, 0, 0, 20220708, 20221231), ("saturday_service", 0, 0, 0, 0, 0, 1, 0, 20220708, 20221231),
      ("sunday_service", 0, 0, 0, 0, 0, 0, 1, 20220708, 20221231)],
     {"timeframes.txt": (["timeframe_group_id", "start_time", "end_time", "service_id"],
                         [("weekday_peak", "05:00:00", "09:30:00", "weekday_service"), ("weekday_offpeak", "09:30:00", "15:00:00", "weekday_service"),
                          ("weekday_peak", "15:00:00", "19:00:00", "weekday_service"), ("weekday_offpeak", "19:00:00", "21:30:00", "weekday_service"),
                          ("weekday_late_night", "21:30:00", "24:00:00", "weekday_service"), ("weekday_late_night", "00:00:00", "05:00:00", "weekday_service"),
                          ("weekend", "", "", "saturday_service"), ("weekend", "", "", "sunday_service")]),
      "fare_products.txt": (["fare_product_id", "fare_product_name", "amount", "currency"],
                            [("peak_fare", "Peak fare", "5.00", "USD"), ("regular_fare", "Off-peak fare", "3.00", "USD"),
                             ("weekend_fare", "Weekend Metrorail one-way fare", "2.00", "USD"),
                             ("late_night_fare", "Late Night flat fare (Mon - Fri after 9:30pm)", "2.00", "USD")]),
      "fare_leg_rules.txt": (["network_id", "fare_product_id", "from_timeframe_group_id", "to_timeframe_group_id"],
                             [("1", "weekend_fare", "weekend", ""), ("1", "late_night_fare", "weekday_late_night", ""),
                              ("1", "peak_fare", "weekday_peak", ""), ("1", "regular_fare", "weekday_offpeak", "")])})

# TransLink's rider categories: the 99 B-Line alone.
feed("riders", "TransLink", "https://www.translink.ca", "America/Vancouver", TRANSLINK_STOPS[:2],
     [("99", "99", "UBC / Commercial-Broadway B-Line", 3)],
     [("99-0800", "99", "weekday", [("UBC", "08:00:00"), ("CMBY-BUS", "08:40:00")])],
     WEEKDAYS_2022,
     {"rider_categories.txt": (["rider_category_id", "rider_category_name", "is_default_fare_category", "eligibility_url"],
                               [("adult", "Adult", 1, ""),
                                ("concession", "Concession", "", "https://www.translink.ca/transit-fares/pricing-and-fare-zones#fare-pricing")]),
      "fare_media.txt": (["fare_media_id", "fare_media_name", "fare_media_type"], [("contactless", "Contactless", 3)]),
      "fare_products.txt": (["fare_product_id", "fare_product_name", "amount", "currency", "fare_media_id", "rider_category_id"],
                            [("bus_flat_fare", "Bus Flat Fare", "3.20", "CAD", "contactless", "adult"),
                             ("bus_flat_fare", "Bus Flat Fare", "2.15", "CAD", "contactless", "concession")]),
      "fare_leg_rules.txt": (["leg_group_id", "fare_product_id"], [("flat_fare_leg", "bus_flat_fare")])})

# San Francisco Muni: the J Church, paid in cash or on Clipper.
feed("media", "San Francisco Municipal Transportation Agency", "https://www.sfmta.com", "America/Los_Angeles",
     [("CHDU", "Church St & Duboce Ave", 37.769400, -122.429200), ("BALB", "Balboa Park Station", 37.721900, -122.447400)],
     [("J", "J", "Church", 0)],
     [("J-0800", "J", "weekday", [("CHDU", "08:00:00"), ("BALB", "08:24:00")])],
     WEEKDAYS_2022,
     {"fare_media.txt": (["fare_media_id", "fare_media_name", "fare_media_type"], [("clipper", "Clipper", 2), ("cash", "Cash", 0)]),
      "fare_products.txt": (["fare_product_id", "fare_product_name", "amount", "currency", "fare_media_id"],
                            [("SF:local:single", "Muni single local fare", "3.00", "USD", "cash"),
                             ("SF:local:single", "Muni single local fare", "2.50", "USD", "clipper")]),
      "fare_leg_rules.txt": (["fare_product_id"], [("SF:local:single",)])})
