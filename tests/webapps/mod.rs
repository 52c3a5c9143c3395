//! The spec-built web apps of issue #32 (`crates/engine/src/apps/<pack>/app.spec.toml`): every shipped spec
//! parses and its seed fits; the Hub-shaped calendar and docs follow the public mocks' state
//! shapes; the language additions they need (`map` entities, `object` fields) refuse bad input.
//! One binary; the slow checks (loop, ui-oracle, crawls) are sampled.

use crate::shipped_support;

mod hub_shapes;
mod sampled;
mod specs;
