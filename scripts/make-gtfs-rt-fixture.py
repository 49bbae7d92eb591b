#!/usr/bin/env python3
"""Writes Fixtures/gtfs/lakeport-realtime: GTFS-Realtime for the bundled Lakeport feed
(scripts/make-gtfs-fixture.py), as an agency would publish it at 07:58 on Monday 2026-11-23
(America/Chicago). Nothing in it is copied from anywhere; every trip, time and word is written
below, and encoded by the small protobuf writer here (no package). Deterministic: a test checks
that the files in Fixtures/ are what this script writes.

trip-updates.pb:
- SL-WK-N05 (Shore Line, Harbor 08:00) leaves 4 minutes late: a departure delay of 240 s at its
  first stop, which carries to every stop after it;
- the M1 run of 08:06 from Market (M1-WK-E, a frequencies.txt trip, named by start_time) waits 2
  minutes: so the late Shore Line still makes the timed change at Market;
- SL-WK-N06 (Harbor 08:30) is canceled;
- SL-WK-N08 (Harbor 09:30) leaves 5 minutes late, and this time no M1 waits: the timed change at
  Market to the M1 run of 09:36 is lost (what `gtfs journey` reports, exit 3);
- bus 22-WK-03 skips Hillcrest (SKIPPED);
- an extra Shore Line train, SL-X1, not in the timetable (ADDED): Harbor 08:15, Market 08:18,
  University 08:22.
vehicle-positions.pb: the late train at Harbor, an M1 car between Market and Old Town, a bus at
Park Avenue.
alerts.pb: the elevator to Market's platform 2 is out of service (in English and Spanish).

usage: python3 scripts/make-gtfs-rt-fixture.py [OUT_DIR]    (default Fixtures/gtfs/lakeport-realtime)
"""
import os, struct, sys
from datetime import datetime, timedelta, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from protowire import varint  # noqa: E402
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(HERE), "Fixtures", "gtfs", "lakeport-realtime")

# 2026-11-23 in America/Chicago is CST, UTC-6 (no clock change near it).
CST = timezone(timedelta(hours=-6))
DAY = datetime(2026, 11, 23, tzinfo=CST)


def at(clock):
    """POSIX seconds of HH:MM[:SS] on the day."""
    parts = [int(p) for p in clock.split(":")] + [0]
    return int((DAY + timedelta(hours=parts[0], minutes=parts[1], seconds=parts[2])).timestamp())


NOW = at("07:58")

# --- a protobuf writer: length-delimited fields, fixed32 floats (varints: scripts/protowire.py) ---

def key(field, wire):
    return varint(field << 3 | wire)


def uint(field, n):
    return key(field, 0) + varint(n)


def text(field, s):
    data = s.encode("utf-8")
    return key(field, 2) + varint(len(data)) + data


def message(field, *parts):
    data = b"".join(parts)
    return key(field, 2) + varint(len(data)) + data


def float32(field, x):
    return key(field, 5) + struct.pack("<f", x)


def header():
    return message(1, text(1, "2.0"), uint(2, 0), uint(3, NOW))


def entity(eid, *parts):
    return message(2, text(1, eid), *parts)


# TripDescriptor: 1 trip_id, 2 start_time, 3 start_date, 4 schedule_relationship, 5 route_id
def trip(trip_id, start_time=None, relationship=None, route=None):
    parts = [text(1, trip_id)]
    if start_time:
        parts.append(text(2, start_time))
    parts.append(text(3, "20261123"))
    if relationship is not None:
        parts.append(uint(4, relationship))
    if route:
        parts.append(text(5, route))
    return message(1, *parts)


# StopTimeUpdate: 1 stop_sequence, 2 arrival, 3 departure, 4 stop_id, 5 schedule_relationship
def stop_update(sequence=None, stop=None, arrival=None, departure=None, delay=None, skipped=False):
    parts = []
    if sequence is not None:
        parts.append(uint(1, sequence))
    if arrival is not None:
        parts.append(message(2, key(2, 0) + varint(arrival)))
    if departure is not None:
        parts.append(message(3, key(2, 0) + varint(departure)))
    if delay is not None:
        parts.append(message(3, key(1, 0) + varint(delay)))
    if stop:
        parts.append(text(4, stop))
    if skipped:
        parts.append(uint(5, 1))
    return message(2, *parts)


