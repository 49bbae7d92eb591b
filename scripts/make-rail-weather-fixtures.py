#!/usr/bin/env python3
"""Writes Fixtures/rail12306 and Fixtures/weather, in the APIs' shapes, from facts.

Facts read from ../shared/reference: the stations of 12306's 2026 station list in the cities the
bundled commands reach (name, telecode, pinyin, initials, city; in 12306's order, numbered anew), the stops and times of the
real G129 timetable, and the Berlin (metric) and Seattle (imperial) observations; they are
written by the serializers below, so no capture's bytes are copied. Ours, in the documented
shapes and said so in each file: the train-number search (no raw capture exists, FORMAT.md 4),
the G1 timetable (no G1 capture exists; its times are illustrative) and Beijing's weather.
Deterministic: running it twice writes the same bytes (a test compares them with Fixtures/).

usage: python3 scripts/make-rail-weather-fixtures.py [OUT_DIR] [path/to/shared/reference]
       (OUT_DIR holds rail12306/ and weather/; default Fixtures)
"""
import json, os, sys
import recording
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "Fixtures")
REF = sys.argv[2] if len(sys.argv) > 2 else os.environ.get("TRANSIT_REFERENCE", os.path.join(ROOT, "..", "shared", "reference"))


def write(rel, body, notes, ctype):
    recording.write(os.path.join(OUT, rel), body, notes, ctype)


def path(*parts):
    return os.path.join(REF, *parts)


def station_list(cities):
    """The 11-field station list (FORMAT.md 2): initials key, name, telecode, pinyin, initials,
    index, city code, city, and three empty fields. The stations of `cities`, in 12306's order,
    numbered anew from 1: what the bundled commands ask for, not the country's 3,364."""
    with open(path("rail12306", "samples", "station_name_2026-04_11-fields.lonely1888.js"), encoding="utf-8") as f:
        text = f.read()
    body = text[text.index("'") + 1:text.rindex("'")]
    stations = [entry.split("|") for entry in body.split("@") if entry]
    rows = []
    for fields in stations:
        key, name, code, pinyin, initials, _, city_code, city = fields[:8]
        if city in cities:
            rows.append("@%s|%s|%s|%s|%s|%d|%s|%s|||" % (key, name, code, pinyin, initials, len(rows) + 1, city_code, city))
    return ("var station_names ='%s';\n" % "".join(rows)).encode(), len(rows)


def timetable(code, stops):
    """A queryByTrainNo answer: stops are (no, name, arrive, depart, dwell); the first carries the train's facts."""
    data = []
    for no, name, arr, dep, dwell, first in stops:
        item = {"station_no": no, "station_name": name, "arrive_time": arr, "start_time": dep, "stopover_time": dwell, "isEnabled": True}
        if first:
            item.update(first)
        data.append(item)
    answer = {"status": True, "httpstatus": 200, "data": {"data": data}, "messages": [], "validateMessages": {},
              "validateMessagesShowId": "_validatorMessage"}
    return json.dumps(answer, ensure_ascii=False, separators=(",", ":")).encode()


def observation(o):
    """OpenWeatherMap's current weather in XML mode, from an observation's facts."""
    def tag(name, attrs, inner=None, depth=1):
        attr = "".join(' %s="%s"' % kv for kv in attrs)
        if inner is None:
            return "%s<%s%s></%s>" % ("  " * depth, name, attr, name)
        if isinstance(inner, str):
            return "%s<%s%s>%s</%s>" % ("  " * depth, name, attr, inner, name)
        return "%s<%s%s>\n%s\n%s</%s>" % ("  " * depth, name, attr, "\n".join(inner), "  " * depth, name)
    city = tag("city", [("id", o["city_id"]), ("name", o["city"])], [
        tag("coord", [("lon", o["lon"]), ("lat", o["lat"])], depth=2), tag("country", [], o["country"], 2),
        tag("timezone", [], o["timezone"], 2), tag("sun", [("rise", o["rise"]), ("set", o["set"])], depth=2)])
    unit = o["unit"]
    parts = [city,
             tag("temperature", [("value", o["temp"]), ("min", o["min"]), ("max", o["max"]), ("unit", unit)]),
             tag("feels_like", [("value", o["feels"]), ("unit", unit)]),
             tag("humidity", [("value", o["humidity"]), ("unit", "%")]),
             tag("pressure", [("value", o["pressure"]), ("unit", "hPa")]),
             tag("wind", [], [tag("speed", [("value", o["wind"]), ("unit", o["wind_unit"]), ("name", o["wind_name"])], depth=2),
                              tag("gusts", [("value", o["gusts"])] if o["gusts"] else [], depth=2),
                              tag("direction", [("value", o["deg"]), ("code", o["dir"]), ("name", o["dir_name"])], depth=2)]),
             tag("clouds", [("value", o["clouds"]), ("name", o["clouds_name"])]),
             tag("visibility", [("value", o["visibility"])]),
             tag("precipitation", o["precipitation"]),
             tag("weather", [("number", o["number"]), ("value", o["description"]), ("icon", o["icon"])]),
             tag("lastupdate", [("value", o["updated"])])]
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<current>\n%s\n</current>\n' % "\n".join(parts)).encode()


