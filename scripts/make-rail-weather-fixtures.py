#!/usr/bin/env python3
"""Builds Fixtures/rail12306 and Fixtures/weather from ../shared/reference.

Real bodies byte for byte: the 2026 11-field station_name.js, the G129 timetable, the Berlin
(metric) and Seattle (imperial) weather documents. Hand-made, in the documented shapes and
said so in each file: the train-number search (no raw capture exists, FORMAT.md §4), the G1
timetable (no G1 capture exists; its times are illustrative) and Beijing's weather (no capture).
"""
import json, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
REF = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "reference")


def write(rel, body, notes, ctype):
    path = os.path.join(ROOT, "Fixtures", rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    head = "".join("# %s\n" % n for n in notes) + "status: 200\ncontent-type: %s\n\n" % ctype
    with open(path, "wb") as f:
        f.write(head.encode() + body)


def read(*parts):
    with open(os.path.join(REF, *parts), "rb") as f:
        return f.read()


def main():
    write("rail12306/otn/resources/js/framework/station_name.js/_.http",
          read("rail12306", "samples", "station_name_2026-04_11-fields.lonely1888.js"),
          ["GET https://kyfw.12306.cn/otn/resources/js/framework/station_name.js",
           "origin: shared/reference/rail12306/samples/station_name_2026-04_11-fields.lonely1888.js (real, 3,364 stations)"],
          "application/javascript")
    search = {"data": [
        {"date": "20261123", "from_station": "北京南", "station_train_code": "G1", "to_station": "上海虹桥", "total_num": "5", "train_no": "24000000G10X"},
        {"date": "20261123", "from_station": "北京南", "station_train_code": "G129", "to_station": "上海虹桥", "total_num": "10", "train_no": "240000G1290N"},
    ], "errorMsg": "", "status": True}
    body = json.dumps(search, ensure_ascii=False, separators=(",", ":")).encode()
    for keyword in ["G1", "G129"]:
        write("rail12306/search/v1/train/search/date=20261123&keyword=%s.http" % keyword, body,
              ["GET https://search.12306.cn/search/v1/train/search?keyword=%s&date=20261123" % keyword,
               "origin: hand-made in the shape FORMAT.md §4 gives (no raw capture exists); G129's train_no is the one FORMAT.md cites,",
               "G1's is made up"], "application/json")
    write("rail12306/otn/czxx/queryByTrainNo/depart_date=2026-11-23&from_station_telecode=VNP&to_station_telecode=AOH&train_no=240000G1290N.http",
          read("rail12306", "samples", "queryByTrainNo_G129_compact.unattributed-literal.json"),
          ["GET https://kyfw.12306.cn/otn/czxx/queryByTrainNo?train_no=240000G1290N&from_station_telecode=VNP&to_station_telecode=AOH&depart_date=2026-11-23",
           "origin: shared/reference/rail12306/samples/queryByTrainNo_G129_compact.unattributed-literal.json (real answer, served for this date)"],
          "application/json")
    stops = [("01", "北京南", "----", "07:00", "----"), ("02", "济南西", "08:27", "08:29", "2分钟"), ("03", "南京南", "10:23", "10:25", "2分钟"),
             ("04", "上海虹桥", "11:38", "11:38", "----")]
    data = []
    for no, name, arr, dep, dwell in stops:
        item = {"arrive_time": arr, "station_name": name, "start_time": dep, "stopover_time": dwell, "station_no": no, "isEnabled": True}
        if no == "01":
            item.update({"start_station_name": "北京南", "station_train_code": "G1", "train_class_name": "高速", "service_type": "1", "end_station_name": "上海虹桥"})
        data.append(item)
    g1 = {"validateMessagesShowId": "_validatorMessage", "status": True, "httpstatus": 200, "data": {"data": data}, "messages": [], "validateMessages": {}}
    write("rail12306/otn/czxx/queryByTrainNo/depart_date=2026-11-23&from_station_telecode=VNP&to_station_telecode=AOH&train_no=24000000G10X.http",
          json.dumps(g1, ensure_ascii=False, separators=(",", ":")).encode(),
          ["GET https://kyfw.12306.cn/otn/czxx/queryByTrainNo?train_no=24000000G10X&from_station_telecode=VNP&to_station_telecode=AOH&depart_date=2026-11-23",
           "origin: hand-made in the shape of the real G129 answer; no G1 capture exists, so the stops and times are illustrative"],
          "application/json")
    write("weather/weather/mode=xml&q=Berlin&units=metric.http",
          read("openweathermap", "samples", "current_xml_berlin_metric_de_2020-01.cmfcmf-docs-excerpt.xml"),
          ["GET https://api.openweathermap.org/data/2.5/weather?q=Berlin&mode=xml&units=metric&appid=REDACTED",
           "origin: shared/reference/openweathermap/samples/current_xml_berlin_metric_de_2020-01.cmfcmf-docs-excerpt.xml (real, lang=de)"],
          "application/xml; charset=utf-8")
    write("weather/weather/mode=xml&q=Seattle&units=imperial.http",
          read("openweathermap", "samples", "current_xml_seattle_imperial_2021-06.juliamoffitt.xml"),
          ["GET https://api.openweathermap.org/data/2.5/weather?q=Seattle&mode=xml&units=imperial&appid=REDACTED",
           "origin: shared/reference/openweathermap/samples/current_xml_seattle_imperial_2021-06.juliamoffitt.xml (real; it was asked by zip)"],
          "application/xml; charset=utf-8")
    beijing = ('<?xml version="1.0" encoding="UTF-8"?>\n<current><city id="1816670" name="Beijing"><coord lon="116.3972" lat="39.9075"></coord>'
               '<country>CN</country><timezone>28800</timezone><sun rise="2026-11-22T23:11:40" set="2026-11-23T08:52:04"></sun></city>'
               '<temperature value="3.94" min="3.94" max="3.94" unit="celsius"></temperature><feels_like value="0.12" unit="celsius"></feels_like>'
               '<humidity value="38" unit="%"></humidity><pressure value="1027" unit="hPa"></pressure><wind><speed value="4.1" unit="m/s" name="Gentle Breeze">'
               '</speed><gusts></gusts><direction value="340" code="NNW" name="North-northwest"></direction></wind><clouds value="0" name="clear sky"></clouds>'
               '<visibility value="10000"></visibility><precipitation mode="no"></precipitation><weather number="800" value="clear sky" icon="01d"></weather>'
               '<lastupdate value="2026-11-23T04:10:12"></lastupdate></current>')
    for place in ["Beijing", "beijing"]:
        write("weather/weather/mode=xml&q=%s&units=metric.http" % place, beijing.encode(),
              ["GET https://api.openweathermap.org/data/2.5/weather?q=%s&mode=xml&units=metric&appid=REDACTED" % place,
               "origin: hand-made in the shape of the real Berlin XML sample; no Beijing capture exists, the values are illustrative"],
              "application/xml; charset=utf-8")


if __name__ == "__main__":
    main()
