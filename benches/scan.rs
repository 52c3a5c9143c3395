//! Benchmark placeholder for the scan area; replaced by its real benchmark.
fn main() {}
