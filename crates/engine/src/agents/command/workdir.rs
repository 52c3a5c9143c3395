//! The fresh private working directory of one agent call: the inputs its role may see, written
//! before the CLI starts, and the outputs read back safely afterwards (no symlink is followed, so
//! a CLI cannot make the engine read a host file for it).

use std::fs;
use std::io::{Read, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use serde_json::json;

use crate::agents::TaskBrief;

/// A call's working directory on the host (0700, owned by the uid the CLI runs as).
pub struct WorkDir {
    dir: Option<tempfile::TempDir>,
    path: PathBuf,
}

fn write_file(path: &Path, text: &str, mode: u32) -> std::io::Result<()> {
    let mut f = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(mode)
        .open(path)?;
    f.write_all(text.as_bytes())?;
    fs::set_permissions(path, fs::Permissions::from_mode(mode))
}

/// A file name safe to use for a skill's app (`SKILL.md` of the first app; `SKILL-<app>.md` of
/// the others).
fn skill_file(index: usize, app: &str) -> String {
    if index == 0 {
        return "SKILL.md".to_string();
    }
    let clean: String = app
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("SKILL-{clean}.md")
}

impl WorkDir {
    /// Creates `parent` (0711: traversable, not listable) and a fresh `<prefix>XXXX` directory in it.
    pub fn create(parent: &Path, prefix: &str) -> std::io::Result<Self> {
        fs::create_dir_all(parent)?;
        // A shared /tmp: refuse a parent someone else planted (a symlink, or not ours).
        let meta = fs::symlink_metadata(parent)?;
        // SAFETY: geteuid has no preconditions.
        let me = unsafe { libc::geteuid() };
        if !meta.is_dir() || std::os::unix::fs::MetadataExt::uid(&meta) != me {
            return Err(std::io::Error::other(format!(
                "{} must be a directory owned by uid {me} (not a symlink)",
                parent.display()
            )));
        }
        fs::set_permissions(parent, fs::Permissions::from_mode(0o711))?;
        let dir = tempfile::Builder::new().prefix(prefix).tempdir_in(parent)?;
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o700))?;
        let path = dir.path().to_path_buf();
        Ok(Self {
            dir: Some(dir),
            path,
        })
    }

    /// The directory on the host.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Keeps the directory after the call (it is removed on drop otherwise).
    pub fn keep(&mut self) {
        if let Some(d) = self.dir.take() {
            let _ = d.keep();
        }
    }

    /// Writes `task_config.json` (public fields only), one SKILL file per app, `REVIEW.md` (if
    /// any) and `PROMPT.md`. Returns the names of the skill files written.
    pub fn write_inputs(
        &self,
        brief: &TaskBrief,
        previous_review: Option<&str>,
        prompt: &str,
    ) -> std::io::Result<Vec<String>> {
        let config = json!({
            "task_id": brief.task_id,
            "instruction": brief.instruction,
            "context": brief.context,
            "difficulty": brief.difficulty,
            "domain": brief.apps.first(),
            "domains": brief.apps,
            "structured": brief.structured,
        });
        let text = serde_json::to_string_pretty(&config).map_err(std::io::Error::other)?;
        write_file(&self.path.join("task_config.json"), &text, 0o644)?;
        let mut skills = Vec::new();
        for (i, (app, skill)) in brief.skills.iter().enumerate() {
            let name = skill_file(i, app);
            write_file(&self.path.join(&name), skill, 0o644)?;
            skills.push(name);
        }
        if let Some(review) = previous_review {
            write_file(&self.path.join("REVIEW.md"), review, 0o644)?;
        }
        write_file(&self.path.join("PROMPT.md"), prompt, 0o644).map(|()| skills)
    }

    /// Writes a read-only file (the Discriminator's state snapshots).
    pub fn write_readonly(&self, name: &str, text: &str) -> std::io::Result<()> {
        write_file(&self.path.join(name), text, 0o444)
    }

    /// Appends a note to `PROMPT.md` (before a re-run).
    pub fn append_prompt(&self, note: &str) -> std::io::Result<()> {
        let mut f = fs::OpenOptions::new()
            .append(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(self.path.join("PROMPT.md"))?;
        f.write_all(note.as_bytes())
    }

    /// Gives the directory and its files to `uid` (when running as root).
    pub fn chown_to(&self, uid: u32) -> std::io::Result<()> {
        for entry in walkdir::WalkDir::new(&self.path).follow_links(false) {
            let entry = entry.map_err(std::io::Error::other)?;
            std::os::unix::fs::lchown(entry.path(), Some(uid), Some(uid))?;
        }
        Ok(())
    }

    /// Reads an output file the CLI wrote: `Ok(None)` when absent, not a regular file (a symlink
    /// is never followed), empty or blank. Larger than `max_bytes` is an error.
    pub fn read_output(&self, name: &str, max_bytes: u64) -> Result<Option<String>, String> {
        let path = self.path.join(name);
        let file = match fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .open(&path)
        {
            Ok(f) => f,
            Err(_) => return Ok(None),
        };
        let meta = file.metadata().map_err(|e| format!("{name}: {e}"))?;
        if !meta.is_file() {
            return Ok(None);
        }
        if meta.len() > max_bytes {
            return Err(format!(
                "{name} is {} bytes, more than the {max_bytes} accepted",
                meta.len()
            ));
        }
        let mut text = String::new();
        file.take(max_bytes + 1)
            .read_to_string(&mut text)
            .map_err(|e| format!("{name} is not UTF-8 text: {e}"))?;
        Ok((!text.trim().is_empty()).then_some(text))
    }
}
