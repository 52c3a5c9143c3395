//! The pdf desktop pack: Evince 43 (Debian's `evince`) on the environment's screen, standing in
//! for OSWorld's pdf domain. Setups make PDFs with PyMuPDF under `~/Documents`; the PDFs (pages,
//! text, form fields, annotations, bookmarks), extracted text files and Evince's defaults
//! (GSettings' key file, `~/.config/glib-2.0/settings/keyfile`) are the state.

mod annotate;
pub mod planner;
mod recipe;

use crate::apps::App;
use crate::rollout::ui_plan::UiPlanner;
use crate::taskgen::recipes::Recipe;

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
        setup_prelude: ["../../../../skills/_common/desktop.py", "pdf/setup_prelude.py"],
        golden_prelude: ["../../../../skills/_common/desktop.py"]
    );
    crate::apps::desktop_files!(
        "pdf",
        home: [".config/glib-2.0/settings/keyfile", ".config/gtk-3.0/settings.ini"],
        profile: []
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fails on the old pack, whose five setups each carried their own copy of the prelude: the
    /// files on disk now hold only each template's body, and what is embedded is the prelude
    /// joined in front of it — one self-contained script that Python compiles.
    #[test]
    fn setups_are_the_pack_prelude_joined_to_each_templates_body() {
        let common = include_str!("../../../../../skills/_common/desktop.py");
        let prelude = format!("{common}{}", include_str!("setup_prelude.py"));
        for (name, setup, golden, _, _) in Pack.templates() {
            let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/apps/pdf/templates/");
            let body = std::fs::read_to_string(format!("{dir}{name}/initial_setup.py")).unwrap();
            assert!(!body.contains("def stop_evince"), "{name} repeats the prelude");
            assert_eq!(*setup, format!("{prelude}{body}"), "{name}");
            assert_eq!(setup.matches("def make_pdf").count(), 1, "{name}");
            assert_eq!(setup.matches("def stop_app").count(), 1, "{name}");
            assert!(golden.starts_with(common), "{name}'s golden patch lacks the desktop prelude");
            assert_eq!(golden.matches("def stop_app").count(), 1, "{name}");
            let code = format!("S = {{}}\n{setup}");
            let ok = std::process::Command::new("python3")
                .args(["-c", "import sys; compile(sys.argv[1], 'setup', 'exec')", &code])
                .status()
                .unwrap();
            assert!(ok.success(), "{name}'s setup does not compile");
        }
    }
}

#[cfg(test)]
mod macro_tests {
    use crate::apps::App;

    /// The office packs reach the same macro through `office_pack_files!`: each reward is the
    /// office prelude joined to the template's own reward.py, setups are left as they are.
    #[test]
    fn the_office_alias_joins_the_reward_prelude_only() {
        let prelude = include_str!("../office/docx_reward.py");
        let writer = crate::apps::libreoffice_writer::Pack;
        let (name, setup, _, reward, _) = writer.templates()[0];
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/apps/libreoffice_writer/templates/");
        let body = std::fs::read_to_string(format!("{dir}{name}/reward.py")).unwrap();
        assert_eq!(reward, format!("{prelude}{body}"));
        let own = std::fs::read_to_string(format!("{dir}{name}/initial_setup.py")).unwrap();
        assert_eq!(setup, own);
    }
}
