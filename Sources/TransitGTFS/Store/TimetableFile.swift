import Foundation
import TransitSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The compiled file: a magic line naming the version, then every field of `Timetable.fields`
/// as a length-prefixed little-endian block, in that list's order, which writing, reading and
/// the check at load all follow. Written to a temporary file and renamed over the old one.
package enum TimetableFile {
    /// Bumped whenever a section, its order or its meaning changes: an older file is refused
    /// ("import the feed again"), never misread.
    package static let version = 24
    /// 16 bytes, so that what follows stays 8-byte aligned.
    package static let magic = Array("transit-gtfs \(version < 10 ? "0" : "")\(version)\n".utf8)

    package static func encode(_ t: Timetable) -> Data {
        var w = BinaryWriter()
        write(t, to: &w)
        return w.data
    }

    package static func write(_ t: Timetable, to w: inout BinaryWriter) {
        w.raw(magic)
        for field in Timetable.fields { field.write(t, &w) }
    }

    package static func decode(_ data: Data, path: String) throws(TransitError) -> Timetable {
        let box = DataBox(data)
        return try decode(box.bytes, from: 0, owner: box, path: path)
    }

    /// Reads from `bytes` (kept alive by `owner`); the big arrays stay where they are.
    /// `vouched`: a `CheckRecord` says the file was validated as it is; then the fields checked
    /// where they are read are not checked whole (see `TimetableField.checkedWhereRead`), and
    /// what those checks find is kept in the timetable's `damage`.
    package static func decode(_ bytes: UnsafeRawBufferPointer, from start: Int, owner: AnyObject, path: String, vouched: Bool = false) throws(TransitError) -> Timetable {
        var r = BinaryReader(bytes: bytes, owner: owner, path: path)
        r.position = start
        guard try r.raw(magic.count) == magic else {
            throw .parse(what: path, reason: "not a compiled timetable of this version; import the feed again")
        }
        var t = Timetable()
        for field in Timetable.fields { try field.read(&t, &r) }
        try Self.validate(t, path: path, vouched: vouched)
        t.damage = TimetableDamage(path: path)
        return t
    }

    /// Every index the router follows is in range: a damaged file is an error, never a trap.
    /// Each field's check, in the list's order (a check may lean on the fields before it);
    /// `vouched`: every size, and the values of all but the fields checked where read.
    package static func validate(_ t: Timetable, path: String, vouched: Bool = false) throws(TransitError) {
        var t = t
        for field in Timetable.fields where !field.fits(&t) || (!(vouched && field.checkedWhereRead) && !field.check(&t)) {
            throw .parse(what: path, reason: "the compiled timetable is damaged (\(field.name)); import the feed again")
        }
    }
}
