//! Bounded text input, the bottom of the engine: size limits every kind of input file is checked
//! against before a byte is read, and UTF-8 decoding that says where the first bad byte is
//! ([`sizes`]). Imports nothing of the engine, so the scanner and the bundle reader both build on it.

pub mod sizes;
