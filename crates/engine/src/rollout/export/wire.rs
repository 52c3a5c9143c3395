//! The wire formats a rendered trial is written in — the five the VLM policies speak — each with
//! its declared coordinate space, the system prompt its policy sends, the renderer of one
//! assistant turn and the parser that reads it back (the same parser that reads model replies).

use std::fmt;
use std::str::FromStr;

use serde_json::Value;

use super::errors::UnknownChoice;
use crate::rollout::screen::ComputerAction;
use crate::rollout::vlm::coords::{QWEN25_FACTOR, QWEN25_MAX_PIXELS, QWEN25_MIN_PIXELS};
use crate::rollout::vlm::error::{RenderError, ReplyError};
use crate::rollout::vlm::{anthropic, prompt, responses};
use crate::rollout::vlm::{ActionFormat, ArgCtx, CoordSpace, Coords};

/// A policy's wire format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WireFormat {
    /// Chat completions with a text action format (`qwen-xml`, `qwen-json`, `uitars`).
    Text(ActionFormat),
    /// Anthropic's Messages API with the computer tool (`tool_use` blocks).
    Anthropic,
    /// OpenAI's Responses API with `computer_use_preview` (`computer_call` items).
    OpenaiComputer,
}

impl WireFormat {
    /// Every wire, for help texts and tests.
    pub const ALL: [WireFormat; 5] = [
        WireFormat::Text(ActionFormat::QwenXml),
        WireFormat::Text(ActionFormat::QwenJson),
        WireFormat::Text(ActionFormat::Uitars),
        WireFormat::Anthropic,
        WireFormat::OpenaiComputer,
    ];

    /// The name used on the command line.
    pub fn name(&self) -> &'static str {
        match self {
            WireFormat::Text(f) => f.name(),
            WireFormat::Anthropic => "anthropic",
            WireFormat::OpenaiComputer => "openai-computer",
        }
    }

    /// The coordinate space the wire's policy declares by default (`rollout --policy` picks the
    /// same): `qwen-xml` relative 0–999 (the paper's), `qwen-json` and `uitars` pixels of the
    /// smart-resized image (Qwen2.5-VL, UI-TARS-1.5), the two tool APIs screen pixels.
    pub fn default_space(&self) -> CoordSpace {
        let smart = CoordSpace::SmartResize {
            factor: QWEN25_FACTOR,
            min_pixels: QWEN25_MIN_PIXELS,
            max_pixels: QWEN25_MAX_PIXELS,
        };
        match self {
            WireFormat::Text(ActionFormat::QwenXml) => CoordSpace::Relative1000,
            WireFormat::Text(_) => smart,
            WireFormat::Anthropic | WireFormat::OpenaiComputer => CoordSpace::Pixels,
        }
    }

    /// The system prompt the wire's policy sends (none for the Responses API).
    pub fn system_prompt(&self, coords: &Coords) -> Option<String> {
        match self {
            WireFormat::Text(f) => Some(prompt::system_prompt(*f, coords)),
            WireFormat::Anthropic => Some(anthropic::SYSTEM.to_string()),
            WireFormat::OpenaiComputer => None,
        }
    }

    /// One assistant turn: a string for the text formats, the content blocks (Anthropic) or
    /// output items (Responses) otherwise; `id` names the turn's tool calls.
    pub fn render(
        &self,
        thought: &str,
        actions: &[ComputerAction],
        coords: &Coords,
        id: &str,
    ) -> Result<Value, RenderError> {
        match self {
            WireFormat::Text(f) => Ok(Value::String(f.render(thought, actions, coords))),
            WireFormat::Anthropic => anthropic::render_content(thought, actions, coords, id),
            WireFormat::OpenaiComputer => responses::render_output(thought, actions, coords, id),
        }
    }

    /// Reads an assistant turn back with the parser the policy uses on model replies.
    pub fn parse(
        &self,
        content: &Value,
        coords: &Coords,
    ) -> Result<Vec<ComputerAction>, ReplyError> {
        let ctx = ArgCtx {
            coords: *coords,
            cursor: None,
        };
        let items = || content.as_array().cloned().unwrap_or_default();
        match self {
            WireFormat::Text(f) => f.parse(content.as_str().unwrap_or_default(), &ctx),
            WireFormat::Anthropic => anthropic::read_reply(&items(), &ctx).2,
            WireFormat::OpenaiComputer => responses::read_output(&items(), coords).2,
        }
    }
}

impl fmt::Display for WireFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for WireFormat {
    type Err = UnknownChoice;
    fn from_str(s: &str) -> Result<Self, UnknownChoice> {
        Self::ALL
            .into_iter()
            .find(|w| w.name() == s)
            .ok_or_else(|| UnknownChoice {
                what: "wire",
                given: s.to_string(),
                known: "qwen-xml, qwen-json, uitars, anthropic or openai-computer",
            })
    }
}

/// `a` with every point moved where the space can name it: the screen pixel a model's
/// coordinate for it maps back to (the identity when the space names every pixel).
pub fn snap(a: &ComputerAction, coords: &Coords) -> ComputerAction {
    use ComputerAction as A;
    let s = |x: i32, y: i32| {
        let (mx, my) = coords.to_model(x, y);
        coords.to_screen(mx, my).unwrap_or((x, y))
    };
    let mut out = a.clone();
    match &mut out {
        A::LeftClick { x, y }
        | A::RightClick { x, y }
        | A::MiddleClick { x, y }
        | A::DoubleClick { x, y }
        | A::TripleClick { x, y }
        | A::MouseMove { x, y }
        | A::Scroll { x, y, .. }
        | A::Hscroll { x, y, .. } => (*x, *y) = s(*x, *y),
        A::LeftClickDrag { x, y, to_x, to_y } => {
            (*x, *y) = s(*x, *y);
            (*to_x, *to_y) = s(*to_x, *to_y);
        }
        _ => {}
    }
    out
}

/// The largest distance, in screen pixels along either axis, between a recorded point and where
/// the space puts it.
pub fn snap_error(a: &ComputerAction, coords: &Coords) -> i32 {
    let (p, q) = (points(a), points(&snap(a, coords)));
    p.iter()
        .zip(&q)
        .map(|((x, y), (sx, sy))| (x - sx).abs().max((y - sy).abs()))
        .max()
        .unwrap_or(0)
}

fn points(a: &ComputerAction) -> Vec<(i32, i32)> {
    use ComputerAction as A;
    match a {
        A::LeftClickDrag { x, y, to_x, to_y } => vec![(*x, *y), (*to_x, *to_y)],
        other => crate::rollout::vlm::pointer(other).into_iter().collect(),
    }
}
