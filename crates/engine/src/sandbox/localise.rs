//! Public scripts run unmodified: what a run adds so the addresses, session id, GUI launch lines
//! and judge helper of a published bundle work in this environment. The stored script is never
//! edited; the copy the sandbox runs only has its `__CUA_GYM_…__` placeholders filled in.
//!
//! - **Addresses**: the sandbox's `sitecustomize.py` answers name resolution of every Hub host of
//!   the environment's apps (`cua-gym-<name>.xlang.ai`, port 443 or 80) and of the routed ports of
//!   any host (`http://<host>:80NN`) with the loopback port relayed to the app's forwarder; HTTPS is
//!   terminated by a second forwarder with a certificate of the process's CA, which the script
//!   trusts via `SSL_CERT_FILE`/`REQUESTS_CA_BUNDLE`. `/etc/hosts` also names the Hub hosts, so
//!   other programs fail fast on loopback instead of on DNS. Why resolution and not a bound
//!   port 443: an unprivileged sandbox cannot bind ports below 1024, and resolution is the one
//!   place every Python HTTP client passes through.
//! - **Session id**: `/tmp/task_web_sid` is writable; a sid the script writes there is mapped by
//!   the forwarder to the environment's own session (see `proxy`).
//! - **GUI launch lines**: `google-chrome`, `xdg-open`… are stubs that record the launch
//!   ([`gui_launches`]) and succeed; `TW_SCREEN_LAUNCH` is the hook for a screen.
//! - **`reward_judge`**: a shim answered by the configured judge over a per-run unix socket
//!   ([`judge_channel`], `openenv::judge`); without a judge, or when a call fails, the run ends
//!   as an infrastructure failure ([`infra_failure`]).

