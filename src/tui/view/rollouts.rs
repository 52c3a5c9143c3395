//! The Rollouts screen: the trial list (the selected tuple's, or every trial) with reward, judge,
//! failure, duration and the batch's outcome (probe check or A.4.2 inclusion); the selected trial's
//! detail (screenshot, actions, transcript, judge); the launch form and the launch's progress.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Cell, Paragraph, Row, Table, Wrap};
use ratatui::Frame;
use serde_json::Value;

use super::{clip, score, titled};
use crate::tui::model::rollouts::RolloutsState;
use crate::tui::model::Model;
use crate::tui::rollouts_data::{Outcome, Screenshot, TrialRow};
use crate::tui::theme::{Role, Theme};

/// Draws the Rollouts screen.
pub fn draw(f: &mut Frame<'_>, area: Rect, model: &Model, theme: &Theme) {
    let st = &model.rollouts;
    let [head, body, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(4),
        Constraint::Length(1),
    ])
    .areas(area);
    f.render_widget(Paragraph::new(header(model, theme)), head);
    let hint = if model.readonly {
        " j/k trial · {/} detail · A this tuple/all · n/N tuple · read-only: no launch"
    } else {
        " j/k trial · {/} detail · A this tuple/all · L launch · n/N tuple"
    };
    f.render_widget(Paragraph::new(hint).style(theme.style(Role::Muted)), keys);
    let (list_area, detail_area) = if body.width >= 120 {
        let [a, b] =
            Layout::horizontal([Constraint::Percentage(55), Constraint::Min(30)]).areas(body);
        (a, b)
    } else {
        let [a, b] = Layout::vertical([Constraint::Percentage(40), Constraint::Min(4)]).areas(body);
        (a, b)
    };
    draw_list(f, list_area, st, theme);
    draw_detail(f, detail_area, st, theme);
    if let Some(form) = &st.form {
        super::launch_form::draw(
            f,
            body,
            form,
            model.tuples.selected_id(),
            model.tuples.view.len(),
            theme,
        );
    }
}

fn header(model: &Model, theme: &Theme) -> Line<'static> {
    let st = &model.rollouts;
    let scope = match (&st.list, st.all, &st.task_id) {
        (Some(l), true, _) => format!(
            " every trial ({}{}) ",
            l.rows.len(),
            if l.truncated { ", newest only" } else { "" }
        ),
        (Some(l), false, Some(id)) => format!(" {id}: {} trial(s) ", l.rows.len()),
        (None, _, Some(_)) | (None, true, _) => " loading trials… ".to_string(),
        _ => " no tuple selected — pick one on the Tuples screen (2) ".to_string(),
    };
    let mut spans = vec![Span::styled(scope, theme.style(Role::Title))];
    if let Some(p) = &st.progress {
        let done = p.recorded >= p.expected();
        let (g, role) = if done {
            ("✔", Role::Keep)
        } else {
            ("▶", Role::Modified)
        };
        spans.push(Span::styled(
            format!(
                "{g} launch {} × {} on {} tuple(s): {}/{} recorded{} ",
                clip(&p.policy, 30),
                p.trials,
                p.task_ids.len(),
                p.recorded,
                p.expected(),
                if p.failed > 0 {
                    format!(", {} failed", p.failed)
                } else {
                    String::new()
                }
            ),
            theme.style(role),
        ));
    }
    Line::from(spans)
}

fn outcome_role(o: &Outcome) -> Role {
    match o {
        Outcome::ProbeOk | Outcome::Inclusion(crate::engine::rollout::Inclusion::Accepted) => {
            Role::Keep
        }
        Outcome::Failed => Role::Alert,
        Outcome::ProbeDefect(_)
        | Outcome::Inclusion(crate::engine::rollout::Inclusion::Unsolvable) => Role::Reject,
        _ => Role::Undecided,
    }
}

fn row<'a>(r: &TrialRow, all: bool, theme: &Theme) -> Row<'a> {
    let reward = match (&r.failure, r.reward) {
        (Some(_), _) | (None, None) => Span::styled("✗ FAIL", theme.style(Role::Alert)),
        (None, Some(v)) => Span::raw(score(Some(v))),
    };
    let dur = r
        .duration_ms
        .map_or_else(|| "–".to_string(), |ms| format!("{ms:>6} ms"));
    let mut cells = Vec::new();
    if all {
        cells.push(Cell::from(r.task_id.clone()));
    }
    let shot = if r.has_screenshot { " ▣" } else { "" };
    cells.extend([
        Cell::from(format!("{}{shot}", r.model)),
        Cell::from(r.trial.to_string()),
        Cell::from(reward),
        Cell::from(r.judge.clone().unwrap_or_else(|| "–".into())),
        Cell::from(dur),
        Cell::from(Span::styled(
            r.outcome.label(),
            theme.style(outcome_role(&r.outcome)),
        )),
        Cell::from(Span::styled(
            r.failure.clone().unwrap_or_default(),
            theme.style(Role::Alert),
        )),
    ]);
    Row::new(cells)
}

