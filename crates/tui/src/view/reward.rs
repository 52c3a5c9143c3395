//! The Reward screen: per-component breakdowns of r(init), r(gold) (both runs when they differ) and
//! each rollout trial of the selected tuple, as cards side by side (as many columns as fit; the
//! focused card stays in view) or stacked on narrow terminals; `o` shows the focused card's raw
//! reward output.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui::Frame;

use super::reward_card::{lines, title};
use super::{clip, score, titled};
use crate::model::reward::RewardState;
use crate::model::Model;
use crate::reward_data::RewardCard;
use crate::theme::{Role, Theme};

/// Narrowest card drawn side by side; below two of these the cards stack.
const MIN_CARD: u16 = 48;

/// Draws the Reward screen.
pub fn draw(f: &mut Frame<'_>, area: Rect, model: &Model, theme: &Theme) {
    let st = &model.reward;
    let Some(data) = st
        .data
        .as_ref()
        .filter(|d| Some(&d.task_id) == st.task_id.as_ref())
    else {
        let text = match (st.task_id.as_deref(), model.tuples.selected_id()) {
            (Some(id), _) | (None, Some(id)) => format!("{id}: loading…"),
            _ => "no tuple selected — pick one on the Tuples screen (2)".to_string(),
        };
        return super::hint(f, area, "Reward", &text, theme);
    };
    let [head, body, keys] = Layout::vertical([
        Constraint::Length(2),
        Constraint::Min(3),
        Constraint::Length(1),
    ])
    .areas(area);
    let round = data.rounds.get(st.round);
    let pick = |name: &str, best: fn(f64, f64) -> f64| {
        round.and_then(|r| {
            r.cards
                .iter()
                .filter(|c| c.label.starts_with(name))
                .filter_map(|c| c.reward)
                .reduce(best)
        })
    };
    let round_text = match round {
        Some(r) => format!("round {}/{} {}", r.round_no, data.rounds.len(), r.verdict),
        None => "no rounds".to_string(),
    };
    let summary = Line::from(vec![
        Span::styled(format!(" {} ", data.task_id), theme.style(Role::Title)),
        Span::raw(format!(
            "· {round_text} · r(gold) {} · r(init) {} · {} trials",
            score(pick("r(gold)", f64::min)),
            score(pick("r(init)", f64::max)),
            data.trials.len()
        )),
    ]);
    let w = head.width.saturating_sub(2) as usize;
    let instr = match &data.revised {
        // After modify_query the released instruction is the one rewarded and trained on.
        Some(q) => Line::from(vec![
            Span::styled(" ✎ modified: ", theme.style(Role::Modified)),
            Span::raw(clip(q, w.saturating_sub(13))),
        ]),
        None => Line::from(Span::styled(
            format!(" {}", clip(&data.instruction, w)),
            theme.style(Role::Muted),
        )),
    };
    f.render_widget(Paragraph::new(vec![summary, instr]), head);
    let cards = st.cards();
    if st.raw {
        draw_raw(f, body, st, theme);
    } else if cards.is_empty() {
        super::hint(
            f,
            body,
            "Reward",
            "no reward runs recorded for this round",
            theme,
        );
    } else if body.width / MIN_CARD < 2 {
        draw_stacked(f, body, st, &cards, theme);
    } else {
        draw_columns(f, body, st, &cards, theme);
    }
    let hint = " ]/[ round · </> card · o raw output · n/N tuple · j/k scroll";
    f.render_widget(Paragraph::new(hint).style(theme.style(Role::Muted)), keys);
}

fn card_block<'a>(card: &RewardCard, focused: bool, theme: &Theme) -> Block<'a> {
    let role = match (card.failure.is_some(), card.nondeterministic) {
        (true, _) => Role::Alert,
        (false, true) => Role::Modified,
        _ => Role::Title,
    };
    let mut style = theme.style(role);
    if focused {
        style = style.add_modifier(Modifier::REVERSED);
    }
    Block::default()
        .borders(Borders::ALL)
        .border_style(if focused {
            theme.style(Role::Selection)
        } else {
            theme.style(Role::Muted)
        })
        .title(Span::styled(format!(" {} ", title(card, focused)), style))
}

