//! The applications a desktop environment's screen starts ([`ScreenApp`]s): one per desktop
//! application of the task, with the words of every launch its scripts recorded (two launches
//! of Calc on two files become one Calc with both: LibreOffice hands a second start to the first
//! instance and exits, which a screen would otherwise take for a crash).

use crate::desktop::launch::{plan_launches, AppLaunch};
use crate::desktop::DesktopError;
use crate::screen::ScreenApp;

/// The screen applications of a task over `apps` whose scripts recorded `lines`.
pub fn screen_apps(apps: &[String], lines: &[String]) -> Result<Vec<ScreenApp>, DesktopError> {
    let mut merged: Vec<AppLaunch> = Vec::new();
    for l in plan_launches(apps, lines)? {
        match merged.iter_mut().find(|m| m.pack.name() == l.pack.name()) {
            Some(m) => {
                let extra: Vec<String> = l
                    .args
                    .iter()
                    .filter(|a| !a.starts_with('-') && !m.args.contains(a))
                    .cloned()
                    .collect();
                m.args.extend(extra);
            }
            None => merged.push(l),
        }
    }
    Ok(merged.into_iter().map(to_screen_app).collect())
}

fn to_screen_app(l: AppLaunch) -> ScreenApp {
    let d = l.pack.desktop();
    ScreenApp {
        name: l.pack.name().to_string(),
        program: l.program,
        args: l.args,
        env: d
            .map(|d| d.env.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
            .unwrap_or_default(),
        classes: d.map(|d| d.classes.clone()).unwrap_or_default(),
        profile: l
            .pack
            .app
            .profile()
            .iter()
            .map(|(p, b)| (p.to_string(), b.to_vec()))
            .collect(),
        ready: std::time::Duration::from_millis(d.map_or(30_000, |d| d.ready_timeout_ms)),
        document_title: d.and_then(|d| d.document_title.clone()),
    }
}

/// The end of a trial on a screen running desktop applications: a modal dialog still showing
/// (a "Save changes?" box, an error) is an infrastructure failure naming it and quoting its
/// text, never a score. Screens without desktop applications (web pages, the files desktop, an
/// OSWorld guest) pass unchecked.
pub fn no_dialog_left(
    live: &mut crate::rollout::vlm::LiveScreen,
    cfg: &crate::screen::ScreenConfig,
) -> Result<(), crate::rollout::RolloutError> {
    match live.screen() {
        Some(screen) if screen.session_dir().is_some() => Ok(screen.ensure_no_modal_dialog(cfg)?),
        _ => Ok(()),
    }
}

/// Whether the task over `apps` has a desktop application (a program on its screen).
pub fn has_programs(apps: &[String]) -> bool {
    crate::desktop::snapshot::desktop_packs(apps)
        .iter()
        .any(|p| p.desktop().is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_launches_of_calc_become_one_calc_with_both_files() {
        let apps = vec!["libreoffice_calc".to_string()];
        let lines = vec![
            "libreoffice --calc /home/user/a.xlsx".to_string(),
            "soffice --calc /home/user/b.xlsx".to_string(),
        ];
        let got = screen_apps(&apps, &lines).unwrap();
        assert_eq!(got.len(), 1);
        let args = &got[0].args;
        assert!(
            args.ends_with(&["/home/user/a.xlsx".into(), "/home/user/b.xlsx".into()]),
            "{args:?}"
        );
        assert!(got[0]
            .env
            .iter()
            .any(|(k, v)| k == "SAL_USE_VCLPLUGIN" && v == "gtk3"));
        assert_eq!(got[0].profile[0].0, "user/registrymodifications.xcu");
        assert!(has_programs(&apps) && !has_programs(&["files".to_string()]));
    }
}
