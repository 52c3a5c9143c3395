//! The Rollouts screen: the trial list (the selected tuple's, or every trial) with reward, judge,
//! failure, duration and the batch's outcome (probe check or A.4.2 inclusion); the selected trial's
//! detail (screenshot, actions, transcript, judge); the launch form and the launch's progress.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Cell, Paragraph, Row, Table, Wrap};
use ratatui::Frame;

use super::trial_summary::{outcome_role, summary};
use super::{clip, score, titled};
use crate::model::rollouts::RolloutsState;
use crate::model::Model;
use crate::rollouts_data::{Screenshot, TrialRow};
use crate::theme::{Role, Theme};

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
    if st.full {
        let hint = " F back · + - zoom · ( ) step · 0 $ first/last";
        f.render_widget(Paragraph::new(hint).style(theme.style(Role::Muted)), keys);
        return super::filmstrip::draw_full(f, body, st, theme);
    }
    let hint = if model.readonly {
        " j/k trial · ( ) step · W live · A tuple/all · n/N tuple · read-only: no launch"
    } else {
        " j/k trial · ( ) step · W live · {/} detail · A tuple/all · L launch · n/N tuple"
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
    if let Some(l) = st.live.as_ref().filter(|l| l.recorded.is_none()) {
        let step = l.last().map_or(0, |(_, s)| s.seq + 1);
        let w = if st.watching() { "" } else { " (W watch)" };
        spans.push(Span::styled(
            format!(
                "● live {} #{} step {step}{w} ",
                clip(&l.task_id, 24),
                l.trial
            ),
            theme.style(Role::Modified),
        ));
    }
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
    if let Some(live) = st.live.as_ref().filter(|_| st.watching()) {
        return super::live_trial::draw(f, area, st, live, theme);
    }
    let Some(r) = st.selected_row() else {
        return super::hint(f, area, "Trial", "no trial selected", theme);
    };
    let title = format!("{} #{} · {}", r.model, r.trial, r.task_id);
    let block = titled(&title, theme);
    let inner = block.inner(area);
    f.render_widget(block, area);
    let detail = st.detail.as_ref().filter(|d| d.id == r.id);
    let batch: Vec<&TrialRow> = st
        .list
        .iter()
        .flat_map(|l| l.rows.iter())
        .filter(|x| x.batch == r.batch)
        .collect();
    let mut text_area = inner;
    let mut lines = Vec::new();
    if let Some(d) = detail.filter(|d| !d.steps.is_empty()) {
        let (rest, step_lines) = super::filmstrip::draw(f, inner, st, d, theme);
        text_area = rest;
        lines = step_lines;
    } else if let Some(shot) = detail.and_then(|d| d.screenshot.as_ref()) {
        match shot {
            Screenshot::Image(path, img) => {
                let (cap, pic, rest) = super::filmstrip::split(inner);
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
                super::screenshot::draw(f, pic, st, (r.id, -1), img, theme);
                text_area = rest;
            }
            Screenshot::Error(path, e) => lines.push(Line::styled(
                format!("✗ screenshot {}: {e}", path.display()),
                theme.style(Role::Alert),
            )),
        }
    }
    lines.extend(summary(r, &batch, detail.map(|d| &d.detail), theme));
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
