//! The pdf desktop pack: Evince 43 (Debian's `evince`) on the environment's screen, standing in
//! for OSWorld's pdf domain. Setups make PDFs with PyMuPDF under `~/Documents`; the PDFs (pages,
//! text, form fields, annotations, bookmarks), extracted text files and Evince's defaults
//! (GSettings' key file, `~/.config/glib-2.0/settings/keyfile`) are the state.

pub mod planner;
mod recipe;

use crate::apps::App;
use crate::engine::rollout::ui_plan::UiPlanner;
use crate::engine::taskgen::recipes::Recipe;

/// The pack, as listed in the registry ([`crate::apps`]).
pub struct Pack;

impl App for Pack {
    fn recipes(&self) -> &'static [(&'static str, Recipe)] {
        recipe::RECIPES
    }

    fn planner(&self) -> Option<&'static dyn UiPlanner> {
        Some(&planner::EvincePlanner)
    }

    pack_files!(
        "pdf",
        no_seed,
        [
            "pdf_form",
            "pdf_extract",
            "pdf_export",
            "pdf_annotate",
            "evince_pref"
        ],
        setup_prelude: "pdf/setup_prelude.py"
    );
    crate::apps::desktop_files!(
        "pdf",
        home: [".config/glib-2.0/settings/keyfile", ".config/gtk-3.0/settings.ini"],
        profile: []
    );
}
