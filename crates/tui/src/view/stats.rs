//! The Stats screen: one scrollable page of sections (layout in [`crate::model::stats`]):
//! the A.2.5 coverage targets as a table with met / not-met glyphs, domain × difficulty and yield
//! per stage as bars, instruction length and rounds to convergence as histograms, and the
//! Appendix F tables (scenarios, first verbs, app pairs, costs) as tables.
//!
//! The whole page is drawn into an off-screen buffer and the visible window copied into the
//! frame, so every widget keeps its natural layout whatever the scroll offset.

mod bars;
mod histogram;
mod tables;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget};
use ratatui::Frame;

use crate::model::stats::{layout, page_height, Section, HISTOGRAM_ROWS};
use crate::model::Model;
use crate::theme::{Role, Theme};
use bars::{BarRow, HBars, Segment};
use tuplewright_engine::stats::Stats;

/// Draws the statistics.
pub fn draw(f: &mut Frame<'_>, area: Rect, model: &Model, theme: &Theme) {
    let Some(stats) = &model.stats else {
        let block = Block::default()
            .borders(Borders::ALL)
            .title(Span::styled(" Stats ", theme.style(Role::Title)));
        f.render_widget(
            Paragraph::new("computing statistics…")
                .style(theme.style(Role::Muted))
                .block(block),
            area,
        );
        return;
    };
    let inner = Block::default().borders(Borders::ALL).inner(area);
    let total = page_height(stats, inner.width);
    let max = total.saturating_sub(inner.height);
    let scroll = (model.stats_scroll.min(usize::from(max))) as u16;
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(" Stats ", theme.style(Role::Title)))
        .title_bottom(Span::styled(
            format!(
                " rows {}–{} of {total} · j/k scroll ",
                scroll + 1,
                (scroll + inner.height).min(total)
            ),
            theme.style(Role::Muted),
        ));
    f.render_widget(block, area);
    if inner.width == 0 || inner.height == 0 {
        return;
    }
    let mut page = Buffer::empty(Rect::new(0, 0, inner.width, total));
    for p in layout(stats, inner.width) {
        // Sections wholly outside the window are not drawn.
        if p.y + p.height <= scroll || p.y >= scroll + inner.height {
            continue;
        }
        let r = Rect::new(p.x, p.y, p.width, p.height);
        draw_section(&mut page, r, p.section, stats, theme);
    }
    let buf = f.buffer_mut();
    for dy in 0..inner.height.min(total.saturating_sub(scroll)) {
        for dx in 0..inner.width {
            buf[(inner.x + dx, inner.y + dy)] = page[(dx, scroll + dy)].clone();
        }
    }
}

fn title(buf: &mut Buffer, r: Rect, text: String, theme: &Theme) {
    Line::styled(text, theme.style(Role::Title)).render(Rect::new(r.x, r.y, r.width, 1), buf);
}

/// The section body below its title, without the trailing blank line.
fn body(r: Rect) -> Rect {
    Rect::new(r.x, r.y + 1, r.width, r.height.saturating_sub(2))
}

fn draw_section(buf: &mut Buffer, r: Rect, s: Section, st: &Stats, theme: &Theme) {
    match s {
        Section::Targets => {
            let met = st.coverage_targets.iter().filter(|t| t.met).count();
            let t = format!(
                "Coverage targets (A.2.5): {met} of {} met",
                st.coverage_targets.len()
            );
            title(buf, r, t, theme);
            tables::targets(buf, body(r), &st.coverage_targets, theme);
        }
        Section::Overview => {
            let pop = match st.population {
                tuplewright_engine::stats::Population::Final => "final",
                _ => "all",
            };
            let line = format!(
                "Population: {} {pop} tasks · {} synthetic · cross-app {} ({:.1}%)",
                st.population_size,
                st.synthetic_tasks,
                st.cross_app_tasks.count,
                st.cross_app_tasks.percent
            );
            Line::raw(line).render(Rect::new(r.x, r.y, r.width, 1), buf);
        }
        Section::Scenarios => {
            title(buf, r, "Tasks per scenario (Table 9)".into(), theme);
            tables::shares(
                buf,
                body(r),
                ("Scenario", st.population_size),
                &st.scenarios,
                theme,
            );
        }
        Section::Verbs => {
            title(
                buf,
                r,
                "Top first imperative verbs (Table 11)".into(),
                theme,
            );
            tables::shares(
                buf,
                body(r),
                ("Verb", st.population_size),
                &st.top_verbs,
                theme,
            );
        }
        Section::Pairs => {
            let t = "Cross-app pairs (Table 12; % of cross-app tasks)".into();
            title(buf, r, t, theme);
            tables::shares(
                buf,
                body(r),
                ("Pair", st.cross_app_tasks.count),
                &st.app_pairs,
                theme,
            );
        }
        Section::Costs => {
            let per = st
                .costs
                .cost_per_final_tuple_usd
                .map_or(String::new(), |p| format!(" · ${p:.3} per final tuple"));
            title(buf, r, format!("Tokens and cost (F.2.1){per}"), theme);
            tables::costs(buf, body(r), &st.costs, theme);
        }
        Section::DomainDifficulty => domain_bars(buf, r, st, theme),
        Section::Yield => yield_bars(buf, r, st, theme),
        Section::Lengths => {
            title(
                buf,
                r,
                "Instruction length in words (Table 13)".into(),
                theme,
            );
            let chart = Rect::new(r.x, r.y + 1, r.width, HISTOGRAM_ROWS);
            let muted = theme.style(Role::Muted);
            histogram::draw(
                buf,
                chart,
                &st.instruction_lengths.buckets,
                theme.style(Role::Title),
                ("(no tasks)", muted),
            );
            let l = &st.instruction_lengths;
            let line = format!(
                "mean {:.1} · p10 {} · p50 {} · p90 {} · p99 {} · max {}",
                l.mean, l.p10, l.p50, l.p90, l.p99, l.max
            );
            Line::styled(line, muted).render(Rect::new(r.x, chart.bottom(), r.width, 1), buf);
        }
        Section::Rounds => {
            title(
                buf,
                r,
                "Rounds to convergence (tuples past the loop)".into(),
                theme,
            );
            let chart = Rect::new(r.x, r.y + 1, r.width, HISTOGRAM_ROWS);
            histogram::draw(
                buf,
                chart,
                &st.rounds_to_convergence,
                theme.style(Role::Keep),
                ("(no tuple past the loop yet)", theme.style(Role::Muted)),
            );
        }
    }
}

