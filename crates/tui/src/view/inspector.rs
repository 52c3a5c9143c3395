//! The Inspector: instruction and context, the rounds, and one pane per round — REVIEW.md or one of
//! the three scripts with line numbers and the scan findings shown under the lines they point at.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, List, ListItem, ListState, Paragraph, Wrap};
use ratatui::Frame;

use super::score;
use super::window::{fit, Fit};
use crate::data::{parse_conditions, rewards};
use crate::diff::{pairs, unified, words, Change, Piece};
use crate::highlight::{highlight, Lang};
use crate::model::inspector::Pane;
use crate::model::Model;
use crate::mouse::Target;
use crate::theme::{check_glyph, status_glyph, Role, Theme};
use tuplewright_base::store::StoredRound;

/// Draws the Inspector.
pub fn draw(f: &mut Frame<'_>, area: Rect, model: &Model, theme: &Theme) {
    let ins = &model.inspector;
    let Some(d) = &ins.detail else {
        let msg = match &ins.task_id {
            Some(id) => format!("loading {id}…"),
            None => "no tuple selected — pick one on the Tuples screen (2) and press enter".into(),
        };
        let block = Block::default().borders(Borders::ALL).title(" Inspector ");
        f.render_widget(
            Paragraph::new(msg)
                .style(theme.style(Role::Muted))
                .block(block),
            area,
        );
        return;
    };
    let task = &d.task.task;
    let (glyph, role) = status_glyph(&d.task.status);
    let labels = &task.labels;
    let head = vec![
        Line::from(vec![
            Span::styled(format!("{glyph} {} ", d.task.status), theme.style(role)),
            Span::styled(
                format!(
                    "{} · {} · {}",
                    labels.domain.as_deref().unwrap_or("?"),
                    labels.difficulty.as_deref().unwrap_or("?"),
                    labels.apps.join("+")
                ),
                theme.style(Role::Muted),
            ),
        ]),
        Line::from(vec![
            Span::styled("t: ", theme.style(Role::Title)),
            Span::raw(task.instruction.clone()),
        ]),
        Line::from(vec![
            Span::styled("context: ", theme.style(Role::Title)),
            Span::raw(task.context.clone()),
        ]),
    ];
    let head_h = if area.height >= 40 { 9 } else { 6 };
    let [top, bottom] =
        Layout::vertical([Constraint::Length(head_h), Constraint::Min(3)]).areas(area);
    let block = Block::default().borders(Borders::ALL).title(Span::styled(
        format!(" {} ", task.task_id),
        theme.style(Role::Title),
    ));
    f.render_widget(
        Paragraph::new(head).wrap(Wrap { trim: true }).block(block),
        top,
    );
    let [left, right] =
        Layout::horizontal([Constraint::Length(24), Constraint::Min(10)]).areas(bottom);
    let items: Vec<ListItem> = d
        .rounds
        .iter()
        .enumerate()
        .map(|(i, r)| {
            // A run boundary: the round starts another run than the one before it.
            let run = d.runs.get(i).copied();
            let boundary = (i > 0 && run != d.runs.get(i - 1).copied()).then_some(run);
            round_item(r, boundary.flatten(), theme)
        })
        .collect();
    let list = List::new(items)
        .block(
            Block::default()
                .borders(Borders::ALL)
                .title(format!(" {} rounds r(g)/r(i) ", d.rounds.len())),
        )
        .highlight_style(theme.style(Role::Selection))
        .highlight_symbol("▌");
    let mut state = ListState::default().with_selected((!d.rounds.is_empty()).then_some(ins.round));
    f.render_stateful_widget(list, left, &mut state);
    let shown =
        (left.height.saturating_sub(2) as usize).min(d.rounds.len().saturating_sub(state.offset()));
    for k in 0..shown {
        let y = left.y + 1 + k as u16;
        model
            .hits
            .add(left.x, y, left.width, 1, Target::Round(state.offset() + k));
    }
    let Some(round) = d.rounds.get(ins.round) else {
        let block = Block::default()
            .borders(Borders::ALL)
            .title(" no rounds yet ");
        f.render_widget(block, right);
        return;
    };
    let narrow = right.width < 72;
    let mut x = right.x + 1;
    for p in Pane::ALL.iter().filter(|p| !narrow || **p == ins.pane) {
        let w = p.label().chars().count() as u16 + 2;
        model.hits.add(x, right.y, w, 1, Target::Pane(*p));
        x += w + 1;
    }
    let tabs: Vec<Span> = Pane::ALL
        .iter()
        .filter(|p| !narrow || **p == ins.pane)
        .flat_map(|p| {
            let style = if *p == ins.pane {
                theme.style(Role::Selection)
            } else {
                theme.style(Role::Muted)
            };
            [
                Span::styled(format!(" {} ", p.label()), style),
                Span::raw(" "),
            ]
        })
        .chain(narrow.then(|| Span::styled("(t: next pane) ", theme.style(Role::Muted))))
        .collect();
    let (lines, gutter) = if ins.diff && ins.pane != Pane::Runs {
        let prev = ins.round.checked_sub(1).and_then(|i| d.rounds.get(i));
        let lines = diff_lines(
            prev.map(|p| pane_text(p, ins.pane)),
            pane_text(round, ins.pane),
            theme,
        );
        (lines, 2)
    } else {
        pane_lines(round, ins.pane, theme)
    };
    let cols = right.width.saturating_sub(2) as usize;
    let rows = right.height.saturating_sub(2) as usize;
    let widest = lines
        .iter()
        .map(|l| l.width().saturating_sub(gutter))
        .max()
        .unwrap_or(0);
    ins.widest.set(Some(widest));
    let how = if ins.wrap {
        Fit::Wrap
    } else {
        Fit::Shift(ins.hscroll)
    };
    let lines = fit(lines, gutter, cols, how, theme.style(Role::Muted));
    let max = lines.len().saturating_sub(rows);
    ins.scroll_max.set(Some(max));
    let mut tabs = tabs;
    tabs.push(Span::styled(
        fit_label(ins, widest, cols - gutter.min(cols)),
        theme.style(Role::Muted),
    ));
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Line::from(tabs));
    let scroll = ins.scroll.min(max) as u16;
    f.render_widget(
        Paragraph::new(lines).block(block).scroll((scroll, 0)),
        right,
    );
}

