import Foundation
import TransitSupport

// Reading a feed's fares at import: Fares v1 (fare_attributes.txt, fare_rules.txt) and rider
// categories (v2's rider_categories.txt, and BART's fare_rider_categories.txt beside v1); Fares
// v2's other files are FareProductReading's. A row that cannot be used is skipped and counted in
// one warning; the rest of the feed imports.

extension GTFSCompiler {
    /// A price in `currency`'s minor units, read exactly from its decimal text (`Money`); nil
    /// for text that is not one (hex, an exponent, more decimals than the currency has).
    static func amount(_ r: CSVReader, _ column: Int, currency: String) -> Double? {
        Money.minorUnits(r.bytes(column), decimals: Money.decimals(currency))
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
            // transfers: empty is unlimited; else 0, 1 or 2. transfer_duration: empty, or seconds.
            // Anything else (`O`, `-5`, `1e9`, `abc`) is a row that cannot be read, never "unlimited".
            let allowed = transfers.map { attributes.isEmpty($0) ? -1 : FieldBytes.int(attributes.bytes($0)).flatMap { (0...2).contains($0) ? $0 : nil } ?? -2 } ?? -1
            let seconds = duration.map { attributes.isEmpty($0) ? -1 : FieldBytes.int(attributes.bytes($0)) ?? -2 } ?? -1
            guard Self.isCurrency(attributes.bytes(currency)), let value = Self.amount(attributes, price, currency: attributes.string(currency)), value >= 0,
                  allowed >= -1, seconds >= -1, !attributes.isEmpty(id), fares.insert(attributes.bytes(id)).added else { skipped += 1; continue }
            t.fares.farePrice.append(value)
            t.fares.fareCurrency.append(attributes.string(currency))
            t.fares.fareTransfers.append(Int32(allowed))
            t.fares.fareTransferDuration.append(Int32(clamping: seconds))
        }
        t.fares.fareIDs = fares.keys
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
                for value in row { t.fares.fareRules.append(value) }
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
            t.fares.riderCategoryNames.append(text(r, name))
            t.fares.riderCategoryDefault.append(isDefault.flatMap { FieldBytes.int(r.bytes($0)) } == 1 ? 1 : 0)
        }
        t.fares.riderCategoryIDs = riderCategories.keys
        if skipped > 0 { warnings.append("\(skipped) \(skipped == 1 ? "row" : "rows") of rider_categories.txt without an id or repeating one: skipped") }
    }

    /// fare_rider_categories.txt (fare_id, rider_category_id, price), as BART publishes it
    /// beside Fares v1: a category's price for a fare. A row naming an unknown fare or
    /// category, or a price that is no number, is skipped and counted.
    mutating func readRiderPrices(_ prices: CSVReader?) throws(TransitError) {
        guard let prices, !t.fares.fareIDs.isEmpty, let fare = prices.column("fare_id"), let category = prices.column("rider_category_id"),
              let price = prices.column("price") else { return }
        var skipped = 0
        while try prices.next() {
            guard let f = fares.find(prices.bytes(fare)), f < t.fares.fareCurrency.count, let c = riderCategories.find(prices.bytes(category)),
                  let value = Self.amount(prices, price, currency: t.fares.fareCurrency[f]), value >= 0 else { skipped += 1; continue }
            t.fares.riderFare.append(Int32(f))
            t.fares.riderCategory.append(Int32(c))
            t.fares.riderPrice.append(value)
        }
        if skipped > 0 {
            warnings.append("\(skipped) rider category \(skipped == 1 ? "row names" : "rows name") an unknown fare or category, or a price that cannot be read: skipped")
        }
    }
}
