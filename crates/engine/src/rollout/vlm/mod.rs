//! Vision-language-model policies: what a model writes and how it maps onto the screen.
//!
//! - [`ActionFormat`]: the text grammars of chat-completions models — `qwen-xml` (the paper's,
//!   C.1.1), `qwen-json` (Qwen2.5/3-VL Hermes tool calls) and `uitars` — each with a parser that
//!   yields [`ComputerAction`]s in screen pixels or an error text the model can read and act on,
//!   and a renderer (stand-ins, exports).
//! - [`coords`]: coordinate spaces (screen pixels, Qwen smart resize, relative 0–999 and 0–1) and
//!   the size the screenshot is sent at.
//! - [`wire`]: the conversation and the [`Wire`] each API implements — [`chat`] (chat
//!   completions + a text format), [`anthropic`] (`computer_20250124`), [`responses`]
//!   (`computer_use_preview`).
//! - [`episode`]: the step loop (C.1.3); [`policy`]: the loop as a teacher [`crate::rollout::Policy`]
//!   on a provisioned screen ([`live`]: the task's own screen by default); [`config`]:
//!   `[rollout.vlm]`; [`judge`]: the judge on screenshots over the same three APIs.

pub mod anthropic;
pub mod args;
pub mod calibrate;
pub mod chat;
pub mod config;
pub mod coords;
pub mod episode;
pub mod error;
pub mod image;
pub mod judge;
pub mod live;
pub mod policy;
pub mod prompt;
pub mod qwen_json;
pub mod qwen_xml;
pub mod responses;
pub mod uitars;
pub mod wire;

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use regex::Regex;

pub use args::ArgCtx;
pub use config::VlmConfig;
pub use coords::{smart_resize, CoordSpace, Coords};
pub use episode::{run_episode, run_episode_fed, run_episode_on, Ending, Episode, LoopLimits};
pub use live::{LiveScreen, TaskScreen};
pub use policy::{
    is_vlm_spec, open_chromium, vlm_policy, wire_from_spec, ChromiumScreen, ScreenProvision,
    VlmPolicy,
};
pub use wire::{Sampling, Wire, HISTORY_PLACEHOLDER};

use crate::rollout::screen::ComputerAction;
use error::{bad_reply, ReplyError, SpecError};

/// The one function the text formats expose.
pub const TOOL_NAME: &str = "computer_use";
/// The most actions one turn may carry (the paper's `MAX_TOOL_CALLS_PER_TURN`).
pub const MAX_ACTIONS_PER_TURN: usize = 10;

/// The verdict on one turn of a tool-calling wire (Anthropic tool_use, Responses computer_call):
/// the first call's parse error, too many calls, no call at all (the model is done: terminate
/// with success, as those APIs end an episode), or the actions. `calls` names the calls in the
/// error ("tool calls in one turn").
pub fn turn_verdict(
    error: Option<ReplyError>,
    n_calls: usize,
    calls: &'static str,
    actions: Vec<ComputerAction>,
) -> Result<Vec<ComputerAction>, ReplyError> {
    match error {
        Some(e) => Err(e),
        None if n_calls > MAX_ACTIONS_PER_TURN => {
            Err(ReplyError::TooManyCalls { n: n_calls, calls })
        }
        None if n_calls == 0 => Ok(vec![ComputerAction::Terminate { success: true }]),
        None => Ok(actions),
    }
}

/// A text grammar for actions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActionFormat {
    /// `<tool_call><function=computer_use><parameter=action>…` (the paper's).
    QwenXml,
    /// `<tool_call>{"name": "computer_use", "arguments": {…}}</tool_call>`.
    QwenJson,
    /// `Thought: … Action: click(start_box='(x,y)')`.
    Uitars,
}

impl ActionFormat {
    /// Every format, for help texts.
    pub const ALL: [ActionFormat; 3] = [Self::QwenXml, Self::QwenJson, Self::Uitars];

    /// The format and coordinate space a model family is trained on (by its name): UI-TARS 1.5
    /// → `uitars` in smart-resize pixels, UI-TARS 1.0 → `uitars` relative 0–999, Qwen2.5-VL →
    /// `qwen-json` in smart-resize pixels, Qwen3-VL → `qwen-json` relative 0–999, anything else
    /// (the paper's policies) → `qwen-xml` relative 0–999.
    pub fn for_model(model: &str) -> (ActionFormat, CoordSpace) {
        let m = model.to_ascii_lowercase();
        let smart = CoordSpace::SmartResize {
            factor: coords::QWEN25_FACTOR,
            min_pixels: coords::QWEN25_MIN_PIXELS,
            max_pixels: coords::QWEN25_MAX_PIXELS,
        };
        if m.contains("ui-tars") || m.contains("uitars") {
            if m.contains("1.5") || m.contains("1_5") {
                (Self::Uitars, smart)
            } else {
                (Self::Uitars, CoordSpace::Relative1000)
            }
        } else if m.contains("qwen2.5-vl") || m.contains("qwen2_5_vl") || m.contains("qwen2.5vl") {
            (Self::QwenJson, smart)
        } else if m.contains("qwen3-vl") || m.contains("qwen3_vl") {
            (Self::QwenJson, CoordSpace::Relative1000)
        } else {
            (Self::QwenXml, CoordSpace::Relative1000)
        }
    }

