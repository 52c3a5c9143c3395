//! The ready gate's document check: an application launched on a document is ready once a
//! window of its classes is titled with that document (`q3-sales.xlsx - LibreOffice Calc`),
//! not as soon as any window of its classes draws. LibreOffice and Evince map their window
//! before the document is in it (LibreOffice: `Untitled 1` or an empty frame, Evince:
//! `Document Viewer`), and a load that stalls there would otherwise hand the agent a screen
//! without its document, and the trial a score of 0 for what is an infrastructure failure.
//!
//! Which words are documents: the launch's arguments naming a file of the home
//! (`/home/user/...` that is a file in the environment's home). How a title names one: the
//! pack's `[desktop] document_title` (`{name}` the file name, `{stem}` without its extension).

use std::path::Path;
use std::time::{Duration, Instant};

use super::{DesktopWindow, DesktopWindows, ModalDialog, ScreenConfig, ScreenError};

/// Where the home appears to the screen's programs.
const HOME: &str = "/home/user/";

/// One document an application was launched on, and the title text that shows it open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShownDocument {
    /// The path the program was given (`/home/user/Documents/q3-sales.xlsx`).
    pub path: String,
    /// What a window showing it has in its title (`q3-sales.xlsx`, `[photo]`).
    pub title: String,
}

/// The documents `args` name that the window titles must show, by `template` (`None`: the
/// application's titles do not name documents, nothing is checked). `home` is the host
/// directory the programs see at `/home/user`; words naming no file there (a folder, a URL, a
/// file the setup never wrote) are not documents.
pub fn documents_of(template: Option<&str>, args: &[String], home: &Path) -> Vec<ShownDocument> {
    let Some(template) = template else {
        return Vec::new();
    };
    args.iter()
        .filter_map(|a| {
            let rel = a.strip_prefix(HOME)?;
            home.join(rel).is_file().then_some(a)
        })
        .filter_map(|path| {
            let name = path.rsplit('/').next()?;
            let stem = match name.rsplit_once('.') {
                Some((s, _)) if !s.is_empty() => s,
                _ => name,
            };
            Some(ShownDocument {
                path: path.clone(),
                title: template.replace("{name}", name).replace("{stem}", stem),
            })
        })
        .collect()
}

impl super::Screen {
    /// Waits until a window of `classes` is titled with each of `docs` (at least one); returns
    /// the one showing the first. A program that dies first is [`ScreenError::AppDied`]; a modal dialog in the
    /// way (the document refused: corrupt, password-protected, not a format it reads) is
    /// [`ScreenError::DocumentRefused`] quoting it at once; the deadline is
    /// [`ScreenError::DocumentNotShown`] with the titles its windows had and its output.
    pub(super) fn wait_documents(
        &mut self,
        cfg: &ScreenConfig,
        windows: &DesktopWindows,
        deadline: Instant,
        app: (&str, &[String]),
        screen_classes: &[String],
        docs: &[ShownDocument],
    ) -> Result<DesktopWindow, ScreenError> {
        let (program, classes) = app;
        let missing = |seen: &[DesktopWindow]| {
            docs.iter()
                .find(|d| window_showing(seen, classes, d).is_none())
        };
        let mut polls = 0u32;
        loop {
            self.check_alive()?;
            let seen = windows.list()?;
            let first = docs.first().and_then(|d| window_showing(&seen, classes, d));
            let doc = match (missing(&seen), first) {
                (None, Some(w)) => return Ok(w.clone()),
                (Some(doc), _) => doc,
                (None, None) => {
                    return Err(ScreenError::Blank(format!(
                        "{program}: no document to wait for"
                    )))
                }
            };
            // A modal dialog instead of the document, or the document in another
            // application's window (LibreOffice opening a "workbook" of text in Writer):
            // looked for every half second, a dialog quoted from the accessibility tree.
            polls += 1;
            if polls.is_multiple_of(MODAL_EVERY) {
                if let Some(shows) = self.refusal(cfg, windows, &seen, screen_classes, doc)? {
                    return Err(ScreenError::DocumentRefused {
                        program: program.to_string(),
                        document: doc.path.clone(),
                        shows,
                    });
                }
            }
            if Instant::now() >= deadline {
                return Err(ScreenError::DocumentNotShown {
                    program: program.to_string(),
                    document: doc.path.clone(),
                    titles: titles_of(&seen, classes),
                    output: self.log_tail(program, 5),
                });
            }
            std::thread::sleep(POLL);
        }
    }