def observed(name):
    """The facts of a real observation."""
    root = ET.parse(path("openweathermap", "samples", name)).getroot()
    city, wind = root.find("city"), root.find("wind")
    precipitation = root.find("precipitation")
    return {"city_id": city.get("id"), "city": city.get("name"), "lon": city.find("coord").get("lon"), "lat": city.find("coord").get("lat"),
            "country": city.findtext("country"), "timezone": city.findtext("timezone"), "rise": city.find("sun").get("rise"),
            "set": city.find("sun").get("set"), "temp": root.find("temperature").get("value"), "min": root.find("temperature").get("min"),
            "max": root.find("temperature").get("max"), "unit": root.find("temperature").get("unit"),
            "feels": root.find("feels_like").get("value"), "humidity": root.find("humidity").get("value"),
            "pressure": root.find("pressure").get("value"), "wind": wind.find("speed").get("value"), "wind_unit": wind.find("speed").get("unit"),
            "wind_name": wind.find("speed").get("name"), "gusts": wind.find("gusts").get("value"), "deg": wind.find("direction").get("value"),
            "dir": wind.find("direction").get("code"), "dir_name": wind.find("direction").get("name"),
            "clouds": root.find("clouds").get("value"), "clouds_name": root.find("clouds").get("name"),
            "visibility": root.find("visibility").get("value"), "precipitation": list(precipitation.attrib.items()),
            "number": root.find("weather").get("number"), "description": root.find("weather").get("value"),
            "icon": root.find("weather").get("icon"), "updated": root.find("lastupdate").get("value")}