/// The pane title's note on how long lines are fitted.
fn fit_label(ins: &crate::model::inspector::InspectorState, widest: usize, room: usize) -> String {
    if ins.wrap {
        " wrap ".into()
    } else if ins.hscroll > 0 {
        format!(" ← col {} ", ins.hscroll + 1)
    } else if widest > room {
        " › cut (w wrap) ".into()
    } else {
        String::new()
    }
}

fn pane_text(r: &StoredRound, pane: Pane) -> &str {
    let s = &r.round.scripts;
    match pane {
        Pane::Review => &r.round.review_md,
        Pane::Setup => s.setup.as_deref().unwrap_or(""),
        Pane::Golden => s.golden.as_deref().unwrap_or(""),
        Pane::Reward => s.reward.as_deref().unwrap_or(""),
        Pane::Runs => "",
    }
}

/// The pane as a unified diff against the previous round (`+`/`-` glyphs as well as colour).
fn diff_lines(old: Option<&str>, new: &str, theme: &Theme) -> Vec<Line<'static>> {
    let Some(old) = old else {
        return vec![Line::styled(
            "(first round: nothing to diff against; D toggles)",
            theme.style(Role::Muted),
        )];
    };
    let d = unified(old, new, 3);
    if d.is_empty() {
        return vec![Line::styled(
            "(identical to the previous round)",
            theme.style(Role::Muted),
        )];
    }
    let pairs = pairs(&d);
    let word = |c: Change, i: usize| -> Option<Vec<Piece>> {
        let j = pairs[i]?;
        let (old, new) = if c == Change::Removed {
            (&d[i].1, &d[j].1)
        } else {
            (&d[j].1, &d[i].1)
        };
        let (o, n) = words(old, new);
        Some(if c == Change::Removed { o } else { n })
    };
    d.iter()
        .enumerate()
        .map(|(i, (c, text))| match c {
            Change::Added | Change::Removed => {
                let (mark, role) = if *c == Change::Added {
                    ("+ ", Role::DiffAdd)
                } else {
                    ("- ", Role::DiffDel)
                };
                let style = theme.style(role);
                let mut spans = vec![Span::styled(mark, style)];
                match word(*c, i) {
                    Some(pieces) => spans.extend(pieces.into_iter().map(|(changed, t)| {
                        if changed {
                            Span::styled(t, style.add_modifier(Modifier::REVERSED | Modifier::BOLD))
                        } else {
                            Span::styled(t, style)
                        }
                    })),
                    None => spans.push(Span::styled(text.clone(), style)),
                }
                Line::from(spans)
            }
            Change::Same => Line::raw(format!("  {text}")),
            Change::Hunk => Line::styled(text.clone(), theme.style(Role::Title)),
        })
        .collect()
}

