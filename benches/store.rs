//! Benchmark placeholder for the store area; replaced by its real benchmark.
fn main() {}