fn draw_list(f: &mut Frame<'_>, area: Rect, st: &RolloutsState, theme: &Theme) {
    let block = titled("Trials", theme);
    let inner = block.inner(area);
    f.render_widget(block, area);
    let Some(list) = &st.list else { return };
    if list.rows.is_empty() {
        let msg = if st.all {
            "no rollouts in the store yet (L launches some)"
        } else {
            "no rollouts for this tuple yet (L launches some, A lists every trial)"
        };
        f.render_widget(Line::styled(msg, theme.style(Role::Muted)), inner);
        return;
    }
    // Only the visible window is formatted (the whole-store list can be long).
    let visible = inner.height.saturating_sub(1).max(1) as usize;
    let mut offset = st.offset.get().min(st.selected);
    if st.selected >= offset + visible {
        offset = st.selected + 1 - visible;
    }
    st.offset.set(offset);
    let end = list.rows.len().min(offset + visible);
    let rows = list.rows[offset..end].iter().enumerate().map(|(i, r)| {
        let mut row = row(r, st.all, theme);
        if offset + i == st.selected {
            row = row.style(
                theme
                    .style(Role::Selection)
                    .add_modifier(Modifier::REVERSED),
            );
        }
        row
    });
    let mut widths = Vec::new();
    let mut header = Vec::new();
    if st.all {
        widths.push(Constraint::Length(24));
        header.push("task");
    }
    widths.extend([
        Constraint::Min(12),
        Constraint::Length(3),
        Constraint::Length(6),
        Constraint::Length(6),
        Constraint::Length(9),
        Constraint::Length(22),
        Constraint::Min(0),
    ]);
    header.extend([
        "policy", "#", "reward", "judge", "duration", "outcome", "failure",
    ]);
    let table = Table::new(rows, widths)
        .header(Row::new(header).style(theme.style(Role::Title)))
        .column_spacing(1);
    f.render_widget(table, inner);
}

fn draw_detail(f: &mut Frame<'_>, area: Rect, st: &RolloutsState, theme: &Theme) {
    let Some(r) = st.selected_row() else {
        return super::hint(f, area, "Trial", "no trial selected", theme);
    };
    let title = format!("{} #{} · {}", r.model, r.trial, r.task_id);
    let block = titled(&title, theme);
    let inner = block.inner(area);
    f.render_widget(block, area);
    let detail = st.detail.as_ref().filter(|d| d.id == r.id);
    let mut text_area = inner;
    let mut lines = summary(r, detail.map(|d| &d.detail), theme);
    if let Some(shot) = detail.and_then(|d| d.screenshot.as_ref()) {
        match shot {
            Screenshot::Image(path, img) => {
                let h = (inner.height / 2).clamp(3, 16);
                let [cap, pic, rest] = Layout::vertical([
                    Constraint::Length(1),
                    Constraint::Length(h),
                    Constraint::Min(0),
                ])
                .areas(inner);
                let name = path
                    .file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
                f.render_widget(
                    Line::styled(
                        format!("▣ screenshot {name} ({}×{} px)", img.width(), img.height()),
                        theme.style(Role::Title),
                    ),
                    cap,
                );
                super::screenshot::draw(f, pic, st, r.id, img, theme);
                text_area = rest;
            }
            Screenshot::Error(path, e) => lines.insert(
                0,
                Line::styled(
                    format!("✗ screenshot {}: {e}", path.display()),
                    theme.style(Role::Alert),
                ),
            ),
        }
    }
    if detail.is_none() {
        lines.push(Line::styled("loading the trial…", theme.style(Role::Muted)));
    }
    f.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((st.detail_scroll.min(u16::MAX as usize) as u16, 0)),
        text_area,
    );
}

fn summary(r: &TrialRow, detail: Option<&Value>, theme: &Theme) -> Vec<Line<'static>> {
    let muted = theme.style(Role::Muted);
    let head = theme.style(Role::Title);
    let mut out = Vec::new();
    let kind = match r.probe_expected {
        Some(e) => format!("probe (every trial must score {e})"),
        None => "teacher (A.4.2 inclusion rule)".to_string(),
    };
    out.push(Line::from(vec![
        Span::styled("kind ", muted),
        Span::raw(kind),
    ]));
    let reward = match (&r.failure, r.reward) {
        (None, Some(v)) => format!("{v:.2}"),
        _ => "none — the trial failed (not a 0)".to_string(),
    };
    out.push(Line::from(vec![
        Span::styled("reward ", muted),
        Span::raw(reward),
        Span::styled(" · judge ", muted),
        Span::raw(r.judge.clone().unwrap_or_else(|| "not configured".into())),
    ]));
    out.push(Line::from(vec![
        Span::styled("outcome ", muted),
        Span::styled(r.outcome.label(), theme.style(outcome_role(&r.outcome))),
    ]));
    if let Some(fl) = &r.failure {
        out.push(Line::styled(format!("✗ {fl}"), theme.style(Role::Alert)));
    }
    let Some(d) = detail else { return out };
    if let Some(reason) = d.pointer("/judge/reasoning").and_then(Value::as_str) {
        out.push(Line::styled("judge reasoning", head));
        out.extend(reason.lines().map(|l| Line::raw(format!("  {l}"))));
    }
    let actions = d.get("actions").and_then(Value::as_array);
    out.push(Line::styled(
        format!("actions ({})", actions.map_or(0, Vec::len)),
        head,
    ));
    for a in actions.into_iter().flatten() {
        out.push(Line::raw(format!("  {a}")));
    }
    if let Some(diff) = d.get("final_state_diff").and_then(Value::as_object) {
        let parts: Vec<String> = diff
            .iter()
            .map(|(app, v)| {
                format!(
                    "{app}: {} key(s) changed",
                    v.as_object().map_or(0, |o| o.len())
                )
            })
            .collect();
        if !parts.is_empty() {
            out.push(Line::from(vec![
                Span::styled("final state ", muted),
                Span::raw(parts.join(", ")),
            ]));
        }
    }
    let transcript = d.get("transcript").and_then(Value::as_str).unwrap_or("");
    out.push(Line::styled("transcript", head));
    if transcript.is_empty() {
        out.push(Line::styled("  (empty)", muted));
    }
    out.extend(transcript.lines().map(|l| Line::raw(format!("  {l}"))));
    out
}
