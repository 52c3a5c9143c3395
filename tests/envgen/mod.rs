//! envgen (issue #32): the spec language, its compiler's refusals, the generic renderer, the Web
//! agent as code and the LLM path. One binary: the Chromium crawls are the slow part and live
//! here only.

mod bad_input;
mod crawl;
mod language;
mod llm;
mod local;
mod routes;
use crate::providers::standin;
mod twin;
