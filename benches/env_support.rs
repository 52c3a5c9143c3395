//! Helpers shared by the state-server benchmarks (`benches/env.rs`, `benches/env_limits.rs`).
#![allow(dead_code)]

use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use tuplewright::engine::env::App;

/// An app with an empty seed, so a session's state is exactly the generated one.
pub fn bench_app() -> Arc<App> {
    let manifest = "name = \"ecommerce-admin\"\ntitle = \"Bench\"\nkind = \"state-api\"\n\
                    port = 3104\ndescription = \"bench\"\n";
    Arc::new(App::parse("bench", manifest, Some("{}")).expect("app"))
}

/// A JSON state of about `bytes` compact bytes (products of a shop).
pub fn state_of_size(bytes: usize) -> Value {
    let mut items = Vec::new();
    let mut size = 0;
    let mut i = 0;
    while size < bytes {
        let item = json!({"id": format!("item-{i}"), "title": format!("Product number {i}"), "vendor": "BasicWear",
            "price": 10 + i % 90, "tags": ["a", "b"], "description": "A sturdy everyday item made to last for years."});
        size += item.to_string().len() + 1;
        items.push(item);
        i += 1;
    }
    json!({"products": items, "store": {"name": "Bench"}})
}

/// The `p` quantile of sorted latencies.
pub fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// Milliseconds with three decimals.
pub fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}
