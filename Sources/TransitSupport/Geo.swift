import Foundation

/// A point on Earth in decimal degrees.
public struct Coordinate: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// `LAT,LON` in decimal degrees (spaces allowed around each); nil unless both are numbers in range.
    public init?(parsing text: String) {
        let parts = text.split(separator: ",").map { Double($0.trimmedSpace(newlines: false)) }
        guard parts.count == 2, let lat = parts[0], let lon = parts[1], (-90...90).contains(lat), (-180...180).contains(lon) else { return nil }
        self.init(latitude: lat, longitude: lon)
    }

    /// Mean Earth radius, as the haversine formula uses it.
    public static let earthRadiusMeters = 6_371_000.0
    public static let metersPerFoot = 0.3048
    public static let metersPerMile = 1609.344

    /// The mean radius OSMnx measures street segments with (../shared/reference/osm/README.md).
    public static let meanEarthRadiusMeters = 6_371_008.8

    /// Great-circle distance in meters (haversine), on a sphere of `radius`.
    public func meters(to other: Coordinate, radius: Double = earthRadiusMeters) -> Double {
        let p1 = latitude * .pi / 180, p2 = other.latitude * .pi / 180
        let dp = (other.latitude - latitude) * .pi / 180, dl = (other.longitude - longitude) * .pi / 180
        let a = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * radius * atan2(sqrt(a), sqrt(max(0, 1 - a)))
    }
}
