//! The Inspector's runs pane: every script run of the round as stored — initial_setup.py on
//! V_init and on V_gold, golden_patch.py, each reward.py run — with its role, environment, exit
//! code, duration, failure, and its whole stdout and stderr.

use ratatui::text::{Line, Span};

use crate::theme::{Role, Theme};
use tuplewright_base::store::StoredRound;

/// Columns of the runs pane's gutter (`▸ ` on a run, `│ ` on its output).
pub const GUTTER: usize = 2;

/// The script, sandbox role and environment of a stored setup/golden run label.
fn script_of(label: &str) -> (&str, &str, &str) {
    match label {
        "setup" => ("initial_setup.py", "setup", "V_init"),
        "setup_on_gold" => ("initial_setup.py", "setup", "V_gold"),
        "golden" => ("golden_patch.py", "golden", "V_gold"),
        other => (other, other, "?"),
    }
}

/// The environment a reward run read.
fn env_of(endpoint: &str) -> &str {
    match endpoint {
        "initial" => "V_init",
        "golden" => "V_gold",
        "rollout" => "a trial's final state",
        other => other,
    }
}

/// One run's facts, as drawn in its header.
struct Run<'a> {
    script: &'a str,
    role: &'a str,
    env: &'a str,
    exit: Option<i32>,
    ms: i64,
    failure: Option<&'a str>,
    extra: Option<String>,
    stdout: &'a str,
    stderr: &'a str,
}

/// The lines of the runs pane for `round`.
pub fn lines(round: &StoredRound, theme: &Theme) -> Vec<Line<'static>> {
    let r = &round.round;
    let mut runs: Vec<Run> = r
        .script_runs
        .iter()
        .map(|s| {
            let (script, role, env) = script_of(&s.script);
            Run {
                script,
                role,
                env,
                exit: s.exit_code,
                ms: s.duration_ms,
                failure: s.failure.as_deref(),
                extra: None,
                stdout: &s.stdout,
                stderr: &s.stderr,
            }
        })
        .collect();
    let mut seen = std::collections::HashMap::new();
    runs.extend(r.reward_runs.iter().map(|w| {
        let n = seen.entry(w.endpoint.as_str()).or_insert(0);
        *n += 1;
        let reward = w
            .reward
            .map_or_else(|| "no REWARD".to_string(), |v| format!("REWARD {v:.2}"));
        Run {
            script: "reward.py",
            role: "reader",
            env: env_of(&w.endpoint),
            exit: w.exit_code,
            ms: w.duration_ms,
            failure: w.failure.as_deref(),
            extra: Some(format!("run {n} · {reward}")),
            stdout: &w.stdout,
            stderr: &w.stderr,
        }
    }));
    if runs.is_empty() {
        return vec![Line::styled(
            "(no script ran in this round — the Generator produced no usable scripts?)",
            theme.style(Role::Muted),
        )];
    }
    let mut out = vec![Line::styled(
        format!(
            "{} runs in this round, in the order the harness ran them",
            runs.len()
        ),
        theme.style(Role::Muted),
    )];
    for (i, run) in runs.iter().enumerate() {
        out.extend(run_lines(i + 1, run, theme));
    }
    out
}

/// A duration as stored, in milliseconds (`   412 ms`, ` 12034 ms`): exact, one unit to compare,
/// right-aligned so that the runs' headers line up.
fn duration(ms: i64) -> String {
    format!("{ms:>6} ms")
}

fn run_lines(n: usize, run: &Run<'_>, theme: &Theme) -> Vec<Line<'static>> {
    let ok = run.exit == Some(0) && run.failure.is_none();
    let (glyph, role) = if ok {
        ("✔", Role::Keep)
    } else {
        ("✘", Role::Reject)
    };
    let exit = run
        .exit
        .map_or_else(|| "no exit code".to_string(), |c| format!("exit {c}"));
    let mut head = vec![
        Span::styled("▸ ", theme.style(Role::Title)),
        Span::styled(format!("{glyph} {n}. {}", run.script), theme.style(role)),
        Span::styled(
            format!(
                " · role {} · env {} · {exit} · {}",
                run.role,
                run.env,
                duration(run.ms)
            ),
            theme.style(Role::Muted),
        ),
    ];
    if let Some(x) = &run.extra {
        head.push(Span::styled(format!(" · {x}"), theme.style(Role::Muted)));
    }
    let mut out = vec![Line::from(head)];
    if let Some(f) = run.failure {
        out.push(Line::styled(
            format!("│ failure: {f}"),
            theme.style(Role::Alert),
        ));
    }
    for (name, text) in [("stdout", run.stdout), ("stderr", run.stderr)] {
        let body: Vec<&str> = text.lines().collect();
        let label = if body.is_empty() {
            format!("│ {name}: (empty)")
        } else {
            let n = body.len();
            format!("│ {name} ({n} line{}):", if n == 1 { "" } else { "s" })
        };
        out.push(Line::styled(label, theme.style(Role::Title)));
        let style = if name == "stderr" && !ok {
            theme.style(Role::Alert)
        } else {
            ratatui::style::Style::default()
        };
        out.extend(body.iter().map(|l| {
            Line::from(vec![
                Span::styled("│ ", theme.style(Role::Muted)),
                Span::styled(format!("  {l}"), style),
            ])
        }));
    }
    out
}
