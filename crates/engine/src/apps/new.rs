//! `apps new NAME --from PACK`: a working copy of a pack under a new name in a source checkout —
//! the folder `crates/engine/src/apps/<name>/` (renamed throughout: manifest, tasks, templates, recipes, code)
//! and its one registry line in `crates/engine/src/apps/mod.rs`. Rebuild the binary to use it.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::Pack;

/// Why a pack could not be created (nothing is left half-written).
#[derive(Debug, thiserror::Error)]
pub enum NewError {
    /// The new name is not usable.
    #[error("app name {name:?}: {why}")]
    BadName {
        /// The name given.
        name: String,
        /// What is wrong with it.
        why: String,
    },
    /// No pack of that name to copy.
    #[error("no pack {0:?} to copy (packs: {1})")]
    NoSuchPack(String, String),
    /// `root` is not a source checkout.
    #[error(
        "{0} is not a tuplewright source checkout (no crates/engine/src/apps/mod.rs); pass --root"
    )]
    NotACheckout(PathBuf),
    /// A file could not be read or written.
    #[error("{what} {path}: {source}")]
    Io {
        /// What was being done.
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// `--local` copies a spec-built pack only (a hand-written one has Rust code to rebuild).
    #[error("pack {0:?} is not spec-built: only a spec pack can be a local pack (copy it into a source checkout without --local)")]
    NotSpec(String),
    /// The embedded spec of the pack to copy does not parse (a build defect).
    #[error("pack {0:?}: its spec does not parse: {1}")]
    BadSpec(String, String),
    /// The registry has no `packs! {` block to add the line to.
    #[error("crates/engine/src/apps/mod.rs: no `packs! {{` block found")]
    NoRegistry,
}

pub(super) fn io(what: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> NewError {
    let path = path.to_path_buf();
    move |source| NewError::Io { what, path, source }
}

/// What `apps new` made.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Created {
    /// The new app's name.
    pub name: String,
    /// Its folder.
    pub dir: PathBuf,
    /// Its conventional port (web apps).
    pub port: Option<u16>,
}

pub(super) fn check_name(name: &str) -> Result<String, NewError> {
    let bad = |why: &str| NewError::BadName {
        name: name.into(),
        why: why.into(),
    };
    let ok = name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !ok || name.ends_with('-') || name.contains("--") {
        return Err(bad(
            "use lowercase letters, digits and single dashes, starting with a letter",
        ));
    }
    let taken = super::all().iter().any(|p| {
        p.name() == name
            || p.manifest.aliases.iter().any(|a| a == name)
            || p.app
                .dir()
                .ends_with(&format!("/{}", name.replace('-', "_")))
    });
    if taken
        || [
            "cross", "mod", "check", "list", "new", "self", "super", "crate",
        ]
        .contains(&name)
    {
        return Err(bad("already taken by a pack, an alias or the registry"));
    }
    Ok(name.replace('-', "_"))
}

/// Copies pack `from` to `crates/engine/src/apps/<name>/` under `root` and adds its registry line.
pub fn create(root: &Path, name: &str, from: &str) -> Result<Created, NewError> {
    let module = check_name(name)?;
    let pack = super::get(from)
        .ok_or_else(|| NewError::NoSuchPack(from.into(), super::names().join(", ")))?;
    let registry = root.join("crates/engine/src/apps/mod.rs");
    if !registry.is_file() {
        return Err(NewError::NotACheckout(root.to_path_buf()));
    }
    let src = root.join(pack.app.dir());
    let dest = root.join("crates/engine/src/apps").join(&module);
    if dest.exists() {
        return Err(NewError::BadName {
            name: name.into(),
            why: format!("{} exists", dest.display()),
        });
    }
    let port = next_port(pack);
    let tmp = tempfile::Builder::new()
        .prefix(".tw-new-pack-")
        .tempdir_in(root.join("crates/engine/src/apps"))
        .map_err(io(
            "create a temporary folder in",
            &root.join("crates/engine/src/apps"),
        ))?;
    let ren = Renamer::new(pack, name, &module);
    copy_renamed(&src, tmp.path(), &ren)?;
    rewrite_manifest(&tmp.path().join("manifest.toml"), pack, name, port)?;
    rewrite_tasks(&tmp.path().join("tasks.json"), pack.name(), name)?;
    let registry_text = std::fs::read_to_string(&registry).map_err(io("read", &registry))?;
    let new_registry = add_registry_line(&registry_text, &module)?;
    let kept = tmp.keep();
    std::fs::rename(&kept, &dest).map_err(io("rename the new pack to", &dest))?;
    write_atomic(&registry, &new_registry)?;
    Ok(Created {
        name: name.into(),
        dir: dest,
        port,
    })
}

