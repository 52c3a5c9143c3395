//! The cross desktop templates' shared Python (`skills/cross/`): a setup prelude
//! (`setup_prelude.py`: the home's paths, the paper's `launch_gui`, the Writer report a setup
//! writes) joined in front of the initial_setup.py of every desktop cross template, and a report
//! prelude (`report_prelude.py`: filling and scoring a report's placeholders) in front of the
//! golden_patch.py and reward.py of the two report templates — as a pack's `setup_prelude` is
//! joined by `pack_files!`, so a rendered script is still one self-contained file. The template
//! folders hold only each template's own body.

/// The setup prelude of the desktop cross templates.
pub const SETUP_PRELUDE: &str = include_str!("../../../../../skills/cross/setup_prelude.py");
/// The golden-patch and reward prelude of the report templates.
pub const REPORT_PRELUDE: &str = include_str!("../../../../../skills/cross/report_prelude.py");

/// (template id, setup prelude, golden_patch.py and reward.py prelude).
const PRELUDES: &[(&str, &str, &str)] = &[
    ("cross/sheet_to_report", SETUP_PRELUDE, REPORT_PRELUDE),
    ("cross/pdf_to_report", SETUP_PRELUDE, REPORT_PRELUDE),
    ("cross/bookmarks_to_sheet", SETUP_PRELUDE, ""),
    ("cross/outline_to_slides", SETUP_PRELUDE, ""),
];

/// The preludes of template `id` (`cross/<name>`): the setup's, then the golden patch's and the
/// reward's; empty for a template without.
pub fn preludes(id: &str) -> (&'static str, &'static str) {
    PRELUDES
        .iter()
        .find(|p| p.0 == id)
        .map_or(("", ""), |p| (p.1, p.2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::scripted::templates::lookup;

    /// Fails on the old templates, which each carried their own `launch` helper and whose two
    /// report templates repeated the same golden patch and reward (one through a linked file):
    /// the folders now hold only each template's body, and a looked-up template is the prelude
    /// joined to it — one script that Python compiles, defining each helper once.
    #[test]
    fn desktop_cross_templates_are_their_preludes_joined_to_their_bodies() {
        let root = format!("{}/skills/", crate::checkout_root().display());
        for (id, setup_prelude, report_prelude) in PRELUDES {
            let t = lookup(id, &[], None).unwrap();
            let dir = format!("{root}{id}").replace("cross/", "cross/templates/");
            for (file, prelude, joined) in [
                ("initial_setup.py", setup_prelude, &t.setup),
                ("golden_patch.py", report_prelude, &t.golden),
                ("reward.py", report_prelude, &t.reward),
            ] {
                let path = std::path::Path::new(&dir).join(file);
                let meta = std::fs::symlink_metadata(&path).unwrap();
                assert!(meta.file_type().is_file(), "{id}/{file} is a linked file");
                let body = std::fs::read_to_string(&path).unwrap();
                assert!(
                    !body.contains("def launch") && !body.contains("def score_report"),
                    "{id}/{file} repeats a prelude"
                );
                assert_eq!(*joined, format!("{prelude}{body}"), "{id}/{file}");
                let code = format!("S = {{}}\nclass Rubric: pass\n{joined}");
                let ok = std::process::Command::new("python3")
                    .args(["-c", "import sys; compile(sys.argv[1], 'x', 'exec')", &code])
                    .status()
                    .unwrap();
                assert!(ok.success(), "{id}/{file} does not compile");
            }
            assert_eq!(t.setup.matches("def launch(").count(), 1, "{id}");
            // A reward starts no process (reward.py is scanned for that).
            assert!(!t.reward.contains("subprocess"), "{id}");
        }
    }
}