    /// What shows instead of `doc`, if something does: a modal dialog (described), or a window
    /// titled with the document whose class is none of the screen's applications' (`ours`: a
    /// Writer document named like the workbook, on a calc + writer screen, is no refusal).
    fn refusal(
        &self,
        cfg: &ScreenConfig,
        windows: &DesktopWindows,
        seen: &[DesktopWindow],
        ours: &[String],
        doc: &ShownDocument,
    ) -> Result<Option<String>, ScreenError> {
        if !windows.modal_windows()?.is_empty() {
            let shown = self.modal_dialogs(cfg)?;
            if !shown.is_empty() {
                let quoted: Vec<String> = shown.iter().map(ModalDialog::describe).collect();
                return Ok(Some(quoted.join("; ")));
            }
        }
        Ok(seen
            .iter()
            .find(|w| !ours.contains(&w.class) && w.title.contains(&doc.title))
            .map(|w| {
                format!(
                    "{:?} ({}), a window of another application",
                    w.title, w.class
                )
            }))
    }
}

/// How often the wait reads the window list.
const POLL: Duration = Duration::from_millis(50);

/// Every how many polls it looks for a modal dialog (half a second).
const MODAL_EVERY: u32 = 10;

/// The window of `classes` showing `doc`, if any.
pub fn window_showing<'a>(
    windows: &'a [DesktopWindow],
    classes: &[String],
    doc: &ShownDocument,
) -> Option<&'a DesktopWindow> {
    windows
        .iter()
        .find(|w| classes.contains(&w.class) && w.title.contains(&doc.title))
}

/// The titles of the windows of `classes`, quoted for an error (`"Untitled 1 - …"`, or `none`).
pub fn titles_of(windows: &[DesktopWindow], classes: &[String]) -> String {
    let titles: Vec<String> = windows
        .iter()
        .filter(|w| classes.contains(&w.class))
        .map(|w| format!("{:?}", w.title))
        .collect();
    match titles.is_empty() {
        true => "none".into(),
        false => titles.join(", "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(class: &str, title: &str) -> DesktopWindow {
        DesktopWindow {
            id: 1,
            class: class.into(),
            title: title.into(),
            area: (0, 0, 10, 10),
            focused: false,
        }
    }

    #[test]
    fn only_files_of_the_home_are_documents_and_the_template_names_them() {
        let home = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(home.path().join("Documents/proj")).unwrap();
        std::fs::write(home.path().join("Documents/q3-sales.xlsx"), b"x").unwrap();
        std::fs::write(home.path().join(".hidden"), b"x").unwrap();
        let args: Vec<String> = [
            "-env:UserInstallation=file:///tmp/tw-profile/libreoffice_calc",
            "--calc",
            "/home/user/Documents/q3-sales.xlsx",
            "/home/user/Documents/proj",
            "/home/user/Documents/never-written.xlsx",
            "/home/user/.hidden",
            "https://example.org/a.pdf",
        ]
        .map(String::from)
        .to_vec();
        let docs = documents_of(Some("{name}"), &args, home.path());
        let titles: Vec<&str> = docs.iter().map(|d| d.title.as_str()).collect();
        assert_eq!(titles, ["q3-sales.xlsx", ".hidden"]);
        assert_eq!(docs[0].path, "/home/user/Documents/q3-sales.xlsx");
        let gimp = documents_of(Some("[{stem}]"), &args[2..3], home.path());
        assert_eq!(gimp[0].title, "[q3-sales]");
        assert!(documents_of(None, &args, home.path()).is_empty());
    }

    #[test]
    fn an_untitled_window_of_the_class_does_not_show_the_document() {
        let classes = vec!["libreoffice-calc".to_string()];
        let doc = ShownDocument {
            path: "/home/user/q3-sales.xlsx".into(),
            title: "q3-sales.xlsx".into(),
        };
        let early = [
            window("libreoffice-calc", "Untitled 1 - LibreOffice Calc"),
            window(
                "libreoffice-writer",
                "q3-sales.xlsx notes - LibreOffice Writer",
            ),
        ];
        assert!(window_showing(&early, &classes, &doc).is_none());
        assert_eq!(
            titles_of(&early, &classes),
            "\"Untitled 1 - LibreOffice Calc\""
        );
        let loaded = [window(
            "libreoffice-calc",
            "q3-sales.xlsx - LibreOffice Calc",
        )];
        assert!(window_showing(&loaded, &classes, &doc).is_some());
        assert_eq!(titles_of(&[], &classes), "none");
    }
}