/// The copy's conventional port: one past every pack's (web apps; none for a desktop).
pub(super) fn next_port(pack: &Pack) -> Option<u16> {
    pack.manifest.port.map(|_| {
        super::all()
            .iter()
            .filter_map(|p| p.manifest.port)
            .max()
            .unwrap_or(3100)
            + 1
    })
}

/// The text substitutions a copied pack gets.
struct Renamer {
    pairs: Vec<(String, String)>,
}

impl Renamer {
    fn new(pack: &Pack, name: &str, module: &str) -> Renamer {
        let old_mod = pack
            .app
            .dir()
            .rsplit('/')
            .next()
            .unwrap_or_default()
            .to_string();
        let mut pairs = vec![
            (format!("\"{}\"", pack.name()), format!("\"{name}\"")),
            (format!("apps::{old_mod}"), format!("apps::{module}")),
            (
                format!("pack_files!(\"{old_mod}\""),
                format!("pack_files!(\"{module}\""),
            ),
            (
                format!("pack_files!(\n        \"{old_mod}\""),
                format!("pack_files!(\n        \"{module}\""),
            ),
            (
                format!("/src/apps/{old_mod}/"),
                format!("/src/apps/{module}/"),
            ),
            (format!("# {}\n", pack.name()), format!("# {name}\n")),
        ];
        // Recipe names are global: prefix the copied ones with the new module name.
        for (recipe, _) in pack.app.recipes() {
            pairs.push((format!("\"{recipe}\""), format!("\"{module}_{recipe}\"")));
        }
        Renamer { pairs }
    }

    fn apply(&self, text: &str) -> String {
        self.pairs
            .iter()
            .fold(text.to_string(), |t, (from, to)| t.replace(from, to))
    }
}

fn copy_renamed(src: &Path, dst: &Path, ren: &Renamer) -> Result<(), NewError> {
    for entry in walkdir::WalkDir::new(src).follow_links(false) {
        let entry = entry.map_err(|e| NewError::Io {
            what: "walk",
            path: src.to_path_buf(),
            source: e.into(),
        })?;
        let rel = entry.path().strip_prefix(src).unwrap_or(entry.path());
        let to = dst.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&to).map_err(io("create", &to))?;
            continue;
        }
        let renamed = matches!(
            entry.path().extension().and_then(|e| e.to_str()),
            Some("rs" | "py" | "toml" | "md")
        ) && !rel.starts_with("home");
        if renamed {
            let text = std::fs::read_to_string(entry.path()).map_err(io("read", entry.path()))?;
            std::fs::write(&to, ren.apply(&text)).map_err(io("write", &to))?;
        } else {
            std::fs::copy(entry.path(), &to).map_err(io("copy to", &to))?;
        }
    }
    Ok(())
}

