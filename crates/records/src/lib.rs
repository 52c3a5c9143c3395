//! tuplewright-records — what is decided about records: the critic vote and decisions (`filter`),
//! curation queries, views and agreement (`curate`), the forbidden-pattern scanner (`scan`) and
//! OSWorld bundles (`bundle`).
//!
//! It imports `tuplewright-base` and `tuplewright-models` (critics call models), nothing above.

pub mod bundle;
pub mod curate;
pub mod filter;
pub mod scan;
