//! Desktop-application packs (#31): shipped tasks scored on real files, state readers on real
//! profiles, and the real programs accepting what the setups write. One binary for every desktop
//! pack; each pack is a module.

mod chrome;
mod code_editor;
mod support;