/// The pane's lines and the width of their gutter (kept in place when scrolling sideways).
fn pane_lines<'a>(round: &StoredRound, pane: Pane, theme: &Theme) -> (Vec<Line<'a>>, usize) {
    let scripts = &round.round.scripts;
    match pane {
        Pane::Review => (review_lines(&round.round.review_md, theme), 0),
        Pane::Setup => (
            script_lines(scripts.setup.as_deref(), &[], theme),
            SCRIPT_GUTTER,
        ),
        Pane::Golden => (
            script_lines(scripts.golden.as_deref(), &[], theme),
            SCRIPT_GUTTER,
        ),
        Pane::Reward => (
            script_lines(scripts.reward.as_deref(), &findings(round), theme),
            SCRIPT_GUTTER,
        ),
        Pane::Runs => (
            super::inspector_runs::lines(round, theme),
            super::inspector_runs::GUTTER,
        ),
    }
}

/// `NNNN ▶ ` before each script line.
const SCRIPT_GUTTER: usize = 7;

fn round_item<'a>(r: &StoredRound, new_run: Option<u32>, theme: &Theme) -> ListItem<'a> {
    let pass = match r.round.verdict.as_str() {
        "pass" => Some(true),
        "fail" | "error" => Some(false),
        _ => None,
    };
    let (g, role) = check_glyph(pass);
    let (ri, rg) = rewards(r);
    let checks: String = parse_conditions(&r.round.review_md)
        .iter()
        .map(|c| check_glyph(*c).0)
        .collect();
    let line = Line::from(vec![
        Span::styled(
            format!("{g} r{} ", r.round.round_no.unwrap_or(0)),
            theme.style(role),
        ),
        Span::raw(format!("{checks} ")),
        Span::styled(
            format!("{}/{}", score(rg).trim(), score(ri).trim()),
            theme.style(Role::Muted),
        ),
    ]);
    match new_run {
        Some(run) => {
            let source = r.round.source.as_str();
            let label = format!("── run {run} · {source} ──");
            ListItem::new(vec![
                Line::from(Span::styled(label, theme.style(Role::Muted))),
                line,
            ])
        }
        None => ListItem::new(line),
    }
}

/// (line, text) of each scan finding of a round.
fn findings(r: &StoredRound) -> Vec<(usize, String)> {
    r.round
        .scan_findings
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|f| {
                    let line = f["line"].as_u64()? as usize;
                    let rule = f["rule"].as_str().unwrap_or("finding");
                    Some((
                        line,
                        format!("{rule}: {}", f["reason"].as_str().unwrap_or("")),
                    ))
                })
                .collect()
        })
        .unwrap_or_default()
}

fn script_lines<'a>(text: Option<&str>, notes: &[(usize, String)], theme: &Theme) -> Vec<Line<'a>> {
    let Some(text) = text else {
        return vec![Line::styled(
            "(no script in this round)",
            theme.style(Role::Muted),
        )];
    };
    let coloured = highlight(Lang::Python, text, theme);
    let mut out = Vec::new();
    for (i, line) in coloured.iter().enumerate() {
        let n = i + 1;
        let flagged = notes.iter().any(|(l, _)| *l == n);
        let mark = if flagged {
            Span::styled("▶", theme.style(Role::Alert))
        } else {
            Span::raw(" ")
        };
        let mut spans = vec![
            Span::styled(format!("{n:>4} "), theme.style(Role::Muted)),
            mark,
            Span::raw(" "),
        ];
        spans.extend(line.spans.iter().cloned());
        out.push(Line::from(spans));
        for (_, note) in notes.iter().filter(|(l, _)| *l == n) {
            out.push(Line::styled(
                format!("       ⚠ {note}"),
                theme.style(Role::Alert),
            ));
        }
    }
    out
}

fn review_lines<'a>(md: &str, theme: &Theme) -> Vec<Line<'a>> {
    if md.trim().is_empty() {
        return vec![Line::styled("(no REVIEW.md)", theme.style(Role::Muted))];
    }
    md.lines()
        .map(|l| {
            if l.starts_with('#') {
                return Line::styled(
                    l.trim_start_matches('#').trim().to_string(),
                    theme.style(Role::Title),
                );
            }
            let mut spans = Vec::new();
            for (i, part) in l.split("PASS").enumerate() {
                if i > 0 {
                    spans.push(Span::styled("✔ PASS", theme.style(Role::Keep)));
                }
                for (j, p) in part.split("FAIL").enumerate() {
                    if j > 0 {
                        spans.push(Span::styled("✘ FAIL", theme.style(Role::Reject)));
                    }
                    spans.push(Span::raw(p.to_string()));
                }
            }
            Line::from(spans)
        })
        .collect()
}
