//! `apps new NAME --from PACK --local`: a working copy of a spec-built pack as a **local pack**
//! (`<root>/apps/<name>/`, loaded at start-up by [`super::local`]) — no source checkout, no
//! registry line, no rebuild. Only the spec and its seed are copied (with the curated
//! `tasks.json` of a spec that keeps its own); every other file is derived when it loads.

use std::path::Path;

use super::new::{check_name, io, next_port, rewrite_tasks, Created, NewError};

/// The spec text with `[app]`'s `name` set, `aliases` emptied (they belong to the original) and
/// `port` set; every other table is left as written.
fn rewrite_spec(text: &str, name: &str, port: Option<u16>) -> String {
    let mut out = String::new();
    let mut in_app = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with('[') {
            in_app = trimmed.starts_with("[app]");
        }
        let key = trimmed.split('=').next().unwrap_or_default().trim();
        let replaced = match key {
            _ if !in_app || !trimmed.contains('=') => None,
            "name" => Some(format!("name = \"{name}\"")),
            "aliases" => Some("aliases = []".to_string()),
            "port" => port.map(|p| format!("port = {p}")),
            _ => None,
        };
        out.push_str(replaced.as_deref().unwrap_or(line));
        out.push('\n');
    }
    out
}

/// Copies spec pack `from` to `<root>/apps/<name>/` as a local pack.
pub fn create_local(root: &Path, name: &str, from: &str) -> Result<Created, NewError> {
    let module = check_name(name)?;
    let pack = super::get(from)
        .ok_or_else(|| NewError::NoSuchPack(from.into(), super::names().join(", ")))?;
    let spec_text = pack
        .app
        .spec_text()
        .ok_or_else(|| NewError::NotSpec(from.into()))?;
    let seed_text = pack.app.seed_text().unwrap_or("{}");
    let spec_file = Path::new(pack.app.dir()).join("app.spec.toml");
    let spec = crate::envgen::parse(&spec_file, spec_text)
        .map_err(|e| NewError::BadSpec(from.into(), e.to_string()))?;
    let port = next_port(pack);
    let parent = root.join("apps");
    let dest = parent.join(&module);
    if dest.exists() {
        let why = format!("{} exists", dest.display());
        return Err(NewError::BadName {
            name: name.into(),
            why,
        });
    }
    std::fs::create_dir_all(&parent).map_err(io("create", &parent))?;
    let tmp = tempfile::Builder::new()
        .prefix(".tw-new-pack-")
        .tempdir_in(&parent)
        .map_err(io("create a temporary folder in", &parent))?;
    let spec_to = tmp.path().join("app.spec.toml");
    let seed_to = tmp.path().join(&spec.app.seed);
    std::fs::write(&spec_to, rewrite_spec(spec_text, name, port)).map_err(io("write", &spec_to))?;
    std::fs::write(&seed_to, seed_text).map_err(io("write", &seed_to))?;
    if !spec.app.derive_tasks {
        let tasks_to = tmp.path().join("tasks.json");
        std::fs::write(&tasks_to, pack.app.tasks_text()).map_err(io("write", &tasks_to))?;
        rewrite_tasks(&tasks_to, pack.name(), name)?;
    }
    let kept = tmp.keep();
    std::fs::rename(&kept, &dest).map_err(io("rename the new pack to", &dest))?;
    Ok(Created {
        name: name.into(),
        dir: dest,
        port,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_app_tables_name_aliases_and_port_change() {
        let text = "# x\n[app]\nname = \"todo\"\naliases = [\"tasks\"]\nport = 3190\n\
                    title = \"T\"\n[[entities]]\nname = \"users\"\n";
        let out = rewrite_spec(text, "notes", Some(3300));
        assert_eq!(
            out,
            "# x\n[app]\nname = \"notes\"\naliases = []\nport = 3300\ntitle = \"T\"\n\
             [[entities]]\nname = \"users\"\n"
        );
    }
}