/// Rows of `cols` cards from the focused card's row, as many rows as fit (earlier rows fill any
/// space left), each row as tall as its tallest card.
fn draw_columns(
    f: &mut Frame<'_>,
    area: Rect,
    st: &RewardState,
    cards: &[&RewardCard],
    theme: &Theme,
) {
    let cols = (area.width / MIN_CARD).max(1) as usize;
    let col_w = area.width / cols as u16;
    let inner_w = col_w.saturating_sub(2) as usize;
    let bodies: Vec<_> = cards.iter().map(|c| lines(c, inner_w, theme)).collect();
    let n_rows = cards.len().div_ceil(cols);
    let row_h = |r: usize| -> u16 {
        let tallest = bodies[r * cols..cards.len().min(r * cols + cols)]
            .iter()
            .map(Vec::len)
            .max()
            .unwrap_or(0);
        (tallest as u16 + 2).min(area.height)
    };
    let focus_row = st.focus / cols;
    let (mut first, mut last, mut used) = (focus_row, focus_row, row_h(focus_row));
    while last + 1 < n_rows && used + row_h(last + 1) <= area.height {
        last += 1;
        used += row_h(last);
    }
    while first > 0 && used + row_h(first - 1) <= area.height {
        first -= 1;
        used += row_h(first);
    }
    let mut y = area.y;
    for r in first..=last {
        let h = if r == last {
            area.bottom() - y
        } else {
            row_h(r)
        };
        for c in 0..cols {
            let i = r * cols + c;
            let Some(card) = cards.get(i) else { break };
            let a = Rect::new(area.x + c as u16 * col_w, y, col_w, h);
            let block = card_block(card, i == st.focus, theme);
            f.render_widget(
                Paragraph::new(bodies[i].clone())
                    .block(block)
                    .scroll((st.scroll.min(u16::MAX as usize) as u16, 0)),
                a,
            );
        }
        y += h;
    }
    let shown = (first * cols + 1, cards.len().min((last + 1) * cols));
    if shown != (1, cards.len()) {
        let more = format!(" cards {}–{} of {} ", shown.0, shown.1, cards.len());
        let w = more.chars().count() as u16;
        let r = Rect::new(
            area.right().saturating_sub(w + 1),
            area.bottom().saturating_sub(1),
            w,
            1,
        );
        f.render_widget(Paragraph::new(more).style(theme.style(Role::Muted)), r);
    }
}

fn draw_stacked(
    f: &mut Frame<'_>,
    area: Rect,
    st: &RewardState,
    cards: &[&RewardCard],
    theme: &Theme,
) {
    let block = titled("Reward breakdown", theme);
    let inner = block.inner(area);
    let mut all = Vec::new();
    let mut focus_start = 0;
    for (i, card) in cards.iter().enumerate() {
        let focused = i == st.focus;
        if focused {
            focus_start = all.len();
        }
        let mut style = theme.style(if card.failure.is_some() {
            Role::Alert
        } else {
            Role::Title
        });
        if focused {
            style = style.add_modifier(Modifier::REVERSED);
        }
        all.push(Line::from(Span::styled(title(card, focused), style)));
        all.extend(lines(card, inner.width as usize, theme));
    }
    let top = (focus_start + st.scroll).min(all.len().saturating_sub(1));
    f.render_widget(
        Paragraph::new(all)
            .block(block)
            .scroll((top.min(u16::MAX as usize) as u16, 0)),
        area,
    );
}

fn draw_raw(f: &mut Frame<'_>, area: Rect, st: &RewardState, theme: &Theme) {
    let Some(card) = st.focused() else {
        return super::hint(f, area, "Raw output", "no card", theme);
    };
    let muted = theme.style(Role::Muted);
    let mut out = Vec::new();
    if !card.raw_stored {
        let why = if card.failure.is_some() {
            "reward.py did not run: the trial failed before scoring (see the failure)"
        } else {
            "the raw reward output of this trial was not stored (only its components)"
        };
        out.push(Line::from(Span::styled(why, theme.style(Role::Alert))));
    } else {
        let exit = card
            .exit_code
            .map_or_else(|| "none (never exited)".to_string(), |c| c.to_string());
        out.push(Line::from(Span::styled(format!("exit code {exit}"), muted)));
        if let Some(fl) = &card.failure {
            out.push(Line::from(Span::styled(
                format!("✗ {fl}"),
                theme.style(Role::Alert),
            )));
        }
        out.push(Line::from(Span::styled(
            "── stdout ──",
            theme.style(Role::Title),
        )));
        out.extend(card.stdout.lines().map(|l| Line::from(l.to_string())));
        out.push(Line::from(Span::styled(
            "── stderr ──",
            theme.style(Role::Title),
        )));
        if card.stderr.is_empty() {
            out.push(Line::from(Span::styled("(empty)", muted)));
        }
        out.extend(card.stderr.lines().map(|l| Line::from(l.to_string())));
    }
    let title = format!("raw output · {} (o closes)", card.label);
    f.render_widget(
        Paragraph::new(out)
            .block(titled(&title, theme))
            .wrap(Wrap { trim: false })
            .scroll((st.raw_scroll.min(u16::MAX as usize) as u16, 0)),
        area,
    );
}
