/// The suites whose work keeps a core busy for seconds inside the test process: differentials
/// against the brute-force reference, fuzzing, decoding every capture. `scripts/test` runs them
/// in a `swift test` of their own (`--filter CPUBound`), after the others (`--skip CPUBound`):
/// Swift Testing runs tests on the cooperative pool, one thread per core, and a test that holds
/// one for seconds delays every test beside it that waits for a deadline. A new test of that
/// kind goes in here (docs/testing.md).
enum CPUBound {}
