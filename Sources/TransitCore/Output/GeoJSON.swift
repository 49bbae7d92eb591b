import TransitSupport
/// GeoJSON for commands that return places: a FeatureCollection of Points, each record's
/// fields as properties, coordinates [longitude, latitude]; optionally route shapes as
/// LineStrings, and journeys as MultiLineStrings (a line a leg).
package enum GeoJSON {
    package static func points(_ records: [Record], lines: [(properties: Record, coordinates: [(Double, Double)])] = []) -> Value {
        var features: [Value] = []
        for record in records {
            guard case .double(let lat)? = record["latitude"], case .double(let lon)? = record["longitude"] else { continue }
            features.append(.object(Record([
                ("type", .string("Feature")),
                ("geometry", .object(Record([("type", .string("Point")), ("coordinates", .list([.double(lon), .double(lat)]))]))),
                ("properties", .object(record)),
            ])))
        }
        for line in lines where line.coordinates.count >= 2 {
            features.append(.object(Record([
                ("type", .string("Feature")),
                ("geometry", .object(Record([("type", .string("LineString")),
                                             ("coordinates", .list(line.coordinates.map { .list([.coordinate($0.1), .coordinate($0.0)]) }))]))),
                ("properties", .object(line.properties)),
            ])))
        }
        return .object(Record([("type", .string("FeatureCollection")), ("features", .list(features))]))
    }

    /// Journeys: a Feature each, a MultiLineString of one line a leg (rides and walks, in order),
    /// its record as properties.
    package static func journeys(_ journeys: [(properties: Record, legs: [[(Double, Double)]])]) -> Value {
        let features: [Value] = journeys.map { journey in
            let lines = journey.legs.filter { $0.count >= 2 }.map { line in Value.list(line.map { .list([.coordinate($0.1), .coordinate($0.0)]) }) }
            return .object(Record([("type", .string("Feature")),
                                   ("geometry", .object(Record([("type", .string("MultiLineString")), ("coordinates", .list(lines))]))),
                                   ("properties", .object(journey.properties))]))
        }
        return .object(Record([("type", .string("FeatureCollection")), ("features", .list(features))]))
    }

    /// Contours (isochrones): a Feature each, a MultiPolygon of polygons (each its outer ring,
    /// then its holes; every ring closed), its record as properties.
    package static func multiPolygons(_ shapes: [(properties: Record, polygons: [[[Coordinate]]])]) -> Value {
        let features: [Value] = shapes.map { shape in
            let polygons = shape.polygons.map { polygon in
                Value.list(polygon.map { ring in Value.list(ring.map { .list([.coordinate($0.longitude), .coordinate($0.latitude)]) }) })
            }
            return .object(Record([("type", .string("Feature")),
                                   ("geometry", .object(Record([("type", .string("MultiPolygon")), ("coordinates", .list(polygons))]))),
                                   ("properties", .object(shape.properties))]))
        }
        return .object(Record([("type", .string("FeatureCollection")), ("features", .list(features))]))
    }
}