fn domain_bars(buf: &mut Buffer, r: Rect, st: &Stats, theme: &Theme) {
    title(buf, r, "Domain × difficulty (Table 10)".into(), theme);
    let seg = |value, glyph, role| Segment {
        value,
        glyph,
        style: theme.style(role),
    };
    let legend = Line::from(vec![
        Span::styled("░ easy  ", theme.style(Role::Keep)),
        Span::styled("▒ medium  ", theme.style(Role::Modified)),
        Span::styled("█ hard  ", theme.style(Role::Reject)),
        Span::styled("· unlabelled", theme.style(Role::Muted)),
    ]);
    legend.render(Rect::new(r.x, r.y + 1, r.width, 1), buf);
    let mut rows: Vec<BarRow> = st
        .domain_difficulty
        .iter()
        .map(|d| BarRow {
            label: d.domain.clone(),
            segments: vec![
                seg(d.easy, "░", Role::Keep),
                seg(d.medium, "▒", Role::Modified),
                seg(d.hard, "█", Role::Reject),
                seg(d.unlabelled, "·", Role::Muted),
            ],
            figure: format!(
                "{:>4}/{:>4}/{:>4} ={:>6}",
                d.easy, d.medium, d.hard, d.total
            ),
        })
        .collect();
    let t = &st.difficulty_totals;
    let p = tuplewright_engine::stats::shown_percents(
        &[t.easy, t.medium, t.hard, t.unlabelled],
        t.total,
    );
    let total = format!(
        "Total {}: easy {:.1}% · medium {:.1}% · hard {:.1}% · unlabelled {}",
        t.total, p[0], p[1], p[2], t.unlabelled
    );
    if rows.is_empty() {
        rows.push(BarRow {
            label: "(none)".into(),
            segments: Vec::new(),
            figure: String::new(),
        });
    }
    let n = rows.len() as u16;
    HBars {
        rows,
        label_width: 15,
        figure_width: 22,
        text_style: Style::default(),
    }
    .render(Rect::new(r.x, r.y + 2, r.width, n), buf);
    Line::styled(total, theme.style(Role::Muted))
        .render(Rect::new(r.x, r.y + 2 + n, r.width, 1), buf);
}

fn yield_bars(buf: &mut Buffer, r: Rect, st: &Stats, theme: &Theme) {
    let y = &st.yield_per_stage;
    title(buf, r, "Yield per stage (A.4.3, all tuples)".into(), theme);
    let rows: Vec<BarRow> = [
        ("tasks", y.tasks, Role::Title),
        ("not yet looped", y.not_yet_looped, Role::Muted),
        ("loop failed", y.loop_failed, Role::Reject),
        ("loop-accepted", y.loop_accepted, Role::Keep),
        ("vote-rejected", y.vote_rejected, Role::Reject),
        ("needs a human", y.needs_human, Role::Undecided),
        ("voted", y.voted, Role::Modified),
        ("rollout-rejected", y.rollout_rejected, Role::Reject),
        ("final", y.final_tuples, Role::Keep),
        ("dropped", y.dropped, Role::Muted),
        // Unverified tuples are shown apart, only when there are any.
        (
            "imported, unverified",
            y.imported_unverified,
            Role::Undecided,
        ),
        ("verify failed", y.verify_failed, Role::Reject),
    ]
    .into_iter()
    .filter(|(label, value, _)| *value > 0 || !label.contains("verif"))
    .map(|(label, value, role)| BarRow {
        label: label.into(),
        segments: vec![Segment {
            value,
            glyph: "█",
            style: theme.style(role),
        }],
        figure: format!("{value:>8}"),
    })
    .collect();
    let n = rows.len() as u16;
    HBars {
        rows,
        label_width: 16,
        figure_width: 8,
        text_style: Style::default(),
    }
    .render(Rect::new(r.x, r.y + 1, r.width, n), buf);
    let foot = format!(
        "final = {:.1}% of loop-accepted · human overrides {} ({} undo(s))",
        y.final_percent_of_loop_accepted, y.human_decisions, y.human_undos
    );
    Line::styled(foot, theme.style(Role::Muted))
        .render(Rect::new(r.x, r.y + 1 + n, r.width, 1), buf);
}