def trip_updates():
    SCHEDULED, ADDED, CANCELED = 0, 1, 3
    return header() + b"".join([
        entity("sl-n05", message(3, trip("SL-WK-N05"), stop_update(sequence=1, stop="HBR2", delay=240), uint(4, NOW - 20))),
        entity("m1-e-0806", message(3, trip("M1-WK-E", start_time="08:06:00"), stop_update(sequence=1, stop="M_MKT", delay=120))),
        entity("sl-n06", message(3, trip("SL-WK-N06", relationship=CANCELED))),
        entity("sl-n08", message(3, trip("SL-WK-N08"), stop_update(sequence=1, stop="HBR2", delay=300))),
        entity("22-03", message(3, trip("22-WK-03"), stop_update(sequence=2, stop="B_HIL", skipped=True))),
        entity("sl-x1", message(3, trip("SL-X1", relationship=ADDED, route="SL"),
                                stop_update(stop="HBR2", departure=at("08:15")),
                                stop_update(stop="MKT2", arrival=at("08:18"), departure=at("08:18:30")),
                                stop_update(stop="UNI2", arrival=at("08:22")))),
    ])


# VehiclePosition: 1 trip, 2 position (1 lat, 2 lon, 3 bearing, 5 speed), 3 current_stop_sequence,
# 4 current_status, 5 timestamp, 7 stop_id, 8 vehicle (1 id, 2 label), 9 occupancy_status
def vehicle(vid, label, trip_msg, lat, lon, bearing, speed, sequence, stop, status, seen, occupancy):
    return message(4, trip_msg, message(2, float32(1, lat), float32(2, lon), float32(3, bearing), float32(5, speed)),
                   uint(3, sequence), uint(4, status), uint(5, seen), text(7, stop), message(8, text(1, vid), text(2, label)),
                   uint(9, occupancy))


def vehicle_positions():
    INCOMING_AT, STOPPED_AT, IN_TRANSIT_TO = 0, 1, 2
    MANY_SEATS, FEW_SEATS, STANDING = 1, 2, 3
    return header() + b"".join([
        entity("train-214", vehicle("214", "Shore Line 214", trip("SL-WK-N05"), 41.8403, -87.6121, 0.0, 0.0, 1, "HBR2",
                                    STOPPED_AT, NOW - 15, MANY_SEATS)),
        entity("car-31", vehicle("31", "M1 car 31", trip("M1-WK-E", start_time="08:00:00"), 41.8650, -87.6190, 65.0, 11.5, 2, "M_OLD",
                                 IN_TRANSIT_TO, NOW - 8, STANDING)),
        entity("bus-5120", vehicle("5120", "Bus 5120", trip("22-WK-02"), 41.9058, -87.6699, 270.0, 0.0, 3, "B_PRK",
                                   STOPPED_AT, NOW - 30, FEW_SEATS)),
    ])


def translated(field, pairs):
    return message(field, *[message(1, text(1, s), text(2, lang)) for s, lang in pairs])


# Alert: 1 active_period (1 start, 2 end), 5 informed_entity (5 stop_id), 6 cause, 7 effect, 10 header, 11 description, 14 severity
def alerts():
    MAINTENANCE, ACCESSIBILITY_ISSUE, WARNING = 9, 11, 3
    return header() + entity("elevator-mkt2", message(5,
        message(1, uint(1, at("06:00")), uint(2, at("20:00"))),
        message(5, text(5, "MKT2")),
        uint(6, MAINTENANCE), uint(7, ACCESSIBILITY_ISSUE),
        translated(10, [("Market: the elevator to platform 2 is out of service", "en"),
                        ("Market: el ascensor al andén 2 está fuera de servicio", "es")]),
        translated(11, [("Use platform 1 and the footbridge, or change at University.", "en"),
                        ("Use el andén 1 y la pasarela, o cambie en University.", "es")]),
        uint(14, WARNING)))


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, data in [("trip-updates.pb", trip_updates()), ("vehicle-positions.pb", vehicle_positions()), ("alerts.pb", alerts())]:
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
