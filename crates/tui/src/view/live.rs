//! The Live screen: the per-task round timeline (round, phase, C1–C5, rewards, status, elapsed) and
//! the event-log tail with follow mode.

use chrono::DateTime;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Cell, Paragraph, Row, Table};
use ratatui::Frame;

use super::{clip, score};
use crate::model::live::TaskLive;
use crate::model::live_job::{fmt_duration, JobState};
use crate::model::Model;
use crate::theme::{check_glyph, status_glyph, Role, Theme};

fn secs_between(a: &str, b: &str) -> Option<f64> {
    let (a, b) = (
        DateTime::parse_from_rfc3339(a).ok()?,
        DateTime::parse_from_rfc3339(b).ok()?,
    );
    Some((b - a).num_milliseconds() as f64 / 1000.0)
}

/// `HH:MM:SS` of an RFC 3339 time.
fn clock(t: &str) -> &str {
    t.get(11..19).unwrap_or(t)
}

/// Draws the Live screen.
pub fn draw(f: &mut Frame<'_>, area: Rect, model: &Model, theme: &Theme) {
    let live = &model.live;
    let [job, summary, timeline, log] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Percentage(55),
        Constraint::Min(3),
    ])
    .areas(area);
    let span_s = match (live.log.front(), live.log.back()) {
        (Some(a), Some(b)) => secs_between(&a.time, &b.time).unwrap_or(0.0),
        _ => 0.0,
    };
    let rate = if span_s > 0.0 {
        live.finished() as f64 * 60.0 / span_s
    } else {
        0.0
    };
    // The counts are the store's; only the rate is measured over the event window.
    let counts = match &live.counts {
        Some(c) => format!(
            " tasks {} · in loop {} · out of loop {} · rounds {} ·{}",
            c.tasks,
            c.status("in_loop"),
            c.out_of_loop(),
            c.rounds,
            // Leases matter when another process works on the store.
            if c.leased > 0 {
                format!(" leased {} ·", c.leased)
            } else {
                String::new()
            }
        ),
        None => format!(
            " tasks {} · out of loop {} · rounds {} ·",
            live.tasks.len(),
            live.finished(),
            live.rounds_recorded
        ),
    };
    // One throughput figure on the screen (#33): the job header's when a job is recorded (tasks
    // of that job per minute), else the event window's.
    let rate = match &live.job {
        Some(_) => String::new(),
        None => format!(" {rate:>6.1} tasks/min"),
    };
    let mut head = vec![Span::styled(
        format!("{counts}{rate} "),
        theme.style(Role::Title),
    )];
    head.push(if live.follow {
        Span::styled("● following", theme.style(Role::Keep))
    } else {
        Span::styled(
            format!("‖ paused, {} new (G resumes)", live.new_while_paused),
            theme.style(Role::Undecided),
        )
    });
    f.render_widget(Paragraph::new(Line::from(head)), summary);
    f.render_widget(Paragraph::new(job_line(model, theme)), job);
    draw_timeline(f, timeline, model, theme);
    draw_log(f, log, model, theme);
}

/// The job header: state, done/total, parallelism, throughput, ETA (all from `job.*` events).
fn job_line<'a>(model: &'a Model, theme: &Theme) -> Line<'a> {
    let live = &model.live;
    let Some(j) = &live.job else {
        return Line::styled(
            " no job recorded in the store · ctrl-s runs the loop on the pending tuples of the Tuples view",
            theme.style(Role::Muted),
        );
    };
    let role = match j.state {
        JobState::Running => Role::Keep,
        JobState::Paused => Role::Undecided,
        JobState::Cancelling => Role::Alert,
        JobState::Finished if j.cancelled => Role::Alert,
        JobState::Finished => Role::Muted,
    };
    let state = match j.state {
        JobState::Finished if j.cancelled => "■ cancelled",
        s => s.label(),
    };
    let rate = j
        .per_minute()
        .map_or("     - tasks/min".into(), |r| format!("{r:>6.1} tasks/min"));
    let eta = match (j.state, j.eta_secs()) {
        (JobState::Finished, _) => format!("took {:.1}s", j.elapsed()),
        (_, Some(e)) => format!("ETA {}", fmt_duration(e)),
        (_, None) => "ETA -".into(),
    };
    let mine = live.own_job.as_deref() == Some(j.id.as_str());
    // A finished job shows its outcome counts (they add up to the total); a running one done/total
    // with the tasks a cancel abandoned apart.
    let progress = if let [(k, n)] = j.outcomes.as_slice() {
        format!("{n}/{} {k}", j.total)
    } else if j.state == JobState::Finished && !j.outcomes.is_empty() {
        let parts: Vec<String> = j.outcomes.iter().map(|(k, n)| format!("{n} {k}")).collect();
        format!("{} of {}", parts.join(" + "), j.total)
    } else if j.cancelled_tasks > 0 {
        format!(
            "{}/{} done, {} cancelled",
            j.done, j.total, j.cancelled_tasks
        )
    } else {
        format!("{}/{} done", j.done, j.total)
    };
    Line::from(vec![
        Span::styled(format!(" job {} ", j.id), theme.style(Role::Title)),
        Span::styled(state, theme.style(role)),
        Span::raw(format!(
            " · {progress} · ×{} ·{rate} · {eta}{}",
            j.jobs,
            if mine { " · this workbench (p X)" } else { "" }
        )),
    ])
}

