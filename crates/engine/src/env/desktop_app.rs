//! The `[desktop]` table of a desktop application's `manifest.toml` (`kind = "desktop"`): which
//! program the environment's screen runs, which Debian package provides it, the names setup
//! scripts launch it by, its window classes, the documents it opens, its per-environment profile
//! and its state reader. See `docs/desktop-apps.md` for the whole pack contract.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// `[desktop]`: how a desktop application runs on an environment's screen.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct DesktopManifest {
    /// The program started on the screen: a name looked up on the host's `PATH`, or an absolute
    /// path (`libreoffice`).
    pub program: String,
    /// The Debian package that provides `program`, named when the program is missing.
    pub package: String,
    /// Names a setup script may launch the application by (`libreoffice`, `soffice`, `localc`):
    /// inside the sandbox each is a launcher shim that records the request; on a screen the
    /// request starts `program`. Default: the file name of `program`.
    #[serde(default)]
    pub launchers: Vec<String>,
    /// Arguments of `program` on the screen. Placeholders: `{profile}` (the environment's fresh
    /// profile folder, as the program sees it), `{home}` (`/home/user`) and `{args}` (the
    /// arguments the setup script passed, one word each; omitted = appended at the end).
    #[serde(default)]
    pub args: Vec<String>,
    /// Arguments used when no setup script launched the application (`{profile}`, `{home}`
    /// filled in); the screen still opens it. Default: `args` with no `{args}`.
    #[serde(default)]
    pub default_args: Option<Vec<String>>,
    /// Its windows' `WM_CLASS` classes (`libreoffice-calc`, `Soffice`): what the screen waits
    /// for, places, and raises.
    pub classes: Vec<String>,
    /// Globs (relative to `/home/user`) of the documents it opens (`**/*.xlsx`): what the state
    /// reader reads.
    #[serde(default)]
    pub documents: Vec<String>,
    /// Environment variables of the program (`SAL_USE_VCLPLUGIN = "gtk3"`).
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// Whether the pack has a profile folder (`profile/`, embedded) copied fresh for each
    /// environment; `{profile}` then names that copy.
    #[serde(default)]
    pub profile: bool,
    /// Whether the pack has a state reader (`state.py`, embedded), run after every endpoint.
    #[serde(default)]
    pub state: bool,
    /// How long the application may take to show its first window, milliseconds.
    #[serde(default = "default_ready_ms")]
    pub ready_timeout_ms: u64,
    /// The start of a file name that appears in the application's `/tmp` once a running
    /// instance accepts a second launch's words (LibreOffice's single-instance pipe,
    /// `OSL_PIPE_`). Set, the desktop pool (`[desktop] pool`) may start the program before its
    /// task is known (`args` with no words) and hand the task's launch to it; unset, the pool
    /// pre-starts only the screen, the window manager and the session for it.
    #[serde(default)]
    pub prestart_ready: Option<String>,
    /// How the application's window title names the document it shows: `{name}` (the file
    /// name, `q3-sales.xlsx`) and `{stem}` (without its extension) with any text around them
    /// (GIMP: `[{stem}]`). Set, an environment launched on a document is ready only once a
    /// window of `classes` is titled with it — not while it shows `Untitled 1` or an empty
    /// frame and the document still loads — and one that never shows it is an
    /// infrastructure failure quoting the titles. Leave unset for titles that come from the
    /// document's contents (a page's or a song's title).
    #[serde(default)]
    pub document_title: Option<String>,
}

fn default_ready_ms() -> u64 {
    30_000
}

impl DesktopManifest {
    /// The names setup scripts launch it by (`launchers`, else the program's file name).
    pub fn launcher_names(&self) -> Vec<String> {
        if self.launchers.is_empty() {
            let base = self.program.rsplit('/').next().unwrap_or(&self.program);
            vec![base.to_string()]
        } else {
            self.launchers.clone()
        }
    }

    /// Whether a launch line's program (`soffice`, `/usr/bin/libreoffice`) is this application.
    pub fn launched_by(&self, program: &str) -> bool {
        let base = program.rsplit('/').next().unwrap_or(program);
        self.launcher_names().iter().any(|n| n == base)
    }

    /// The program's arguments on a screen: `args` with the placeholders filled in, or
    /// `default_args` when `requested` is `None` (nothing was launched by a script).
    pub fn argv(&self, profile: &str, requested: Option<&[String]>) -> Vec<String> {
        let template = match (requested, &self.default_args) {
            (None, Some(d)) => d.clone(),
            _ => self.args.clone(),
        };
        let given = requested.unwrap_or(&[]);
        let mut out = Vec::new();
        let mut placed = false;
        for a in template {
            if a == "{args}" {
                out.extend(given.iter().cloned());
                placed = true;
            } else {
                out.push(
                    a.replace("{profile}", profile)
                        .replace("{home}", "/home/user"),
                );
            }
        }
        if !placed {
            out.extend(given.iter().cloned());
        }
        out
    }

    /// What is wrong with the table, if anything (named in the manifest's parse error).
    pub fn problem(&self) -> Option<String> {
        if self.program.trim().is_empty() {
            return Some("[desktop] program is empty".into());
        }
        if self.package.trim().is_empty() {
            return Some("[desktop] package is empty (name the Debian package)".into());
        }
        if let Some(bad) = self
            .launcher_names()
            .into_iter()
            .find(|n| n.is_empty() || n.contains('/') || n.starts_with('.'))
        {
            return Some(format!(
                "[desktop] launchers: {bad:?} is not a program name"
            ));
        }
        if self.classes.is_empty() {
            return Some("[desktop] classes is empty (name its WM_CLASS)".into());
        }
        if let Some(t) = &self.document_title {
            if !t.contains("{name}") && !t.contains("{stem}") {
                return Some(format!(
                    "[desktop] document_title {t:?} names no document (use {{name}} or {{stem}})"
                ));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn calc() -> DesktopManifest {
        toml::from_str(
            r#"program = "libreoffice"
package = "libreoffice-calc"
launchers = ["libreoffice", "soffice", "localc"]
args = ["-env:UserInstallation=file://{profile}", "{args}", "--norestore"]
default_args = ["-env:UserInstallation=file://{profile}", "--calc"]
classes = ["libreoffice-calc"]"#,
        )
        .unwrap()
    }

    #[test]
    fn launch_arguments_fill_the_profile_and_keep_the_scripts_words() {
        let m = calc();
        let got = m.argv(
            "/tmp/p",
            Some(&["--calc".into(), "/home/user/a.xlsx".into()]),
        );
        assert_eq!(
            got,
            [
                "-env:UserInstallation=file:///tmp/p",
                "--calc",
                "/home/user/a.xlsx",
                "--norestore"
            ]
        );
        assert_eq!(m.argv("/q", None)[1], "--calc");
        assert!(m.launched_by("/usr/bin/soffice") && !m.launched_by("geany"));
        assert_eq!(m.problem(), None);
        let titled = DesktopManifest {
            document_title: Some("LibreOffice".into()),
            ..m
        };
        let why = titled.problem().unwrap_or_default();
        assert!(
            why.contains("document_title") && why.contains("{name}"),
            "{why}"
        );
    }

    #[test]
    fn unknown_keys_and_empty_programs_are_refused() {
        assert!(toml::from_str::<DesktopManifest>(
            "program='x'\npackage='p'\nclasses=['C']\nbogus=1"
        )
        .is_err());
        let mut m = calc();
        m.package = " ".into();
        assert!(m.problem().unwrap().contains("package"));
    }
}
