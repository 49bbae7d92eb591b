import Foundation

/// Parquet files read back (issue 71): by scripts/parquet-read.py, the standard library's reader
/// that shares nothing with ours, in every run; by pyarrow and DuckDB where scripts/setup could
/// install them (else the reason is printed).
enum ParquetCheck {
    /// What disagrees between the Parquet file and the CSV file of the same rows (empty: they agree).
    static func problems(_ parquet: String, against csv: String) async throws -> [String] {
        var out: [String] = []
        for library in ["", "pyarrow", "duckdb"] {
            let with = library.isEmpty ? "" : " --with \(library)"
            let run = try await Run.transitLike(["/bin/sh", "-c", "python3 '\(Paths.root.path)/scripts/parquet-read.py' '\(parquet)' --compare '\(csv)'\(with)"],
                                                env: ProcessInfo.processInfo.environment)
            if run.status == 77 && !library.isEmpty {
                print("parquet: \(library) is not installed (scripts/setup installs it): the file is read by scripts/parquet-read.py alone")
                continue
            }
            if run.status != 0 { out.append("\(library.isEmpty ? "parquet-read.py" : library): \(run.status) \(run.stderr)") }
        }
        return out
    }
}
