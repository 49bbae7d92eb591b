import Foundation
import TransitSupport

// Reading a feed's fares at import: Fares v1 (fare_attributes.txt, fare_rules.txt) and rider
// categories (v2's rider_categories.txt, and BART's fare_rider_categories.txt beside v1); Fares
// v2's other files are FareProductReading's. A row that cannot be used is skipped and counted in
// one warning; the rest of the feed imports.

extension GTFSCompiler {
    /// A price: a decimal number within ±1e9, correctly rounded (Double(String): 4.60 is 4.6,
    /// not a step beside it, as `FieldBytes.double` would read it).
    static func amount(_ r: CSVReader, _ column: Int) -> Double? {
        guard let value = Double(r.string(column)), value.isFinite, abs(value) < 1e9 else { return nil }
        return value
    }

    /// ISO 4217's shape: three capital letters.
    static func isCurrency(_ code: UnsafeBufferPointer<UInt8>) -> Bool {
        code.count == 3 && code.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
    }
}

extension GTFSCompiler {
    /// Fares v1: fare_attributes.txt and fare_rules.txt. A row that cannot be used (an unknown
    /// fare, route or zone, a price that is no number, a currency that is not three capital
    /// letters) is skipped and counted in one warning; the rest of the feed imports.
    mutating func readFares(_ attributes: CSVReader?, _ rules: CSVReader?) throws(TransitError) {
        guard let attributes else { return }
        guard let id = attributes.column("fare_id"), let price = attributes.column("price"), let currency = attributes.column("currency_type") else {
            warnings.append("fare_attributes.txt has no fare_id, price or currency_type column: the feed's fares are left out")
            return
        }
        let transfers = attributes.column("transfers"), duration = attributes.column("transfer_duration")
        var skipped = 0
        while try attributes.next() {
            guard let value = Self.amount(attributes, price), value >= 0, Self.isCurrency(attributes.bytes(currency)),
                  !attributes.isEmpty(id), fares.insert(attributes.bytes(id)).added else { skipped += 1; continue }
            t.farePrice.append(value)
            t.fareCurrency.append(attributes.string(currency))
            // transfers: empty is unlimited; 0, 1, 2 as written. transfer_duration in seconds.
            let allowed = transfers.flatMap { attributes.isEmpty($0) ? nil : FieldBytes.int(attributes.bytes($0)) }
            t.fareTransfers.append(allowed.map { Int32(clamping: max(0, $0)) } ?? -1)
            let seconds = duration.flatMap { attributes.isEmpty($0) ? nil : FieldBytes.int(attributes.bytes($0)) }
            t.fareTransferDuration.append(seconds.map { Int32(clamping: max(0, $0)) } ?? -1)
        }
        t.fareIDs = fares.keys
        if let rules, let fare = rules.column("fare_id") {
            let columns = [rules.column("route_id"), rules.column("origin_id"), rules.column("destination_id"), rules.column("contains_id")]
            while try rules.next() {
                guard let f = fares.find(rules.bytes(fare)) else { skipped += 1; continue }
                var row = [Int32(f)]
                for (k, column) in columns.enumerated() {
                    guard let column, !rules.isEmpty(column) else { row.append(-1); continue }
                    // A route, or a zone some stop is in.
                    guard let index = k == 0 ? routes.find(rules.bytes(column)) : zones.find(rules.bytes(column)) else { break }
                    row.append(Int32(index))
                }
                guard row.count == 5 else { skipped += 1; continue }
                for value in row { t.fareRules.append(value) }
            }
        }
        if skipped > 0 {
            warnings.append("\(skipped) fare \(skipped == 1 ? "row names" : "rows name") an unknown fare, route or zone, or a price or currency that cannot be read: skipped")
        }
    }
}

extension GTFSCompiler {
    /// rider_categories.txt: each category's id, name (v2's rider_category_name, or BART's
    /// rider_category_description) and whether it is the default (is_default_fare_category).
    mutating func readRiderCategories(_ r: CSVReader?) throws(TransitError) {
        guard let r, let id = r.column("rider_category_id") else { return }
        let name = r.column("rider_category_name") ?? r.column("rider_category_description"), isDefault = r.column("is_default_fare_category")
        var skipped = 0
        while try r.next() {
            guard !r.isEmpty(id), riderCategories.insert(r.bytes(id)).added else { skipped += 1; continue }
            t.riderCategoryNames.append(text(r, name))
            t.riderCategoryDefault.append(isDefault.flatMap { FieldBytes.int(r.bytes($0)) } == 1 ? 1 : 0)
        }
        t.riderCategoryIDs = riderCategories.keys
        if skipped > 0 { warnings.append("\(skipped) \(skipped == 1 ? "row" : "rows") of rider_categories.txt without an id or repeating one: skipped") }
    }

    /// fare_rider_categories.txt (fare_id, rider_category_id, price), as BART publishes it
    /// beside Fares v1: a category's price for a fare. A row naming an unknown fare or
    /// category, or a price that is no number, is skipped and counted.
    mutating func readRiderPrices(_ prices: CSVReader?) throws(TransitError) {
        guard let prices, !t.fareIDs.isEmpty, let fare = prices.column("fare_id"), let category = prices.column("rider_category_id"),
              let price = prices.column("price") else { return }
        var skipped = 0
        while try prices.next() {
            guard let f = fares.find(prices.bytes(fare)), let c = riderCategories.find(prices.bytes(category)),
                  let value = Self.amount(prices, price), value >= 0 else { skipped += 1; continue }
            t.riderFare.append(Int32(f))
            t.riderCategory.append(Int32(c))
            t.riderPrice.append(value)
        }
        if skipped > 0 {
            warnings.append("\(skipped) rider category \(skipped == 1 ? "row names" : "rows name") an unknown fare or category, or a price that cannot be read: skipped")
        }
    }
}
