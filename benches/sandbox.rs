//! Benchmark placeholder for the sandbox area; replaced by its real benchmark.
fn main() {}
