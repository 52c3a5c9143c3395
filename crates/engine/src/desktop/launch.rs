//! What a recorded launch starts on a screen: the launch lines a setup script's shims recorded
//! (`libreoffice --calc /home/user/x.xlsx`) matched to the desktop application packs, and the
//! argv of the real program with the environment's fresh profile.

use std::path::{Path, PathBuf};

use super::DesktopError;
use crate::apps::Pack;

/// Where the profile copies of applications appear inside their sandbox (`{profile}` is
/// `<this>/<app>`).
pub const IN_PROFILE: &str = "/tmp/tw-profile";

/// One application to start on a screen.
#[derive(Clone)]
pub struct AppLaunch {
    /// The pack.
    pub pack: &'static Pack,
    /// The program on the host (resolved on `PATH`).
    pub program: PathBuf,
    /// Its arguments (profile and the script's words filled in).
    pub args: Vec<String>,
    /// The launch line it came from (`None`: opened because the task names the app).
    pub line: Option<String>,
}

impl std::fmt::Debug for AppLaunch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppLaunch")
            .field("app", &self.pack.name())
            .field("program", &self.program)
            .field("args", &self.args)
            .field("line", &self.line)
            .finish()
    }
}

/// `program` resolved on the host's `PATH` (an absolute path must exist), or the error naming
/// the Debian package of `pack`.
pub fn resolve_program(pack: &Pack) -> Result<PathBuf, DesktopError> {
    let Some(d) = pack.desktop() else {
        return Err(DesktopError::Launch {
            app: pack.name().into(),
            detail: "the pack has no [desktop] table".into(),
        });
    };
    let missing = || DesktopError::Missing {
        app: pack.name().into(),
        program: d.program.clone(),
        package: d.package.clone(),
    };
    if d.program.contains('/') {
        let p = PathBuf::from(&d.program);
        return if is_executable(&p) {
            Ok(p)
        } else {
            Err(missing())
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_else(|| "/usr/local/bin:/usr/bin:/bin".into());
    std::env::split_paths(&path)
        .map(|dir| dir.join(&d.program))
        .find(|p| is_executable(p))
        .ok_or_else(missing)
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The applications a screen of a task over `apps` opens: one per recorded launch line that a
/// desktop pack answers (lines for other programs — `google-chrome`, `xdotool` — are left to
/// others), and each desktop application of the task that no line launched, with its
/// `default_args`.
pub fn plan_launches(apps: &[String], lines: &[String]) -> Result<Vec<AppLaunch>, DesktopError> {
    let mut out: Vec<AppLaunch> = Vec::new();
    for line in lines {
        let mut words = line.split_whitespace();
        let Some(program) = words.next() else {
            continue;
        };
        let given: Vec<String> = words.map(str::to_string).collect();
        let Some(pack) = answering_pack(program, &given, apps) else {
            continue;
        };
        out.push(launch_of(pack, Some(&given), Some(line.clone()))?);
    }
    for pack in super::snapshot::desktop_packs(apps) {
        if pack.desktop().is_some() && !out.iter().any(|l| l.pack.name() == pack.name()) {
            out.push(launch_of(pack, None, None)?);
        }
    }
    Ok(out)
}

/// The pack a launch line starts: [`crate::apps::launched_app`], except when several of the
/// task's own packs share the launcher (`libreoffice` for Calc and Writer on one screen): then
/// the one the line's words name — its module flag from `default_args` (`--writer`) or a
/// document of its `documents` patterns (`report.docx`) — so each application of a cross-app
/// task gets its own window, profile and state.
fn answering_pack(program: &str, words: &[String], apps: &[String]) -> Option<&'static Pack> {
    let fallback = crate::apps::launched_app(program, apps)?;
    let own: Vec<&'static Pack> = super::snapshot::desktop_packs(apps)
        .into_iter()
        .filter(|p| p.desktop().is_some_and(|d| d.launched_by(program)))
        .collect();
    if own.len() < 2 {
        return Some(fallback);
    }
    let names = |p: &Pack| {
        let Some(d) = p.desktop() else {
            return false;
        };
        let flag = |w: &String| {
            w.starts_with("--")
                && d.default_args.as_ref().is_some_and(|a| a.contains(w))
                && !d.args.contains(w)
        };
        let document = |w: &String| {
            d.documents.iter().any(|g| {
                g.rsplit_once("*.")
                    .is_some_and(|(_, ext)| w.to_lowercase().ends_with(&format!(".{ext}")))
            })
        };
        words.iter().any(|w| flag(w) || document(w))
    };
    own.iter().copied().find(|p| names(p)).or(Some(fallback))
}

fn launch_of(
    pack: &'static Pack,
    given: Option<&[String]>,
    line: Option<String>,
) -> Result<AppLaunch, DesktopError> {
    let program = resolve_program(pack)?;
    let d = pack.desktop().ok_or_else(|| DesktopError::Launch {
        app: pack.name().into(),
        detail: "no [desktop] table".into(),
    })?;
    Ok(AppLaunch {
        pack,
        program,
        args: d.argv(&format!("{IN_PROFILE}/{}", pack.name()), given),
        line,
    })
}

/// Writes a fresh copy of `pack`'s profile files into `dir` (created; must not exist).
pub fn write_profile(pack: &Pack, dir: &Path) -> Result<(), DesktopError> {
    let fail = |path: &Path, source: std::io::Error| DesktopError::Profile {
        app: pack.name().into(),
        path: path.display().to_string(),
        source,
    };
    std::fs::create_dir(dir).map_err(|e| fail(dir, e))?;
    for (rel, data) in pack.app.profile() {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| fail(parent, e))?;
        }
        std::fs::write(&path, data).map_err(|e| fail(&path, e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recorded_calc_launch_opens_calc_with_the_profile_and_the_file() {
        let apps = vec!["libreoffice_calc".to_string()];
        let lines = vec![
            "google-chrome https://x".to_string(),
            "libreoffice --calc /home/user/Documents/a.xlsx".to_string(),
        ];
        let plan = plan_launches(&apps, &lines).unwrap();
        assert_eq!(plan.len(), 1, "{plan:?}");
        let l = &plan[0];
        assert_eq!(l.pack.name(), "libreoffice_calc");
        assert!(l
            .args
            .iter()
            .any(|a| a == "-env:UserInstallation=file:///tmp/tw-profile/libreoffice_calc"));
        assert_eq!(l.args.last().unwrap(), "/home/user/Documents/a.xlsx");
        // No launch recorded: the task's app still opens, with its default arguments.
        let bare = plan_launches(&["calc".to_string()], &[]).unwrap();
        assert!(bare[0].args.contains(&"--calc".to_string()) && bare[0].line.is_none());
        // The files desktop is not a program of its own.
        assert!(plan_launches(&["files".to_string()], &[])
            .unwrap()
            .is_empty());
    }

    #[test]
    fn calc_and_writer_launches_of_one_task_start_each_its_own_application() {
        let apps = vec![
            "libreoffice_calc".to_string(),
            "libreoffice_writer".to_string(),
        ];
        let lines = vec![
            "libreoffice --calc /home/user/Documents/q.xlsx".to_string(),
            "libreoffice --writer /home/user/Documents/r.docx".to_string(),
            "soffice /home/user/Documents/s.docx".to_string(),
        ];
        let plan = plan_launches(&apps, &lines).unwrap();
        let names: Vec<&str> = plan.iter().map(|l| l.pack.name()).collect();
        assert_eq!(
            names,
            [
                "libreoffice_calc",
                "libreoffice_writer",
                "libreoffice_writer"
            ],
            "{plan:?}"
        );
        assert!(plan[1]
            .args
            .iter()
            .any(|a| a == "-env:UserInstallation=file:///tmp/tw-profile/libreoffice_writer"));
        // One application alone still answers every launch of its launcher.
        let calc = plan_launches(&apps[..1], &lines[1..2]).unwrap();
        assert_eq!(calc[0].pack.name(), "libreoffice_calc");
    }

    #[test]
    fn the_profile_is_written_fresh_and_never_over_an_existing_one() {
        let pack = crate::apps::get("libreoffice_calc").unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("p");
        write_profile(pack, &dir).unwrap();
        let xcu = std::fs::read_to_string(dir.join("user/registrymodifications.xcu")).unwrap();
        assert!(xcu.contains("WarnAlienFormat"));
        let again = write_profile(pack, &dir).unwrap_err().to_string();
        assert!(
            again.contains("libreoffice_calc") && again.contains("/p"),
            "{again}"
        );
    }
}