    /// Parses one reply into actions in screen pixels (at most [`MAX_ACTIONS_PER_TURN`]), or an
    /// error text for the model's next user turn.
    pub fn parse(&self, reply: &str, ctx: &ArgCtx) -> Result<Vec<ComputerAction>, ReplyError> {
        let actions = match self {
            Self::Uitars => uitars::parse(reply, &ctx.coords)?,
            Self::QwenXml => from_args(qwen_xml::calls(reply)?, ctx)?,
            Self::QwenJson => from_args(qwen_json::calls(reply)?, ctx)?,
        };
        if actions.len() > MAX_ACTIONS_PER_TURN {
            return Err(bad_reply!(
                "{} actions in one turn; at most {MAX_ACTIONS_PER_TURN} are allowed",
                actions.len()
            ));
        }
        Ok(actions)
    }

    /// Writes actions (screen pixels) the way a model of this format would.
    pub fn render(&self, thought: &str, actions: &[ComputerAction], coords: &Coords) -> String {
        match self {
            Self::QwenXml => qwen_xml::render(thought, actions, coords),
            Self::QwenJson => qwen_json::render(thought, actions, coords),
            Self::Uitars => uitars::render(thought, actions, coords),
        }
    }

    /// The name used in specs and config (`qwen-xml`, …).
    pub fn name(&self) -> &'static str {
        match self {
            Self::QwenXml => "qwen-xml",
            Self::QwenJson => "qwen-json",
            Self::Uitars => "uitars",
        }
    }
}

impl fmt::Display for ActionFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ActionFormat {
    type Err = SpecError;
    fn from_str(s: &str) -> Result<Self, SpecError> {
        Self::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| SpecError::UnknownFormat(s.to_string()))
    }
}

/// Maps argument objects to actions in order, tracking the pointer for drags; errors name the
/// call.
fn from_args(
    calls: Vec<serde_json::Map<String, serde_json::Value>>,
    ctx: &ArgCtx,
) -> Result<Vec<ComputerAction>, ReplyError> {
    if calls.len() > MAX_ACTIONS_PER_TURN {
        return Err(ReplyError::TooManyCalls {
            n: calls.len(),
            calls: "calls in one turn",
        });
    }
    let mut ctx = *ctx;
    let mut out = Vec::with_capacity(calls.len());
    let n = calls.len();
    for (i, args) in calls.iter().enumerate() {
        let a = args::to_action(args, &ctx).map_err(|e| {
            if n > 1 {
                e.in_call("call", i + 1, Some(n))
            } else {
                e
            }
        })?;
        if let Some(p) = pointer(&a) {
            ctx.cursor = Some(p);
        }
        out.push(a);
    }
    Ok(out)
}

/// Where an action leaves the pointer.
pub fn pointer(a: &ComputerAction) -> Option<(i32, i32)> {
    use ComputerAction as A;
    match a {
        A::LeftClick { x, y }
        | A::RightClick { x, y }
        | A::MiddleClick { x, y }
        | A::DoubleClick { x, y }
        | A::TripleClick { x, y }
        | A::MouseMove { x, y }
        | A::Scroll { x, y, .. }
        | A::Hscroll { x, y, .. } => Some((*x, *y)),
        A::LeftClickDrag { to_x, to_y, .. } => Some((*to_x, *to_y)),
        _ => None,
    }
}

/// A compiled pattern (compiled once; a literal that fails to compile is a bug the unit tests
/// catch, reported as an error rather than a panic).
pub(crate) fn regex(
    cell: &'static OnceLock<Option<Regex>>,
    pattern: &str,
) -> Result<&'static Regex, ReplyError> {
    cell.get_or_init(|| Regex::new(pattern).ok())
        .as_ref()
        .ok_or_else(|| bad_reply!("internal error: bad pattern {pattern}"))
}

/// The bodies of every `<tool_call>…</tool_call>` block (the last may lack its closing tag when
/// the server stopped at it), or an error when there is none.
pub(crate) fn tool_call_blocks(reply: &str) -> Result<Vec<&str>, ReplyError> {
    const OPEN: &str = "<tool_call>";
    const CLOSE: &str = "</tool_call>";
    let mut out = Vec::new();
    let mut rest = reply;
    while let Some(i) = rest.find(OPEN) {
        let body = &rest[i + OPEN.len()..];
        match body.find(CLOSE) {
            Some(j) => {
                out.push(&body[..j]);
                rest = &body[j + CLOSE.len()..];
            }
            None => {
                out.push(body);
                rest = "";
            }
        }
    }
    if out.is_empty() {
        return Err(bad_reply!(
            "no <tool_call> block in the reply; every turn must end with a {TOOL_NAME} tool call"
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
