//! envgen (issue #32): the spec language, its compiler's refusals, the generic renderer and the
//! Web agent as code. One binary: the Chromium crawl is the slow part and lives here only.

mod bad_input;
mod crawl;
mod language;
