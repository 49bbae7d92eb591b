import Foundation
import TransitSupport

/// A feed's fares as compiled: Fares v1 (fare_attributes.txt, fare_rules.txt, stops' zone_id),
/// the rider categories beside them, and Fares v2's products and rules. One value of the
/// timetable, read by `FareTable` and `FareProducts`, written by the compiler's fare steps
/// (`FareReading`, `FareProductReading`); its fields are in `Timetable.fields`, as every
/// stored field is, so that the file keeps them and a combination joins them.
package struct CompiledFares: Sendable {
    // Fares v1 (fare_attributes.txt, fare_rules.txt, stops' zone_id): see `FareTable`.
    /// Each stop's zone (-1: none), an index of `zoneIDs`.
    package var stopZone = Packed<Int32>()
    package var zoneIDs = StringTable()
    package var fareIDs = StringTable()
    /// In the currency's minor units, whole numbers (`Money`): 4.60 USD is 460.
    package var farePrice = Packed<Double>()
    /// ISO 4217, as the feed wrote it (checked at import).
    package var fareCurrency = StringTable()
    /// How many changes a ticket allows (-1: unlimited), and in how many seconds (-1: no limit).
    package var fareTransfers = Packed<Int32>()
    package var fareTransferDuration = Packed<Int32>()
    /// fare_rules.txt, five values a row: fare, route, origin zone, destination zone, contained
    /// zone (-1 where the row leaves the field empty).
    package var fareRules = Packed<Int32>()
    /// Rider categories beside Fares v1 (BART's rider_categories.txt and
    /// fare_rider_categories.txt): each category's id and name, and a fare's price for one.
    package var riderCategoryIDs = StringTable()
    package var riderCategoryNames = StringTable()
    /// 1 for the category Fares v2 prices for when no --rider is given (is_default_fare_category).
    package var riderCategoryDefault = Packed<UInt8>()
    package var riderFare = Packed<Int32>()
    package var riderCategory = Packed<Int32>()
    /// In the fare's currency's minor units.
    package var riderPrice = Packed<Double>()

    // Fares v2 (fare_products.txt, fare_leg_rules.txt, fare_transfer_rules.txt, areas,
    // networks, timeframes, fare media): see `FareProducts`. Rows of several values are flat
    // arrays, `TimetableTable`'s stride a row; -1 where the feed leaves a field empty.
    package var areaIDs = StringTable()
    package var areaNames = StringTable()
    /// Stop x's areas are `stopAreas[stopAreaStart[x] ..< stopAreaStart[x + 1]]`: its own, else
    /// its station's (stop_areas.txt names a station for all its platforms).
    package var stopAreaStart = Packed<Int32>([0])
    package var stopAreas = Packed<Int32>()
    package var networkIDs = StringTable()
    package var networkNames = StringTable()
    /// Each route's network (route_networks.txt, or routes.txt's network_id), -1 for none.
    package var routeNetwork = Packed<Int32>()
    package var fareMediaIDs = StringTable()
    package var fareMediaNames = StringTable()
    package var productIDs = StringTable()
    package var productNames = StringTable()
    /// fare_products.txt's rows (a product, a rider category, a fare medium), each with its
    /// amount and currency: one product may have several.
    package var offers = Packed<Int32>()
    /// In the currency's minor units (negative for a discount).
    package var offerAmount = Packed<Double>()
    package var offerCurrency = StringTable()
    package var timeframeGroupIDs = StringTable()
    /// timeframes.txt: group, start and end (seconds of the day, end excluded), service.
    package var timeframes = Packed<Int32>()
    package var legGroupIDs = StringTable()
    /// fare_leg_rules.txt: leg group, network, from area, to area, from timeframe group, to
    /// timeframe group, product, rule_priority (-1: the file has no such column).
    package var legRules = Packed<Int32>()
    /// fare_leg_join_rules.txt: from network, to network, from stop, to stop (-1: any): two
    /// consecutive rides that match are one fare leg.
    package var legJoinRules = Packed<Int32>()
    /// fare_transfer_rules.txt: from leg group, to leg group, transfer_count (-1: no limit),
    /// duration_limit (-1: none), duration_limit_type, fare_transfer_type, product.
    package var transferRules = Packed<Int32>()

    /// Where each feed's fare leg and transfer rules begin (a rule that names nothing still
    /// holds only in its own feed).
    package var feedLegRuleStart = Packed<Int32>()
    package var feedTransferRuleStart = Packed<Int32>()
}
