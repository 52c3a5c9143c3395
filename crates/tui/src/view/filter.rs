//! The Filter screen: the selected tuple's effective outcome, the aggregate of the critic votes,
//! every vote (verdict, severity, confidence, issues, reasoning, revised query), the decision
//! history, and the decision keys. Verdicts and severities always carry a glyph as well as a role.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

use crate::action::Action;
use crate::filter_data::{FilterData, VoteRow};
use crate::model::filter_prompt::Prompt;
use crate::model::Model;
use crate::theme::{status_glyph, Role, Theme};
use tuplewright_records::filter::aggregate::{Aggregate, Outcome};

/// Glyph and role of a verdict or decision action.
pub fn verdict_glyph(v: &str) -> (&'static str, Role) {
    match v {
        "keep" => ("✔", Role::Keep),
        "modify_query" => ("✎", Role::Modified),
        "reject" => ("✘", Role::Reject),
        "queue" | "undecided" => ("?", Role::Undecided),
        "failed" => ("!", Role::Alert),
        _ => ("·", Role::Muted),
    }
}

/// Glyph and role of a severity (P0 most severe).
pub fn severity_glyph(s: &str) -> (&'static str, Role) {
    match s {
        "P0" => ("▲▲▲", Role::Reject),
        "P1" => ("▲▲ ", Role::Reject),
        "P2" => ("▲  ", Role::Modified),
        "P3" => ("·  ", Role::Keep),
        _ => ("   ", Role::Muted),
    }
}

fn styled<'a>(text: String, role: Role, theme: &Theme) -> Span<'a> {
    Span::styled(text, theme.style(role))
}

fn verdict_span<'a>(v: &str, theme: &Theme) -> Span<'a> {
    let (g, role) = verdict_glyph(v);
    let mut style = theme.style(role);
    if role != Role::Muted {
        style = style.add_modifier(Modifier::BOLD);
    }
    Span::styled(format!("{g} {v}"), style)
}

fn severity_span<'a>(s: &str, theme: &Theme) -> Span<'a> {
    let (g, role) = severity_glyph(s);
    styled(format!("{s} {g}"), role, theme)
}

fn aggregate_lines<'a>(a: &Aggregate, theme: &Theme) -> Vec<Line<'a>> {
    let (name, detail) = match &a.outcome {
        Outcome::Keep => ("keep", String::new()),
        Outcome::ModifyQuery { revised_query } => ("modify_query", format!(" → {revised_query:?}")),
        Outcome::Reject { why } => ("reject", format!(" ({why})")),
        Outcome::Undecided => (
            "undecided",
            " (too few valid votes: a human decides)".into(),
        ),
    };
    let mut first = vec![
        styled("Aggregate  ".into(), Role::Title, theme),
        verdict_span(name, theme),
        Span::raw(detail),
    ];
    if let Some(s) = a.severity {
        first.push(Span::raw("  severity "));
        first.push(severity_span(s.as_str(), theme));
    }
    let counts = format!(
        "           keep {} · modify {} · reject {} · failed {} · {} admitting of {} voters needed{}",
        a.keep,
        a.modify_query,
        a.reject,
        a.voters - a.valid,
        a.quorum,
        a.voters,
        if a.train_poor_fit { " · pool fit poor" } else { "" }
    );
    vec![Line::from(first), styled(counts, Role::Muted, theme).into()]
}

fn vote_lines<'a>(v: &VoteRow, theme: &Theme) -> Vec<Line<'a>> {
    let mut head = vec![Span::raw("  "), verdict_span(&v.verdict, theme)];
    head.push(Span::raw("  "));
    head.push(severity_span(v.severity.as_deref().unwrap_or("--"), theme));
    head.push(Span::raw(format!(
        "  conf {}  {}",
        v.confidence.map_or("  – ".into(), |c| format!("{c:.2}")),
        v.critic
    )));
    if let Some(m) = v.model.as_ref().filter(|m| **m != v.critic) {
        head.push(Span::raw(format!(" ({m})")));
    }
    if v.heuristic {
        head.push(styled(" [heuristic]".into(), Role::Muted, theme));
    }
    let mut out = vec![Line::from(head)];
    for i in &v.issues {
        out.push(styled(format!("      • {i}"), Role::Muted, theme).into());
    }
    if !v.reasoning.is_empty() {
        out.push(Line::raw(format!("      {}", v.reasoning)));
    }
    if !v.revised_query.is_empty() {
        out.push(Line::from(vec![
            styled("      revised: ".into(), Role::Modified, theme),
            Span::raw(v.revised_query.clone()),
        ]));
    }
    out
}

