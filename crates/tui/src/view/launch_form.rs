//! The launch form of the Rollouts screen, drawn as a box over the screen's body.

use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};
use ratatui::Frame;

use super::{centered, titled};
use crate::model::launch::{Field, LaunchForm};
use crate::theme::{Role, Theme};
use tuplewright_engine::rollout::vlm::is_vlm_spec;

/// Draws the form; `selected` is the selected tuple, `in_view` the tuples in the Tuples view.
pub fn draw(
    f: &mut Frame<'_>,
    area: Rect,
    form: &LaunchForm,
    selected: Option<&str>,
    in_view: usize,
    theme: &Theme,
) {
    let r = centered(area, 76, 16);
    f.render_widget(Clear, r);
    let field = |fld: Field, name: &str, value: String| {
        let on = form.field == fld;
        let mut style = theme.style(if on { Role::Selection } else { Role::Title });
        if on {
            style = style.add_modifier(Modifier::REVERSED);
        }
        Line::from(vec![
            Span::styled(format!("{} {name:<8}", if on { "▶" } else { " " }), style),
            Span::raw(" "),
            Span::raw(value),
        ])
    };
    // Built-ins are short; a long configured spec is shown alone with its position.
    let policies = if form.policies.iter().map(|p| p.len() + 3).sum::<usize>() <= 60 {
        form.policies
            .iter()
            .enumerate()
            .map(|(i, p)| {
                if i == form.policy {
                    format!("[{p}]")
                } else {
                    format!(" {p} ")
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    } else {
        format!(
            "◀ [{}] ▶ ({}/{})",
            super::clip_middle(form.selected(), 52),
            form.policy + 1,
            form.policies.len()
        )
    };
    let mut lines = vec![
        field(Field::Policy, "policy", policies),
        field(Field::Trials, "trials", format!("{}▏", form.trials)),
    ];
    if form.fields().contains(&Field::Command) {
        lines.push(field(
            Field::Command,
            "command",
            format!("{}▏", form.command),
        ));
    }
    if form.fields().contains(&Field::Temperature) {
        lines.push(field(
            Field::Temperature,
            "temp",
            format!("{}▏", form.temperature),
        ));
        lines.push(field(
            Field::MaxTurns,
            "turns",
            format!("{}▏ (max model turns per trial)", form.max_turns),
        ));
    }
    let scope = if form.all_in_view {
        format!("every tuple in the Tuples view ({in_view})")
    } else {
        format!("the selected tuple ({})", selected.unwrap_or("none"))
    };
    lines.push(field(Field::Scope, "on", scope));
    lines.push(Line::raw(""));
    let help = match form.selected() {
        "oracle" => "oracle replays golden_patch.py: every trial must score 1.0 (probe)",
        "noop" => "noop does nothing: every trial must score 0.0 (probe)",
        "ui-oracle" => "ui-oracle does the task through its screen only: every trial must score 1.0 (probe)",
        "command" => "command runs your agent with sh -c (TW_INSTRUCTION, TW_HOME, TW_SID… set); its scores decide inclusion (teacher)",
        p if is_vlm_spec(p) => "a VLM acts through the task's screen ([rollout.vlm] format, coords, budgets); its scores and the judge decide inclusion (teacher)",
        _ => "a policy from [rollout] policies",
    };
    lines.push(Line::styled(help, theme.style(Role::Muted)));
    if let Some(e) = &form.error {
        lines.push(Line::styled(format!("✗ {e}"), theme.style(Role::Alert)));
    }
    lines.push(Line::styled(
        "tab/↑↓ field · ←/→ change · enter launch · esc cancel",
        theme.style(Role::Muted),
    ));
    f.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(titled("Launch rollouts", theme)),
        r,
    );
}