fn rewrite_manifest(
    path: &Path,
    pack: &Pack,
    name: &str,
    port: Option<u16>,
) -> Result<(), NewError> {
    let text = std::fs::read_to_string(path).map_err(io("read", path))?;
    let mut out = String::new();
    for line in text.lines() {
        let key = line.split('=').next().unwrap_or_default().trim();
        match key {
            "name" if line.starts_with("name") => {
                out.push_str(&format!(
                    "name = \"{name}\"\ngenerated_from = \"{}\"\n",
                    pack.name()
                ));
            }
            "title" if line.starts_with("title") => out.push_str(&format!("title = \"{name}\"\n")),
            "aliases" if line.starts_with("aliases") => out.push_str("aliases = []\n"),
            "label" if line.starts_with("label") => {}
            "port" if line.starts_with("port") => {
                out.push_str(&format!("port = {}\n", port.unwrap_or_default()));
            }
            _ => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    std::fs::write(path, out).map_err(io("write", path))
}

/// New task ids and apps: `<old app>_…` ids become `<new>_…` (others get a `<new>_` prefix) and
/// the old app in `domain`, `domains` and the slots (`app`) becomes the new one.
pub(super) fn rewrite_tasks(path: &Path, old: &str, name: &str) -> Result<(), NewError> {
    let text = std::fs::read_to_string(path).map_err(io("read", path))?;
    let mut doc: Value = serde_json::from_str(&text).map_err(|e| NewError::Io {
        what: "parse",
        path: path.to_path_buf(),
        source: std::io::Error::new(std::io::ErrorKind::InvalidData, e),
    })?;
    let prefix = name.replace('-', "_");
    let olds = [old.replace('-', "_"), old.replace('-', "")];
    if let Some(tasks) = doc.get_mut("tasks").and_then(Value::as_array_mut) {
        for task in tasks {
            if let Some(id) = task.get("task_id").and_then(Value::as_str) {
                let rest = olds.iter().find_map(|o| id.strip_prefix(o.as_str()));
                let new_id = match rest {
                    Some(rest) => format!("{prefix}{rest}"),
                    None => format!("{prefix}_{id}"),
                };
                task["task_id"] = Value::String(new_id);
            }
            if task.get("domain").and_then(Value::as_str) == Some(old) {
                task["domain"] = Value::String(name.into());
            }
            if let Some(slots) = task.get_mut("slots") {
                rename_values(slots, old, name);
            }
            if let Some(domains) = task.get_mut("domains").and_then(Value::as_array_mut) {
                for d in domains.iter_mut().filter(|d| d.as_str() == Some(old)) {
                    *d = Value::String(name.into());
                }
            }
        }
    }
    let mut out = serde_json::to_string_pretty(&doc).unwrap_or_default();
    out.push('\n');
    std::fs::write(path, out).map_err(io("write", path))
}

/// Every string value equal to `old` in `v` (e.g. the `app` slot of the shared templates)
/// becomes `name`.
fn rename_values(v: &mut Value, old: &str, name: &str) {
    match v {
        Value::String(s) if s == old => *s = name.into(),
        Value::Array(items) => items.iter_mut().for_each(|i| rename_values(i, old, name)),
        Value::Object(map) => map.values_mut().for_each(|i| rename_values(i, old, name)),
        _ => {}
    }
}

/// The registry text with `    <module>,` added as the last line of the `packs! {` block.
pub fn add_registry_line(text: &str, module: &str) -> Result<String, NewError> {
    let start = text.find("\npacks! {").ok_or(NewError::NoRegistry)?;
    let end = text[start..].find("\n}").ok_or(NewError::NoRegistry)? + start;
    Ok(format!("{}\n    {module},{}", &text[..end], &text[end..]))
}

fn write_atomic(path: &Path, text: &str) -> Result<(), NewError> {
    let tmp = path.with_extension("rs.tw-tmp");
    std::fs::write(&tmp, text).map_err(io("write", &tmp))?;
    std::fs::rename(&tmp, path).map_err(io("rename", path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_line_goes_last_in_the_packs_block() {
        let text = "x\npacks! {\n    mail,\n    files,\n}\nrest\n";
        assert_eq!(
            add_registry_line(text, "calendar").unwrap(),
            "x\npacks! {\n    mail,\n    files,\n    calendar,\n}\nrest\n"
        );
        assert!(add_registry_line("nothing", "calendar").is_err());
    }

    #[test]
    fn taken_and_malformed_names_are_refused() {
        for bad in ["mail", "gmail", "Cal", "9cal", "cal-", "cross", "cal_x"] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
        assert_eq!(check_name("calendar-pro").unwrap(), "calendar_pro");
    }
}
