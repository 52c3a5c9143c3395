//! The search language of the tuple list (issue #33), shared by the workbench's `/` search and
//! `override --where`: fuzzy terms over id and instruction ([`fuzzy`]), field terms such as
//! `status:final`, `tag:x`, `gold:<1` ([`fields`]), and the sorted, filtered view ([`matcher`]).

pub mod fields;
pub mod fuzzy;
pub mod matcher;
