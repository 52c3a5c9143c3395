//! The filmstrip of a finished screen trial in the Rollouts detail pane: the step shown (`(` / `)`,
//! `0` / `$`) with its frame — the screenshot after it, or the latest earlier one — with the
//! action drawn on it, the action's text, time and duration, its error, and the model's reply of
//! the turn that made it. Also the frame layout the live trial and single screenshots share.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::Frame;

use crate::filmstrip_data::{action_text, frame_of, turn_of, Frame as StepFrame};
use crate::model::rollouts::RolloutsState;
use crate::rollouts_data::{Screenshot, TrialDetail};
use crate::theme::{Role, Theme};

/// Splits a pane into a caption line, a picture and the rest (for text).
pub fn split(inner: Rect) -> (Rect, Rect, Rect) {
    let h = (inner.height / 2).clamp(3, 16);
    let [cap, pic, rest] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(h),
        Constraint::Min(0),
    ])
    .areas(inner);
    (cap, pic, rest)
}

/// Draws a loaded frame into `pic`, or says why there is none.
pub fn draw_frame(
    f: &mut Frame<'_>,
    pic: Rect,
    st: &RolloutsState,
    frame: Option<&StepFrame>,
    theme: &Theme,
) {
    match frame.map(|fr| (fr.key, &fr.shot)) {
        Some((key, Screenshot::Image(_, img))) => {
            super::screenshot::draw(f, pic, st, key, img, theme)
        }
        Some((_, Screenshot::Error(path, e))) => f.render_widget(
            Line::styled(
                format!("✗ screenshot {}: {e}", path.display()),
                theme.style(Role::Alert),
            ),
            pic,
        ),
        None if st.frame_request().is_some() => f.render_widget(
            Line::styled("loading the screenshot…", theme.style(Role::Muted)),
            pic,
        ),
        None => f.render_widget(
            Line::styled("no screenshot yet", theme.style(Role::Muted)),
            pic,
        ),
    }
}

/// The step's frame over the whole of `area` (`F`): one caption line, then the picture at the
/// terminal's resolution (its graphics protocol, else half-blocks sized to the area), zoomed by
/// `+` / `-`.
pub fn draw_full(f: &mut Frame<'_>, area: Rect, st: &RolloutsState, theme: &Theme) {
    let [cap, pic] = Layout::vertical([Constraint::Length(1), Constraint::Min(1)]).areas(area);
    let Some(d) = st.detail.as_ref().filter(|d| !d.steps.is_empty()) else {
        let msg = "no filmstrip for this trial (F goes back)";
        f.render_widget(Line::styled(msg, theme.style(Role::Muted)), cap);
        return;
    };
    let i = st.step.min(d.steps.len() - 1);
    let step = &d.steps[i];
    let zoom = st.zoom.clamp(1, 4);
    let size = frame_of(&d.steps, i)
        .map(|(_, s)| format!(" · {}×{} px", s.width, s.height))
        .unwrap_or_default();
    f.render_widget(
        Line::from(vec![
            Span::styled(
                format!("▣ step {}/{} ", i + 1, d.steps.len()),
                theme.style(Role::Title),
            ),
            Span::styled(format!("zoom {zoom}×{size} · "), theme.style(Role::Muted)),
            Span::raw(action_text(&step.action)),
        ]),
        cap,
    );
    draw_frame(f, pic, st, st.current_frame(), theme);
}

/// Seconds with one decimal.
pub fn secs(ms: u64) -> String {
    format!("{:.1} s", ms as f64 / 1000.0)
}

/// Draws the step shown into `inner`; returns the area left for text and the step's lines.
pub fn draw(
    f: &mut Frame<'_>,
    inner: Rect,
    st: &RolloutsState,
    d: &TrialDetail,
    theme: &Theme,
) -> (Rect, Vec<Line<'static>>) {
    let steps = &d.steps;
    let i = st.step.min(steps.len().saturating_sub(1));
    let Some(step) = steps.get(i) else {
        return (inner, Vec::new());
    };
    let (cap, pic, rest) = split(inner);
    let glyph = if step.error.is_some() { "✗" } else { "▣" };
    f.render_widget(
        Line::from(vec![
            Span::styled(
                format!("{glyph} step {}/{} ", i + 1, steps.len()),
                theme.style(Role::Title),
            ),
            Span::styled(
                format!("at {} · {} ms · ", secs(step.at_ms), step.duration_ms),
                theme.style(Role::Muted),
            ),
            Span::raw(action_text(&step.action)),
        ]),
        cap,
    );
    draw_frame(f, pic, st, st.current_frame(), theme);
    let mut lines = Vec::new();
    if let Some(e) = &step.error {
        lines.push(Line::styled(
            format!("✗ error: {e}"),
            theme.style(Role::Alert),
        ));
    }
    let muted = theme.style(Role::Muted);
    match frame_of(steps, i) {
        Some((k, shot)) if k != i => lines.push(Line::styled(
            format!(
                "screen as of step {} (this step took no screenshot) · {}×{} px",
                k + 1,
                shot.width,
                shot.height
            ),
            muted,
        )),
        Some((_, shot)) => lines.push(Line::styled(
            format!(
                "screen after this step · {}×{} px{}",
                shot.width,
                shot.height,
                step.settle_ms
                    .map(|ms| format!(" · display settled after {ms} ms"))
                    .unwrap_or_default()
            ),
            muted,
        )),
        None => lines.push(Line::styled("no screenshot up to this step", muted)),
    }
    if let Some(turn) = turn_of(&d.detail, steps, i) {
        let n = turn
            .get("turn")
            .and_then(serde_json::Value::as_u64)
            .unwrap_or(0);
        lines.push(Line::styled(
            format!("model reply (turn {n})"),
            theme.style(Role::Title),
        ));
        let reply = turn
            .get("reply")
            .and_then(serde_json::Value::as_str)
            .unwrap_or("");
        lines.extend(reply.lines().map(|l| Line::raw(format!("  {l}"))));
    }
    lines.push(Line::styled(
        "( ) step · 0 $ first/last · { } scroll",
        muted,
    ));
    (rest, lines)
}
