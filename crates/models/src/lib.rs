//! tuplewright-models — the models the pipeline calls: LLM providers (wire formats, usage, prices,
//! the limit gate) and the in-process sentence embedder.
//!
//! It imports only `tuplewright-base` (the store for usage records, limits for the gate).

pub mod embedder;
pub mod providers;
