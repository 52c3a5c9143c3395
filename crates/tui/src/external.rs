//! Open and copy (issue #33): a tuple's script, REVIEW.md or meta.json in the user's `$EDITOR` /
//! `$PAGER` (the workbench suspends the terminal while the program runs), and the id, bundle path
//! or a script put on the clipboard with OSC 52 (which the terminal, and tmux with
//! `set-clipboard on`, pass to the system clipboard, over ssh too).
//!
//! The text opened is a copy written under the system's temporary directory: the store is
//! append-only, so editing the copy changes nothing in it. In read-only mode the copy is written
//! read-only as well.

use std::io::Write;
use std::path::{Path, PathBuf};

use base64::Engine as _;

/// Which program opens a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opener {
    /// `$VISUAL`, else `$EDITOR`, else `vi`.
    Editor,
    /// `$PAGER`, else `less`.
    Pager,
}

impl Opener {
    /// The program and its arguments (the variable is split on whitespace, as `git` does for
    /// simple values such as `code -w` or `less -R`).
    pub fn command(self, env: impl Fn(&str) -> Option<String>) -> Vec<String> {
        let set = |k: &str| env(k).filter(|v| !v.trim().is_empty());
        let value = match self {
            Opener::Editor => set("VISUAL")
                .or_else(|| set("EDITOR"))
                .unwrap_or_else(|| "vi".into()),
            Opener::Pager => set("PAGER").unwrap_or_else(|| "less".into()),
        };
        value.split_whitespace().map(str::to_string).collect()
    }

    /// The variable's name, for messages.
    pub fn label(self) -> &'static str {
        match self {
            Opener::Editor => "$EDITOR",
            Opener::Pager => "$PAGER",
        }
    }
}

/// Something the event loop does outside the terminal's drawing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum External {
    /// Write a copy of the text and run the opener on it with the terminal suspended.
    Open(OpenText),
    /// Put `text` on the clipboard (OSC 52).
    Yank {
        /// The text.
        text: String,
    },
}

/// A text to open (the model asks; the event loop writes the copy and runs the program).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenText {
    /// The tuple.
    pub task_id: String,
    /// The file name of the copy (`reward.py`, `REVIEW.md`, `meta.json`).
    pub name: String,
    /// The text.
    pub text: String,
    /// Which program.
    pub opener: Opener,
}

/// The tuple's meta.json as `export` would write it (the store worker builds it).
pub fn load_meta(
    store: &tuplewright_base::store::Store,
    id: &str,
    opener: Opener,
) -> Result<crate::data::DataUpdate, tuplewright_base::store::StoreError> {
    use crate::data::DataUpdate;
    use tuplewright_records::bundle::export::{render, ExportError};
    let task = store.task(id)?;
    let files = match render(store, &task, "") {
        Ok(Ok(files)) => files,
        Ok(Err(why)) => {
            return Ok(DataUpdate::Error(format!(
                "{id} has no meta.json yet: {why}"
            )));
        }
        Err(ExportError::Store(e)) => return Err(e),
        Err(e) => return Ok(DataUpdate::Error(format!("meta.json of {id}: {e}"))),
    };
    let meta = files
        .into_iter()
        .find(|(name, _)| *name == tuplewright_records::bundle::layout::META_JSON)
        .map(|(_, bytes)| String::from_utf8_lossy(&bytes).into_owned())
        .unwrap_or_default();
    Ok(DataUpdate::OpenText(Box::new(OpenText {
        task_id: id.to_string(),
        name: "meta.json".into(),
        text: meta,
        opener,
    })))
}

/// The OSC 52 sequence that sets the clipboard (`c`) to `text`.
pub fn osc52(text: &str) -> String {
    let b64 = base64::engine::general_purpose::STANDARD.encode(text.as_bytes());
    format!("\x1b]52;c;{b64}\x07")
}

/// A file name made of safe characters only (ids may hold anything the import accepted).
fn safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Writes `text` to `<tmp>/tuplewright-open/<task>/<name>` (replacing an earlier copy, through a
/// temporary file and a rename) and returns the path; read-only (mode 0444) when `readonly`.
pub fn materialize(
    tmp: &Path,
    task: &str,
    name: &str,
    text: &str,
    readonly: bool,
) -> std::io::Result<PathBuf> {
    let dir = tmp.join("tuplewright-open").join(safe(task));
    std::fs::create_dir_all(&dir)?;
    let path = dir.join(safe(name));
    let mut part = tempfile::NamedTempFile::new_in(&dir)?;
    part.write_all(text.as_bytes())?;
    let mut perms = part.as_file().metadata()?.permissions();
    perms.set_readonly(readonly);
    part.as_file().set_permissions(perms)?;
    part.persist(&path).map_err(|e| e.error)?;
    Ok(path)
}

/// Runs `program path`, waiting for it; the caller has suspended the terminal.
pub fn run(program: &[String], path: &Path) -> Result<(), String> {
    let Some((bin, args)) = program.split_first() else {
        return Err("no program to open with".into());
    };
    match std::process::Command::new(bin)
        .args(args)
        .arg(path)
        .status()
    {
        Ok(s) if s.success() => Ok(()),
        Ok(s) => Err(format!("{bin} exited with {s}")),
        Err(e) => Err(format!("{bin}: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openers_follow_the_environment() {
        let env = |k: &str| match k {
            "EDITOR" => Some("code -w".to_string()),
            "VISUAL" => Some(" ".to_string()),
            _ => None,
        };
        assert_eq!(Opener::Editor.command(env), ["code", "-w"]);
        assert_eq!(Opener::Pager.command(env), ["less"]);
        assert_eq!(Opener::Editor.command(|_| None), ["vi"]);
    }

    #[test]
    fn osc52_carries_the_text_in_base64() {
        assert_eq!(osc52("tw-001"), "\x1b]52;c;dHctMDAx\x07");
    }

    #[test]
    fn copies_are_read_only_in_read_only_mode() {
        let dir = tempfile::tempdir().unwrap();
        let p = materialize(dir.path(), "a/b c", "reward.py", "x = 1\n", true).unwrap();
        assert!(p.ends_with("tuplewright-open/a_b_c/reward.py"), "{p:?}");
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "x = 1\n");
        assert!(std::fs::metadata(&p).unwrap().permissions().readonly());
        // Opening again replaces the read-only copy; a writable store gives a writable copy.
        let p = materialize(dir.path(), "a/b c", "reward.py", "x = 2\n", false).unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "x = 2\n");
        assert!(!std::fs::metadata(&p).unwrap().permissions().readonly());
    }
}