/// The sitecustomize module that applies `TW_NETMAP`.
pub const SITE_PY: &str = include_str!("../../../../assets/python/sitecustomize.py");
/// The `reward_judge` shim.
pub const JUDGE_PY: &str = include_str!("../../../../assets/python/reward_judge.py");
/// The stub run for a GUI program.
pub const GUI_STUB: &str = include_str!("../../../../assets/python/tw_gui_stub.sh");
/// Programs setup scripts launch for a screen (stubs on `PATH` inside the sandbox).
pub const GUI_PROGRAMS: &[&str] = &[
    "google-chrome",
    "google-chrome-stable",
    "chromium",
    "chromium-browser",
    "firefox",
    "xdg-open",
    "libreoffice",
    "soffice",
    "xdotool",
    "wmctrl",
];
/// Every launcher stub of a run: [`GUI_PROGRAMS`] and the launcher names of every desktop
/// application pack (`[desktop] launchers`), each once.
pub fn gui_programs() -> Vec<String> {
    let mut out: Vec<String> = GUI_PROGRAMS.iter().map(|s| s.to_string()).collect();
    for name in crate::apps::launcher_names() {
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// A stderr line starting with this is an infrastructure failure of the run, not a script fault.
pub const INFRA_MARKER: &str = "tuplewright-sandbox: infra: ";
/// Prefix of a result note recording one GUI launch.
pub const GUI_NOTE: &str = "gui launch (no screen; recorded, not run): ";
/// Offset from an app's port to its in-sandbox HTTPS (TLS-terminated) port.
pub const TLS_PORT_OFFSET: u16 = 10_000;

pub use crate::openenv::Localise;

/// The in-sandbox HTTPS port of an app on `port`.
pub fn tls_port(port: u16) -> Option<u16> {
    port.checked_add(TLS_PORT_OFFSET)
}

/// The script text the sandbox runs: `__CUA_GYM_SID__` becomes the sid, and
/// `__CUA_GYM_<APP>_URL__` the URL of the app it names (`apis`: app → URL). Unknown names stay.
pub fn substitute(source: &str, sid: &str, loc: &Localise, apis: &[(String, String)]) -> String {
    let text = source.replace("__CUA_GYM_SID__", sid);
    let Some(re) = crate::openenv::hints::placeholders() else {
        return text;
    };
    re.replace_all(&text, |c: &regex::Captures<'_>| {
        let whole = c.get(0).map_or("", |m| m.as_str()).to_string();
        let name = c.get(1).map_or("", |m| m.as_str());
        let app = loc
            .app_of(name)
            .map(str::to_string)
            .unwrap_or_else(|| name.to_ascii_lowercase().replace('_', "-"));
        apis.iter()
            .find(|(a, _)| *a == app)
            .map(|(_, url)| url.clone())
            .unwrap_or(whole)
    })
    .into_owned()
}

/// `TW_NETMAP` for the sandbox: `apis` are `(app, port, tls port)`.
pub fn netmap(loc: &Localise, apis: &[(String, u16, Option<u16>)]) -> String {
    let mut items = Vec::new();
    for (name, app) in &loc.hub_names {
        let Some((_, port, tls)) = apis.iter().find(|(a, _, _)| a == app) else {
            continue;
        };
        let host = crate::openenv::hints::hub_host(name);
        items.push(format!("{host}:80={port}"));
        if let Some(t) = tls {
            items.push(format!("{host}:443={t}"));
        }
    }
    for (lo, hi, app) in &loc.ports {
        if let Some((_, port, _)) = apis.iter().find(|(a, _, _)| a == app) {
            items.push(format!("*:{lo}-{hi}={port}"));
        }
    }
    items.join(";")
}

/// Extra `/etc/hosts` lines naming the Hub hosts on loopback.
pub fn hosts(loc: &Localise) -> String {
    loc.hub_names
        .iter()
        .map(|(n, _)| format!("127.0.0.1\t{}\n", crate::openenv::hints::hub_host(n)))
        .collect()
}

/// The infrastructure failure a run reported on stderr (the `reward_judge` shim does), if any.
pub fn infra_failure(stderr: &str) -> Option<String> {
    stderr
        .lines()
        .find_map(|l| l.strip_prefix(INFRA_MARKER))
        .map(|m| m.trim().to_string())
}

/// A judge channel started for one run: the socket to bind into the sandbox (if sandboxed) and
/// the variables that tell the shim where it is.
pub(super) struct JudgeRun {
    /// The channel (stopped after the script).
    pub channel: crate::openenv::judge::Channel,
    /// The socket's file name in the run directory, bound under `/tmp/.tw/`.
    pub socket: Option<String>,
    /// `TW_JUDGE_SOCKET`, `TW_JUDGE_TIMEOUT`.
    pub env: Vec<(String, String)>,
}

/// Serves `link` on `judge.sock` of the run directory; `owner`: the uid that alone may connect.
pub(super) fn judge_channel(
    link: &crate::openenv::judge::JudgeLink,
    run: &super::layout::RunDir,
    sandboxed: bool,
    owner: Option<u32>,
) -> std::io::Result<JudgeRun> {
    const NAME: &str = "judge.sock";
    let path = run.path(NAME);
    let channel = link.serve(&path)?;
    if let Some(uid) = owner {
        super::ownership::restrict_socket(&path, uid)?;
    }
    let inside = if sandboxed {
        crate::openenv::judge::IN_JUDGE_SOCKET.to_string()
    } else {
        path.display().to_string()
    };
    let env = vec![
        ("TW_JUDGE_SOCKET".to_string(), inside),
        (
            "TW_JUDGE_TIMEOUT".to_string(),
            format!("{:.0}", channel.call_timeout().as_secs_f64().ceil()),
        ),
    ];
    Ok(JudgeRun {
        channel,
        socket: sandboxed.then(|| NAME.to_string()),
        env,
    })
}

/// The result note of a run's judge calls.
pub(super) fn judge_note(log: &crate::openenv::judge::ChannelLog) -> String {
    match log.failures.first() {
        None => format!("reward judge: {} call(s) answered", log.calls),
        Some(why) => format!(
            "reward judge: {} call(s), {} failed (infrastructure): {why}",
            log.calls,
            log.failures.len()
        ),
    }
}

/// The GUI launches recorded in a result's notes (what a screen would have opened).
pub fn gui_launches(notes: &[String]) -> Vec<String> {
    notes
        .iter()
        .filter_map(|n| n.strip_prefix(GUI_NOTE))
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loc() -> Localise {
        Localise {
            hub_names: vec![
                ("mail".into(), "mail".into()),
                ("gmail".into(), "mail".into()),
            ],
            ports: vec![(8000, 8099, "mail".into())],
        }
    }

    #[test]
    fn placeholders_are_filled_and_unknown_ones_kept() {
        let apis = vec![("mail".to_string(), "http://localhost:3102".to_string())];
        let s = "a='__CUA_GYM_GMAIL_URL__/go?sid=__CUA_GYM_SID__'; b='__CUA_GYM_NOTION_URL__'";
        assert_eq!(
            substitute(s, "sid1", &loc(), &apis),
            "a='http://localhost:3102/go?sid=sid1'; b='__CUA_GYM_NOTION_URL__'"
        );
    }

    #[test]
    fn netmap_routes_hosts_tls_and_ports() {
        let m = netmap(&loc(), &[("mail".into(), 3102, Some(13102))]);
        assert!(m.contains("cua-gym-gmail.xlang.ai:443=13102"), "{m}");
        assert!(m.contains("cua-gym-gmail.xlang.ai:80=3102"), "{m}");
        assert!(m.contains("*:8000-8099=3102"), "{m}");
        assert!(hosts(&loc()).contains("127.0.0.1\tcua-gym-gmail.xlang.ai\n"));
    }

    #[test]
    fn infra_marker_and_gui_notes_are_read_back() {
        let err = format!("Traceback\n{INFRA_MARKER}judge missing\nJudgeUnavailable");
        assert_eq!(infra_failure(&err).as_deref(), Some("judge missing"));
        assert_eq!(infra_failure("plain crash"), None);
        let notes = vec![format!("{GUI_NOTE}google-chrome https://x"), "other".into()];
        assert_eq!(gui_launches(&notes), vec!["google-chrome https://x"]);
    }
}
