import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport
import TransitTestSupport

@Suite struct Rail12306ParserTests {
    func sample(_ name: String) throws -> Data { try Reference.data("rail12306/samples/" + name) }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func bothStationListForms() throws {
        let old = try Rail12306Parser.stations(try sample("station_name_2018-09_6-fields.gpx0214.js"))
        #expect(old.count == 2750 && old.allSatisfy { $0.city == nil })
        let new = try Rail12306Parser.stations(try sample("station_name_2026-04_11-fields.lonely1888.js"))
        #expect(new.count == 3364)
        let bjb = try #require(new.first { $0.telecode == "VAP" })
        #expect(bjb == RailStation(code: "bjb", name: "北京北", telecode: "VAP", pinyin: "beijingbei", initials: "bjb", city: "北京"))
        // Pinyin codes repeat; names and telecodes do not.
        #expect(new.filter { $0.code == "ych" }.count == 21)
        #expect(Set(new.filter { $0.code == "bjx" }.map(\.name)).isSuperset(of: ["北京大兴", "北京西"]))
        #expect(Set(new.map(\.telecode)).count == new.count && Set(new.map(\.name)).count == new.count)
        #expect(new.first { $0.pinyin == "hkwestkowloon" }?.city == "香港")
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func searchByNamePinyinInitialsAndTelecode() throws {
        let all = try Rail12306Parser.stations(try sample("station_name_2026-04_11-fields.lonely1888.js"))
        #expect(Rail12306Parser.search(all, "上海虹桥").first?.telecode == "AOH")
        #expect(Rail12306Parser.search(all, "shanghai").first?.name == "上海")
        #expect(Rail12306Parser.search(all, "shanghai").contains { $0.name == "上海虹桥" })
        #expect(Rail12306Parser.search(all, "shhq").first?.name == "上海虹桥")
        #expect(Rail12306Parser.search(all, "vnp").map(\.name) == ["北京南"])
        #expect(Rail12306Parser.search(all, "北京").count > 5)
        #expect(Rail12306Parser.search(all, "zzzzqq").isEmpty)
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func realTimetables() throws {
        let day = LocalDate(year: 2026, month: 11, day: 23)
        let g129 = try Rail12306Parser.timetable(try sample("queryByTrainNo_G129_compact.unattributed-literal.json"), date: day)
        #expect(g129.count == 10 && g129.allSatisfy { $0.day == 1 })
        #expect(g129.first?.arrival == nil && g129.first?.dwellMinutes == nil)
        #expect(g129.first?.departure.map { ClockTime.iso8601($0, zone: Rail12306.zone) } == "2026-11-23T12:10:00+08:00")
        #expect(g129.last?.departure == nil && g129.last?.arrival.map { ClockTime.hhmm($0, zone: Rail12306.zone) } == "17:50")
        #expect(g129[4].dwellMinutes == 3)
        let g1304 = try Rail12306Parser.timetable(try sample("queryByTrainNo_G1304_2016-03_pretty.tylerchen.json"), date: day)
        #expect(g1304.first?.station == "广州南" && g1304.last?.station == "上海虹桥")
    }

    @Test func anOvernightTrainRollsDays() throws {
        let json = #"{"status":true,"httpstatus":200,"messages":"","data":{"data":["#
            + #"{"station_no":"01","station_name":"北京西","arrive_time":"21:40","start_time":"21:40","stopover_time":"----"},"#
            + #"{"station_no":"02","station_name":"石家庄","arrive_time":"23:58","start_time":"00:04","stopover_time":"6分钟"},"#
            + #"{"station_no":"03","station_name":"郑州","arrive_time":"03:10","start_time":"03:22","stopover_time":"12分钟"},"#
            + #"{"station_no":"04","station_name":"武昌","arrive_time":"23:50","start_time":"----","stopover_time":"----"}]}}"#
        let stops = try Rail12306Parser.timetable(Data(json.utf8), date: LocalDate(year: 2026, month: 12, day: 31))
        #expect(stops.map(\.day) == [1, 1, 2, 2])
        #expect(stops[0].arrival == nil)  // arrival equal to departure at the origin: none
        #expect(stops[1].departure.map { ClockTime.iso8601($0, zone: Rail12306.zone) } == "2027-01-01T00:04:00+08:00")
        #expect(stops[1].dwellMinutes == 6 && stops[2].dwellMinutes == 12 && stops[3].dwellMinutes == nil)
        #expect(stops[3].arrival.map { ClockTime.iso8601($0, zone: Rail12306.zone) } == "2027-01-01T23:50:00+08:00")
        #expect(stops[3].departure == nil)
    }

    @Test func searchAnswersAndFailures() throws {
        let ok = try Rail12306Parser.trains(Data(#"{"data":[{"date":"20261123","from_station":"北京南","station_train_code":"G1","to_station":"上海虹桥","total_num":"5","train_no":"24000000G10X"}],"errorMsg":"","status":true}"#.utf8))
        #expect(ok.trains == [RailTrain(code: "G1", trainNo: "24000000G10X", from: "北京南", to: "上海虹桥", stops: 5)])
        #expect(try Rail12306Parser.trains(Data(#"{"data":[],"errorMsg":"","status":true}"#.utf8)).trains.isEmpty)
        #expect(throws: TransitError.api(provider: "12306", message: "系统繁忙", details: nil)) {
            try Rail12306Parser.trains(Data(#"{"data":[],"errorMsg":"系统繁忙","status":false}"#.utf8))
        }
        for bad in ["", "<html>busy</html>", "var x = 1;", "{\"data\":"] {
            #expect(errorKind { try Rail12306Parser.timetable(Data(bad.utf8), date: LocalDate(year: 2026, month: 1, day: 1)) } == "parse", "\(bad)")
            #expect(errorKind { try Rail12306Parser.stations(Data(bad.utf8)) } == "parse", "\(bad)")
        }
    }

    @Test(.enabled(if: Reference.isPresent, Reference.absent)) func weatherStationCity() throws {
        let all = try Rail12306Parser.stations(try Reference.data("rail12306/samples/station_name_2026-04_11-fields.lonely1888.js"))
        #expect(try WeatherCommands.cityPinyin(for: "上海虹桥", in: all) == "shanghai")
        #expect(try WeatherCommands.cityPinyin(for: "VNP", in: all) == "beijing")
        let old = try Rail12306Parser.stations(try Reference.data("rail12306/samples/station_name_2018-09_6-fields.gpx0214.js"))
        #expect(try WeatherCommands.cityPinyin(for: "北京南", in: old) == "beijing")  // by name prefix: no city field
    }
}

@Suite(.enabled(if: Reference.isPresent, Reference.absent)) struct WeatherParserTests {
    func sample(_ name: String) throws -> Data { try Reference.data("openweathermap/samples/" + name) }

    @Test func kelvinWithEmptyVisibilityAndNoZone() throws {
        let w = try WeatherParser.current(try sample("current_xml_london_kelvin_2015-10.onimurasame.xml"))
        #expect(w.city == "London" && w.temperatureUnit == "kelvin" && w.temperature == 282.376)
        #expect(w.description == "overcast clouds" && w.windUnit == nil && w.feelsLike == nil)
        #expect(w.zone.secondsFromGMT() == 0)
        #expect(w.observed.map { ClockTime.iso8601($0, zone: w.zone) } == "2015-10-20T20:42:46+00:00")
    }

    @Test func metricAndImperialInTheirOwnZones() throws {
        let berlin = try WeatherParser.current(try sample("current_xml_berlin_metric_de_2020-01.cmfcmf-docs-excerpt.xml"))
        #expect(berlin.temperatureUnit == "celsius" && berlin.temperature == 12.73 && berlin.description == "Bedeckt")
        #expect(berlin.observed.map { ClockTime.iso8601($0, zone: berlin.zone) } == "2020-01-15T12:53:01+01:00")
        let seattle = try WeatherParser.current(try sample("current_xml_seattle_imperial_2021-06.juliamoffitt.xml"))
        #expect(seattle.temperatureUnit == "fahrenheit" && seattle.windUnit == "mph" && seattle.maximum == 51.4)
        #expect(seattle.zone.secondsFromGMT() == -25200)
    }

    @Test func errorBodies() throws {
        #expect(WeatherParser.errorMessage(Data(#"{"cod":401, "message": "Invalid API key. Please see https://openweathermap.org/faq#error401 for more info."}"#.utf8))?.hasPrefix("Invalid API key") == true)
        #expect(WeatherParser.errorMessage(Data(#"{"cod":"404","message":"city not found"}"#.utf8)) == "city not found")
        #expect(WeatherParser.errorMessage(Data("<ClientError><cod>404</cod><message>city not found</message></ClientError>".utf8)) == "city not found")
        #expect(WeatherParser.errorMessage(try sample("current_json_portlaoise_kelvin_2017-08.pihome.json")) == nil)
        #expect(throws: TransitError.api(provider: "OpenWeatherMap", message: "city not found", details: nil)) {
            try WeatherParser.current(Data(#"{"cod":"404","message":"city not found"}"#.utf8))
        }
        #expect(errorKind { try WeatherParser.current(Data("<current></current>".utf8)) } == "parse")
    }
}

@Suite struct RailWeatherEndToEndTests {
    func env(_ server: LoopbackServer, _ extra: [String: String] = [:]) -> [String: String] {
        Run.environment(["TRANSIT_RAIL12306_BASE_URL": server.baseURL, "TRANSIT_RAIL12306_SEARCH_BASE_URL": server.baseURL,
                         "TRANSIT_OWM_BASE_URL": server.baseURL + "/data/2.5", "TRANSIT_OWM_KEY": "OWMKEY"], extra)
    }

    func fixtures() throws -> LoopbackServer {
        let rail = LoopbackServer.recordings(in: Paths.fixtures, provider: "rail12306", prefix: "/")
        let weather = LoopbackServer.recordings(in: Paths.fixtures, provider: "weather", prefix: "/data/2.5/")
        return try LoopbackServer { $0.path.hasPrefix("/data/2.5/") ? weather($0) : rail($0) }
    }

    @Test func scheduleInJSONAndTSV() async throws {
        let server = try fixtures()
        defer { server.stop() }
        let tsv = try await Run.transit(["rail12306", "schedule", "g129", "--date", "2026-11-23"], env: env(server))
        #expect(tsv.status == 0, "\(tsv.stderr)")
        #expect(tsv.stdoutLines.count == 10)
        #expect(tsv.stdoutLines.first == "1\t北京南\tVNP\t\t2026-11-23T12:10:00+08:00\t\t1")
        #expect(tsv.stdoutLines.last == "10\t上海虹桥\tAOH\t2026-11-23T17:50:00+08:00\t\t\t1")
        let search = try #require(server.requests.first { $0.path == "/search/v1/train/search" })
        #expect(search.value("date") == "20261123" && search.value("keyword") == "G129")
        let json = try await Run.transit(["--format", "json", "rail12306", "schedule", "G129", "--date", "2026-11-23"], env: env(server))
        #expect(json.status == 0, "\(json.stderr)")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(list.count == 10 && list[1]["dwell_minutes"] as? Int == 2 && list[0]["arrival"] is NSNull)
        let unknown = try await Run.transit(["rail12306", "schedule", "G12", "--date", "2026-11-23"], env: env(server))
        #expect(unknown.status != 0)
    }

    @Test func weatherInJSONAndTSVAndErrors() async throws {
        let server = try fixtures()
        defer { server.stop() }
        let tsv = try await Run.transit(["weather", "--city", "Berlin"], env: env(server))
        #expect(tsv.status == 0, "\(tsv.stderr)")
        #expect(tsv.stdoutLines == ["Berlin\tDE\tBedeckt\t12.73\t11.67\t13.89\t7.4\tcelsius\t62\t6.2\tm/s\tSSW\t2020-01-15T12:53:01+01:00"])
        let request = try #require(server.requests.first)
        #expect(request.value("mode") == "xml" && request.value("units") == "metric" && request.value("appid") == "OWMKEY")
        let json = try await Run.transit(["--format", "json", "weather", "--city", "Seattle", "--units", "imperial"], env: env(server))
        #expect(json.stdout.contains("\"temperature_unit\": \"fahrenheit\"") && json.stdout.contains("-07:00\""))

        let bad = try LoopbackServer { _ in .status(401, #"{"cod":401, "message": "Invalid API key. Please see https://openweathermap.org/faq#error401 for more info."}"#) }
        defer { bad.stop() }
        let e = try await Run.transit(["weather", "--city", "Berlin"], env: env(bad))
        #expect(e.status == 1 && e.stderrLines.count == 1)
        #expect(e.stderr.hasPrefix("transit: OpenWeatherMap: Invalid API key.") && !e.stderr.contains("OWMKEY"))
        let missing = try LoopbackServer { _ in .status(404, #"{"cod":"404","message":"city not found"}"#) }
        defer { missing.stop() }
        let m = try await Run.transit(["weather", "--city", "Atlantis"], env: env(missing))
        #expect(m.status == 1 && m.stderr == "transit: OpenWeatherMap: city not found: HTTP 404\n")
        let noKey = try await Run.transit(["weather", "--city", "Berlin"], env: Run.environment())
        #expect(noKey.status == 1 && noKey.stderrLines.first == "transit: OpenWeatherMap needs an API key: set TRANSIT_OWM_KEY")
        let usage = try await Run.transit(["weather", "--city", "Berlin", "--lat", "1"], env: env(server))
        #expect(usage.status == 2)
    }

    @Test func aThrottlePageIsSaid() async throws {
        let server = try LoopbackServer { _ in .ok("<!DOCTYPE html><html><body>网络可能存在问题，请您重试一下！</body></html>", type: "text/html") }
        defer { server.stop() }
        let run = try await Run.transit(["rail12306", "stations", "--search", "北京"], env: env(server))
        #expect(run.status == 1)
        #expect(run.stderrLines == ["transit: expected JavaScript from \(server.baseURL)/otn/resources/js/framework/station_name.js but got an HTML page",
                                    "the service may be down or throttling; try again later"])
    }

    @Test func offlineFromTheBundledFixtures() async throws {
        let env = Run.environment()
        let g1 = try await Run.transit(["--offline", "rail12306", "schedule", "G1", "--date", "2026-11-23"], env: env)
        #expect(g1.status == 0, "\(g1.stderr)")
        #expect(g1.stdoutLines.count == 4)
        let weather = try await Run.transit(["--offline", "weather", "--city", "Beijing"], env: env)
        #expect(weather.status == 0, "\(weather.stderr)")
        #expect(weather.stdoutLines.first?.hasPrefix("Beijing\tCN\tclear sky\t3.94") == true)
        let station = try await Run.transit(["--offline", "--format", "table", "weather", "--station", "北京南"], env: env)
        #expect(station.status == 0 && station.stdoutLines.count == 2)
        let table = try await Run.transit(["--offline", "--format", "table", "rail12306", "stations", "--search", "上海"], env: env)
        // Wide characters line up: every row's TELECODE column starts at the same display cell.
        let rows = table.stdoutLines
        let starts = rows.map { row -> Int in
            var width = 0
            var sawGap = false
            for ch in row {
                if sawGap && ch != " " { return width }
                if ch == " " { if width > 0 { sawGap = true } }
                width += TextWidth.of(String(ch))
            }
            return width
        }
        #expect(rows.count > 3 && Set(starts).count == 1, "\(starts)")
    }
}
