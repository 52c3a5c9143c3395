//! The code_editor pack: Geany (Debian's `geany`) standing in for OSWorld's `vs_code` domain.
//! Its settings (`~/.config/geany/*.conf`), project files (`*.geany`) and the source files of
//! small projects under `~/projects` are the state; `home/` is the seed every environment starts
//! from (Geany's default `geany.conf` with a fixed author and window geometry).

mod recipe;

use crate::apps::App;
use crate::engine::taskgen::recipes::Recipe;

/// The embedded seed home: (relative path, contents).
const HOME: &[(&str, &[u8])] = &[
    (
        ".config/geany/geany.conf",
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src/apps/code_editor/home/.config/geany/geany.conf"
        )),
    ),
    (
        "projects/README.md",
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src/apps/code_editor/home/projects/README.md"
        )),
    ),
];

/// The pack, as listed in the registry ([`crate::apps`]).
pub struct Pack;

impl App for Pack {
    fn recipes(&self) -> &'static [(&'static str, Recipe)] {
        recipe::RECIPES
    }

    pack_files!("code_editor", no_seed, ["geany_pref", "code_edit"]);

    fn home(&self) -> &'static [(&'static str, &'static [u8])] {
        HOME
    }
}
