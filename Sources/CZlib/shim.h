// The system zlib (Debian: zlib1g-dev), for inflating GTFS zips. Not a package: a C library
// of the system, reached through a system-library target.
#include <zlib.h>
