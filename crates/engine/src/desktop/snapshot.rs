//! The state of a desktop environment at an endpoint: the home map (as the files desktop has)
//! under the first desktop app of the task, plus the state reader's output of each desktop
//! application with one (`[desktop] state = true`).

use std::path::Path;

use serde_json::Value;

use super::state_reader::{read_state, READER_PYTHON, READER_TIMEOUT};
use super::DesktopError;
use crate::apps::Pack;

/// The desktop packs among `apps` (names or aliases), in task order, each once.
pub fn desktop_packs(apps: &[String]) -> Vec<&'static Pack> {
    let mut out: Vec<&'static Pack> = Vec::new();
    for a in apps {
        if let Some(p) = crate::apps::find(a).filter(|p| p.is_desktop()) {
            if !out.iter().any(|q| q.name() == p.name()) {
                out.push(p);
            }
        }
    }
    out
}

/// `(env name, state JSON)` of each desktop app of `apps` given the `home` map; `home_dir` is
/// read by state readers (`None`: an environment whose home is not on this machine, whose
/// readers are then skipped).
pub fn desktop_states(
    apps: &[String],
    home: Value,
    home_dir: Option<&Path>,
) -> Result<Vec<(String, Value)>, DesktopError> {
    let packs = desktop_packs(apps);
    let mut out = Vec::new();
    let mut home = Some(home);
    for pack in &packs {
        let reader = pack
            .desktop()
            .filter(|d| d.state)
            .and(pack.app.state_reader());
        let read = match (reader, home_dir) {
            (Some(script), Some(dir)) => Some(read_state(
                pack.name(),
                script,
                dir,
                Path::new(READER_PYTHON),
                READER_TIMEOUT,
            )?),
            _ => None,
        };
        match (home.take(), read) {
            (Some(h), None) => out.push((pack.name().to_string(), h)),
            (Some(h), Some(mut r)) => {
                if let Some(obj) = r.as_object_mut() {
                    obj.insert("home".into(), h);
                }
                out.push((pack.name().to_string(), r));
            }
            (None, Some(r)) => out.push((pack.name().to_string(), r)),
            (None, None) => {}
        }
    }
    if let Some(h) = home {
        // No desktop pack named (an override app of kind files): the files desktop's name.
        let name = crate::apps::desktop().map_or_else(String::new, |p| p.name().to_string());
        out.push((name, h));
    }
    Ok(out)
}
