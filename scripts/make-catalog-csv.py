#!/usr/bin/env python3
"""The Mobility Database catalog as its published v2 CSV (feeds_v2.csv), built from the
catalogs repository's JSON files (one per source), column by column as
../shared/reference/catalog/README.md describes it: `mdb_source_id` 53 is `mdb-53`, `gtfs-rt` is
`gtfs_rt`, lists are joined by `|`, a missing status is `active`, features are the validator's
names (`fares-v1` → `Fares V1`), a redirect names its target's id. Deterministic: rows by id.

    scripts/make-catalog-csv.py CATALOGS_DIR OUT.csv [--rows N]

CATALOGS_DIR is mdb-catalogs/catalogs/sources; --rows repeats the rows (with new ids, `mdb-…-copyK`)
up to N, for a catalog as large as the published one (the benchmark)."""
import csv, json, os, sys

HEADER = ("id,data_type,entity_type,location.country_code,location.subdivision_name,location.municipality,provider,is_official,"
          "name,note,feed_contact_email,static_reference,urls.direct_download,urls.authentication_type,urls.authentication_info,"
          "urls.api_key_parameter_name,urls.latest,urls.license,location.bounding_box.minimum_latitude,"
          "location.bounding_box.maximum_latitude,location.bounding_box.minimum_longitude,location.bounding_box.maximum_longitude,"
          "location.bounding_box.extracted_on,status,features,redirect.id,redirect.comment").split(",")


def text(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return "True" if value else "False"
    return str(value)


def feature(name):
    # The validator's names: words capitalised, "v1" as "V1".
    return " ".join(word.upper() if word[:1] == "v" and word[1:].isdigit() else word.capitalize() for word in name.replace("_", "-").split("-"))


def row(source):
    location, urls, box = source.get("location") or {}, source.get("urls") or {}, (source.get("location") or {}).get("bounding_box") or {}
    redirect = (source.get("redirect") or [{}])[0] if source.get("redirect") else {}
    values = {
        "id": f"mdb-{source['mdb_source_id']}",
        "data_type": source.get("data_type", "").replace("-", "_"),
        "entity_type": "|".join(source.get("entity_type") or []),
        "location.country_code": location.get("country_code"),
        "location.subdivision_name": location.get("subdivision_name"),
        "location.municipality": location.get("municipality"),
        "provider": source.get("provider"),
        "is_official": source.get("is_official"),
        "name": source.get("name"),
        "note": source.get("note"),
        "feed_contact_email": source.get("feed_contact_email"),
        "static_reference": "|".join(f"mdb-{ref}" for ref in source.get("static_reference") or []),
        "urls.direct_download": urls.get("direct_download"),
        "urls.authentication_type": urls.get("authentication_type"),
        "urls.authentication_info": urls.get("authentication_info"),
        "urls.api_key_parameter_name": urls.get("api_key_parameter_name"),
        "urls.latest": urls.get("latest"),
        "urls.license": urls.get("license"),
        "location.bounding_box.minimum_latitude": box.get("minimum_latitude"),
        "location.bounding_box.maximum_latitude": box.get("maximum_latitude"),
        "location.bounding_box.minimum_longitude": box.get("minimum_longitude"),
        "location.bounding_box.maximum_longitude": box.get("maximum_longitude"),
        "location.bounding_box.extracted_on": box.get("extracted_on"),
        "status": (source.get("status") or "active").strip(),
        "features": "|".join(feature(f) for f in source.get("features") or []),
        "redirect.id": f"mdb-{redirect['id']}" if redirect.get("id") else "",
        "redirect.comment": redirect.get("comment"),
    }
    return [text(values[column]) for column in HEADER]


def main():
    args = sys.argv[1:]
    rows_wanted = None
    if "--rows" in args:
        i = args.index("--rows")
        rows_wanted = int(args[i + 1])
        del args[i:i + 2]
    root, out = args
    sources = []
    for kind in ("schedule", "realtime"):
        directory = os.path.join(root, "gtfs", kind)
        for name in sorted(os.listdir(directory)):
            if name.endswith(".json"):
                with open(os.path.join(directory, name), encoding="utf-8") as f:
                    sources.append(json.load(f))
    rows = sorted((row(s) for s in sources), key=lambda r: int(r[0].split("-")[1]))
    if rows_wanted:
        copies, k = list(rows), 1
        while len(copies) < rows_wanted:
            for r in rows[: rows_wanted - len(copies)]:
                copies.append([f"{r[0]}-copy{k}"] + r[1:])
            k += 1
        rows = copies
    with open(out, "w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(HEADER)
        writer.writerows(rows)


if __name__ == "__main__":
    main()
