import Foundation
import Testing
@testable import TransitCore
@testable import TransitGTFS
@testable import TransitSupport

/// An item that cannot be read is counted and said; an answer with none readable is a failure
/// that names what was missing.
@Suite struct NoSilentDropsTests {
    let cta = BusTimeAgency.cta

    @Test func aPredictionWithoutPrdtmIsCountedNotDropped() throws {
        let body = #"{"bustime-response":{"prd":[{"rt":"22","stpid":"1836","prdtm":"20261122 14:05","tmstmp":"20261122 14:01"},{"rt":"22","stpid":"1836"}]}}"#
        let result = try BusTimeParser.predictions(Data(body.utf8), agency: cta)
        #expect(result.items.count == 1)
        #expect(result.skipped.count == 1 && result.skipped.first == "prd[1]: no prdtm")
        #expect(result.skipped.notice("predictions", of: 2) == "skipped 1 of 2 predictions that could not be read (prd[1]: no prdtm)")
    }

    @Test func noneReadableIsAParseErrorWithThePath() {
        let body = #"{"bustime-response":{"prd":[{"rt":"22"},{"rt":"36","prdtm":"tomorrow"}]}}"#
        #expect(throws: TransitError.parse(what: "CTA Bus Tracker predictions", reason: "none of its 2 predictions could be read (prd[0]: no prdtm)")) {
            try BusTimeParser.predictions(Data(body.utf8), agency: cta)
        }
        // A wrong JSON type inside an item names its coding path.
        let typed = #"{"bustime-response":{"ptr":[{"pid":1,"pt":[{"seq":1,"lat":{"x":1},"lon":2}]}]}}"#
        #expect(errorKind { try BusTimeParser.patterns(Data(typed.utf8), agency: cta) } == "parse")
        do {
            _ = try BusTimeParser.patterns(Data(typed.utf8), agency: cta)
        } catch {
            #expect(error.message.contains("ptr[0].pt[0].lat"), "\(error.message)")
        }
    }

    @Test func anEmptyAnswerIsMarkedEmpty() throws {
        for body in [#"{"bustime-response":{}}"#, #"{"bustime-response":{"routes":null}}"#, #"{"bustime-response":{"routes":{}}}"#] {
            let result = try BusTimeParser.routes(Data(body.utf8), agency: cta)
            #expect(result.items.isEmpty && result.empty, "\(body)")
        }
    }

    @Test func lenientFieldsTakeEitherType() throws {
        struct Row: Decodable { var a: Text?, b: Number?, c: Flag?, d: Items<Number>? }
        let rows = try JSONDecoder().decode([Row].self, from: Data(#"[{"a":12,"b":"3.5","c":"yes","d":7},{"a":"x","b":4,"c":0,"d":"  "}]"#.utf8))
        #expect(rows[0].a?.value == "12" && rows[0].b?.value == 3.5 && rows[0].c?.value == true && rows[0].d?.values.map(\.value) == [7])
        #expect(rows[1].a?.value == "x" && rows[1].b?.value == 4 && rows[1].c?.value == false && rows[1].d?.values.isEmpty == true)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Number.self, from: Data(#""1e999""#.utf8)) }
        #expect(try JSONDecoder().decode(Number.self, from: Data("99999999999999999999".utf8)).int == nil)
    }

    @Test func aBusbudDepartureInAnUnknownZoneIsSaid() throws {
        let body = #"""
        {"complete":true,"departures":[
          {"id":"a","departure_time":"2026-12-19T08:00:00","arrival_time":"2026-12-19T16:00:00","departure_timezone":"America/New_York","arrival_timezone":"America/Toronto"},
          {"id":"b","departure_time":"2026-12-19T09:00:00","arrival_time":"2026-12-19T17:00:00","departure_timezone":"Mars/Olympus","arrival_timezone":"America/Toronto"}]}
        """#
        let response = try BusbudParser.response(Data(body.utf8))
        #expect(response.departures.map(\.id) == ["a"])
        #expect(response.skipped.count == 1 && response.skipped.first == "departure b: unknown time zone 'Mars/Olympus'")
    }

    @Test func xmlIsReadAsTheSameStructs() throws {
        let xml = "<?xml version=\"1.0\"?><bustime-response><prd><tmstmp>20180404 20:24</tmstmp><rt>20</rt><stpid>4727</stpid><prdtm>20180404 20:27</prdtm><dly>false</dly><prdctdn>3</prdctdn></prd></bustime-response>"
        let result = try BusTimeParser.predictions(Data(xml.utf8), agency: cta)
        #expect(result.items.count == 1 && result.items.first?.route == "20" && result.items.first?.delayed == false)
    }

    @Test func deepXMLAndAStrangeDeclarationAreParseErrors() {
        let deep = String(repeating: "<a>", count: 100_000) + String(repeating: "</a>", count: 100_000)
        #expect(throws: TransitError.parse(what: "x", reason: "elements nested deeper than 256")) {
            try XMLTree.parse(Data(deep.utf8), what: "x")
        }
        var strange = Data("<?xml version=\"1.0\" encoding=\"iso".utf8)
        strange.append(0x9F)
        strange.append(contentsOf: Array("8859-1\"?><root/>".utf8))
        #expect(throws: TransitError.parse(what: "x", reason: "the XML declaration is not plain ASCII")) {
            try XMLTree.parse(strange, what: "x")
        }
    }
}
