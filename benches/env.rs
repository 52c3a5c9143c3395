//! Benchmark placeholder for the env area; replaced by its real benchmark.
fn main() {}