fn draw_timeline(f: &mut Frame<'_>, area: Rect, model: &Model, theme: &Theme) {
    let block = Block::default()
        .borders(Borders::ALL)
        .title(" rounds by task (latest activity first · n/N select, enter inspects) ");
    let inner = block.inner(area);
    f.render_widget(block, area);
    let live = &model.live;
    if live.tasks.is_empty() {
        f.render_widget(
            Line::styled(
                "no run activity in the event log yet",
                theme.style(Role::Muted),
            ),
            inner,
        );
        return;
    }
    let visible = inner.height.saturating_sub(1) as usize;
    let order: Vec<&TaskLive> = live.ordered();
    // Keep the selected row on screen.
    let at = live
        .selected
        .as_ref()
        .and_then(|id| order.iter().position(|t| &t.task_id == id));
    let skip = at.map_or(0, |i| (i + 1).saturating_sub(visible));
    let task_w: u16 = if inner.width >= 120 { 34 } else { 20 };
    let selection = theme.style(Role::Selection);
    let rows = order.into_iter().skip(skip).take(visible).map(|t| {
        let chosen = live.selected.as_deref() == Some(t.task_id.as_str());
        let (g, role) = status_glyph(&t.status);
        let mut cells = vec![
            Cell::from(super::clip_middle(&t.task_id, task_w as usize)),
            Cell::from(format!("{:>2}", t.round)),
            Cell::from(t.phase.clone()),
        ];
        let checks: Vec<Span> = t
            .checks
            .iter()
            .map(|c| {
                let (cg, cr) = check_glyph(*c);
                Span::styled(cg, theme.style(cr))
            })
            .collect();
        cells.push(Cell::from(Line::from(checks)));
        // One score order on every screen (#33): r(gold), then r(init).
        cells.push(Cell::from(score(t.r_gold)));
        cells.push(Cell::from(score(t.r_init)));
        cells.push(Cell::from(Span::styled(
            format!("{g} {}", clip(&t.status, 13)),
            theme.style(role),
        )));
        cells.push(Cell::from(format!(
            "{:>6.1}s",
            secs_between(&t.started, &t.last).unwrap_or(0.0)
        )));
        if chosen {
            Row::new(cells).style(selection)
        } else {
            Row::new(cells)
        }
    });
    let widths = [
        Constraint::Length(task_w),
        Constraint::Length(2),
        Constraint::Fill(1),
        Constraint::Length(5),
        Constraint::Length(4),
        Constraint::Length(4),
        Constraint::Length(15),
        Constraint::Length(7),
    ];
    let header = Row::new([
        "task", "rd", "phase", "C1-5", "r(g)", "r(i)", "status", "elapsed",
    ])
    .style(theme.style(Role::Title));
    f.render_widget(Table::new(rows, widths).header(header), inner);
}

fn draw_log(f: &mut Frame<'_>, area: Rect, model: &Model, theme: &Theme) {
    let live = &model.live;
    let block = Block::default()
        .borders(Borders::ALL)
        .title(format!(" event log (seq ≤ {}) ", live.last_seq));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let h = inner.height as usize;
    let end = live.log.len().saturating_sub(live.scroll_back);
    let start = end.saturating_sub(h);
    let lines: Vec<Line> = live
        .log
        .range(start..end)
        .map(|l| {
            Line::from(vec![
                Span::styled(
                    format!("{} #{:<6} ", clock(&l.time), l.seq),
                    theme.style(Role::Muted),
                ),
                Span::styled(format!("{:<15} ", l.kind), theme.style(Role::Title)),
                Span::raw(format!("{} {}", l.task, l.detail)),
            ])
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}
