//! tuplewright-base — the foundation layer: the store (SQLite and PostgreSQL records, the event bus,
//! blobs), bounded text input, access control, the agreement rules, host capacity, leases and
//! limits, and scratch directories.
//!
//! It owns every persisted record type; it imports no other tuplewright crate, so a change above
//! never rebuilds it.

pub mod access;
pub mod agreement;
pub mod hostcap;
pub mod lease;
pub mod limits;
pub mod scratch;
pub mod store;
pub mod text;
