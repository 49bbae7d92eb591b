import TransitGTFS

/// A price as every command of transit writes it (issue 69: Busbud's table wrote `CA$12.00` and
/// `JPY 500` where gtfs wrote `$12.00` for Canadian dollars and `420 JPY`; gtfs fares' tsv `8.2`
/// where trips' wrote `8.20`). A table: the currency's symbol where it names that currency alone
/// (`$` is the US dollar; Canada's is `CA$`), else its ISO 4217 code and a space, then the
/// amount. tsv and csv: the amount alone, always with the currency's own minor digits (`8.20`,
/// `500` yen, `1.250` dinars: `Money`), its currency in a column of its own.
package enum PriceText {
    static let symbols = ["USD": "$", "EUR": "€", "GBP": "£", "CAD": "CA$", "AUD": "A$", "NZD": "NZ$", "MXN": "MX$"]

    /// `minor` units of `currency` as a table shows them: `$4.60`, `€72.95`, `JPY 500`; without
    /// a currency, the amount alone.
    package static func table(minor: Double, currency: String?) -> String {
        let amount = self.amount(minor: minor, currency: currency)
        guard let currency, !currency.isEmpty else { return amount }
        if let symbol = symbols[currency] { return symbol + amount }
        return currency + " " + amount
    }

    /// The amount alone, in the currency's decimals (two where it is unknown).
    package static func amount(minor: Double, currency: String?) -> String { Money.text(minor, currency: currency ?? "") }
}