fn body_lines<'a>(d: &FilterData, theme: &Theme) -> Vec<Line<'a>> {
    let (g, role) = status_glyph(&d.status);
    let mut out = vec![Line::from(vec![
        styled(format!("{g} {}", d.status), role, theme),
        Span::raw("  "),
        styled("Decision in force: ".into(), Role::Title, theme),
    ])];
    if let Some(o) = &d.outcome {
        if let Some(first) = out.first_mut() {
            first.push_span(verdict_span(&o.action, theme));
            first.push_span(Span::raw(format!(" by {} ({})", o.actor, o.source)));
        }
        if let Some(q) = &o.revised_query {
            out.push(Line::from(vec![
                styled("Released:  ".into(), Role::Modified, theme),
                Span::raw(q.clone()),
            ]));
        }
    } else if let Some(first) = out.first_mut() {
        first.push_span(styled("none yet".into(), Role::Muted, theme));
    }
    out.push(Line::from(vec![
        styled("Instruction ".into(), Role::Title, theme),
        Span::raw(d.instruction.clone()),
    ]));
    out.push(Line::raw(""));
    match &d.aggregate {
        Some(a) => out.extend(aggregate_lines(a, theme)),
        None => out.push(
            styled(
                "No critic votes yet (tuplewright filter)".into(),
                Role::Muted,
                theme,
            )
            .into(),
        ),
    }
    if !d.votes.is_empty() {
        out.push(styled(format!("Votes ({})", d.votes.len()), Role::Title, theme).into());
    }
    for v in &d.votes {
        out.extend(vote_lines(v, theme));
    }
    out.push(Line::raw(""));
    out.push(
        styled(
            format!("Decision history ({})", d.history.len()),
            Role::Title,
            theme,
        )
        .into(),
    );
    for h in &d.history {
        let undo = h.compensates.is_some();
        let (g, role) = if undo {
            ("↶", Role::Modified)
        } else {
            status_glyph(&h.after)
        };
        let time = h
            .created_at
            .get(11..19)
            .unwrap_or(&h.created_at)
            .to_string();
        out.push(Line::from(vec![
            styled(format!("  {g} #{:<3} ", h.id), role, theme),
            styled(format!("{time} "), Role::Muted, theme),
            Span::raw(format!(
                "{} ({}) {} → {}  ",
                h.actor, h.source, h.before, h.after
            )),
            styled(h.reason.clone(), Role::Muted, theme),
        ]));
    }
    out
}

fn keys_line<'a>(model: &Model, theme: &Theme) -> Line<'a> {
    let key = |a: Action| model.keymap.keys_of(a).first().cloned().unwrap_or_default();
    let mut spans = vec![
        styled(format!(" {} ", key(Action::DecideKeep)), Role::Keep, theme),
        Span::raw("keep "),
        styled(
            format!(" {} ", key(Action::DecideModify)),
            Role::Modified,
            theme,
        ),
        Span::raw("modify_query "),
        styled(
            format!(" {} ", key(Action::DecideReject)),
            Role::Reject,
            theme,
        ),
        Span::raw("reject "),
        styled(
            format!(" {} ", key(Action::UndoDecision)),
            Role::Title,
            theme,
        ),
        Span::raw("undo "),
        styled(
            format!(
                " {}/{} next/prev",
                key(Action::NextItem),
                key(Action::PrevItem)
            ),
            Role::Muted,
            theme,
        ),
    ];
    if model.readonly {
        spans = vec![styled(
            " read-only: browsing only".into(),
            Role::Alert,
            theme,
        )];
    } else if model.filter.busy {
        spans.push(styled("  recording…".into(), Role::Modified, theme));
    }
    Line::from(spans)
}

/// Draws the Filter screen.
pub fn draw(f: &mut Frame<'_>, area: Rect, model: &Model, theme: &Theme) {
    let fs = &model.filter;
    let Some(id) = fs.task_id.as_deref() else {
        super::hint(
            f,
            area,
            "Filter",
            "no tuple selected — pick one on the Tuples screen (2)",
            theme,
        );
        return;
    };
    let reason_open = matches!(fs.prompt, Prompt::Reason { .. });
    let [main, keys] = Layout::vertical([
        Constraint::Min(1),
        Constraint::Length(if reason_open { 3 } else { 1 }),
    ])
    .areas(area);
    let main = match &fs.guidelines {
        Some((file, text)) if area.width >= 100 => {
            let [left, right] =
                Layout::horizontal([Constraint::Min(50), Constraint::Percentage(38)]).areas(main);
            let title = format!("Guidelines · {file}");
            let g = Paragraph::new(text.as_str())
                .wrap(Wrap { trim: false })
                .block(super::titled(&title, theme));
            f.render_widget(g, right);
            left
        }
        _ => main,
    };
    let title = format!("Filter · {id}");
    let block = super::titled(&title, theme);
    match fs.current() {
        Some(d) => {
            let p = Paragraph::new(body_lines(d, theme))
                .wrap(Wrap { trim: false })
                .scroll((fs.scroll.min(u16::MAX as usize) as u16, 0))
                .block(block);
            f.render_widget(p, main);
        }
        None => super::hint(f, main, &title, "loading…", theme),
    }
    if reason_open {
        super::filter_prompt::draw_reason(f, keys, &fs.prompt, theme);
    } else {
        f.render_widget(Paragraph::new(keys_line(model, theme)), keys);
    }
    if matches!(fs.prompt, Prompt::Editor { .. }) {
        super::filter_prompt::draw_editor(f, area, &fs.prompt, theme);
    }
}