def main():
    with open(path("rail12306", "samples", "queryByTrainNo_G129_compact.unattributed-literal.json"), encoding="utf-8") as f:
        g129 = json.load(f)["data"]["data"]
    # The cities of G129's stops (G1's are among them), and a few more of the big ones.
    cities = {"北京", "天津", "上海", "南京", "济南", "广州", "深圳", "杭州", "武汉", "西安", "成都", "重庆", "郑州", "长沙", "宝鸡"}
    with open(path("rail12306", "samples", "station_name_2026-04_11-fields.lonely1888.js"), encoding="utf-8") as f:
        listed = {fields[1]: fields[7] for fields in (e.split("|") for e in f.read().split("@")[1:]) if len(fields) > 7}
    cities |= {listed[stop["station_name"]] for stop in g129 if stop["station_name"] in listed}
    stations, count = station_list(cities)
    write("rail12306/otn/resources/js/framework/station_name.js/_.http", stations,
          ["GET https://kyfw.12306.cn/otn/resources/js/framework/station_name.js",
           "written by scripts/make-rail-weather-fixtures.py: the %d stations of %d cities in 12306's 2026 list (11 fields), renumbered" % (count, len(cities))],
          "application/javascript")
    search = {"data": [
        {"date": "20261123", "from_station": "北京南", "station_train_code": "G1", "to_station": "上海虹桥", "total_num": "5", "train_no": "24000000G10X"},
        {"date": "20261123", "from_station": "北京南", "station_train_code": "G129", "to_station": "上海虹桥", "total_num": "10", "train_no": "240000G1290N"},
    ], "errorMsg": "", "status": True}
    body = json.dumps(search, ensure_ascii=False, separators=(",", ":")).encode()
    for keyword in ["G1", "G129"]:
        write("rail12306/search/v1/train/search/date=20261123&keyword=%s.http" % keyword, body,
              ["GET https://search.12306.cn/search/v1/train/search?keyword=%s&date=20261123" % keyword,
               "written by scripts/make-rail-weather-fixtures.py in the shape FORMAT.md 4 gives (no raw capture exists); G129's train_no is the one FORMAT.md cites,",
               "G1's is made up"], "application/json")
    train = ("start_station_name", "station_train_code", "train_class_name", "service_type", "end_station_name")
    write("rail12306/otn/czxx/queryByTrainNo/depart_date=2026-11-23&from_station_telecode=VNP&to_station_telecode=AOH&train_no=240000G1290N.http",
          timetable("G129", [(s["station_no"], s["station_name"], s["arrive_time"], s["start_time"], s["stopover_time"],
                              {k: s[k] for k in train if k in s} if i == 0 else None) for i, s in enumerate(g129)]),
          ["GET https://kyfw.12306.cn/otn/czxx/queryByTrainNo?train_no=240000G1290N&from_station_telecode=VNP&to_station_telecode=AOH&depart_date=2026-11-23",
           "written by scripts/make-rail-weather-fixtures.py: the stops and times of a real G129 answer, served for this date"],
          "application/json")
    stops = [("01", "北京南", "----", "07:00", "----"), ("02", "济南西", "08:27", "08:29", "2分钟"), ("03", "南京南", "10:23", "10:25", "2分钟"),
             ("04", "上海虹桥", "11:38", "11:38", "----")]
    g1_train = {"start_station_name": "北京南", "station_train_code": "G1", "train_class_name": "高速", "service_type": "1", "end_station_name": "上海虹桥"}
    stops = [stop + ((g1_train if stop[0] == "01" else None),) for stop in stops]
    write("rail12306/otn/czxx/queryByTrainNo/depart_date=2026-11-23&from_station_telecode=VNP&to_station_telecode=AOH&train_no=24000000G10X.http",
          timetable("G1", stops),
          ["GET https://kyfw.12306.cn/otn/czxx/queryByTrainNo?train_no=24000000G10X&from_station_telecode=VNP&to_station_telecode=AOH&depart_date=2026-11-23",
           "written by scripts/make-rail-weather-fixtures.py; no G1 capture exists, so the stops and times are illustrative"],
          "application/json")
    write("weather/weather/mode=xml&q=Berlin&units=metric.http", observation(observed("current_xml_berlin_metric_de_2020-01.cmfcmf-docs-excerpt.xml")),
          ["GET https://api.openweathermap.org/data/2.5/weather?q=Berlin&mode=xml&units=metric&appid=REDACTED",
           "written by scripts/make-rail-weather-fixtures.py: a real observation in Berlin, 2020-01-15 (lang=de)"],
          "application/xml; charset=utf-8")
    write("weather/weather/mode=xml&q=Seattle&units=imperial.http", observation(observed("current_xml_seattle_imperial_2021-06.juliamoffitt.xml")),
          ["GET https://api.openweathermap.org/data/2.5/weather?q=Seattle&mode=xml&units=imperial&appid=REDACTED",
           "written by scripts/make-rail-weather-fixtures.py: a real observation in Seattle, 2021-06-07"],
          "application/xml; charset=utf-8")
    beijing = observation({"city_id": "1816670", "city": "Beijing", "lon": "116.3972", "lat": "39.9075", "country": "CN", "timezone": "28800",
                           "rise": "2026-11-22T23:11:40", "set": "2026-11-23T08:52:04", "temp": "3.94", "min": "3.94", "max": "3.94",
                           "unit": "celsius", "feels": "0.12", "humidity": "38", "pressure": "1027", "wind": "4.1", "wind_unit": "m/s",
                           "wind_name": "Gentle Breeze", "gusts": None, "deg": "340", "dir": "NNW", "dir_name": "North-northwest",
                           "clouds": "0", "clouds_name": "clear sky", "visibility": "10000", "precipitation": [("mode", "no")],
                           "number": "800", "description": "clear sky", "icon": "01d", "updated": "2026-11-23T04:10:12"})
    for place in ["Beijing", "beijing"]:
        write("weather/weather/mode=xml&q=%s&units=metric.http" % place, beijing,
              ["GET https://api.openweathermap.org/data/2.5/weather?q=%s&mode=xml&units=metric&appid=REDACTED" % place,
               "written by scripts/make-rail-weather-fixtures.py; no Beijing capture exists, the values are illustrative"],
              "application/xml; charset=utf-8")


if __name__ == "__main__":
    main()
