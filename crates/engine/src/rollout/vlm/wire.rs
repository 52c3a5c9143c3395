//! What the step loop and the three wire formats share: the conversation as the harness keeps
//! it, one model reply, and the [`Wire`] interface each API implements.

use std::sync::Arc;

use serde_json::Value;

use super::coords::Coords;
use super::error::{CoordError, ReplyError};
use crate::agents::Usage;
use crate::rollout::screen::ComputerAction;
use tuplewright_models::providers::ProviderError;

/// The text that stands in for a screenshot older than the last `history_n`.
pub const HISTORY_PLACEHOLDER: &str = "<image collapsed>";

/// Decoding settings of every turn (`[rollout.vlm]`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sampling {
    /// Output token limit of one turn.
    pub max_new_tokens: u32,
    /// Sampling temperature.
    pub temperature: f64,
    /// Nucleus sampling.
    pub top_p: f64,
}

/// A screenshot as the model receives it (already resized to its coordinate space).
#[derive(Debug, Clone, PartialEq)]
pub struct ModelImage {
    /// PNG data.
    pub png: Arc<Vec<u8>>,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

impl ModelImage {
    /// `data:image/png;base64,…`.
    pub fn data_url(&self) -> String {
        format!("data:image/png;base64,{}", self.base64())
    }
    /// The PNG in standard base64.
    pub fn base64(&self) -> String {
        use base64::Engine as _;
        base64::engine::general_purpose::STANDARD.encode(self.png.as_slice())
    }
}

/// What the harness tells the model at the start of a turn.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Observation {
    /// The screenshot, or `None` when collapsed out of the history (or not retaken after a
    /// reply that could not be parsed).
    pub image: Option<ModelImage>,
    /// Whether an image was here and has been collapsed to [`HISTORY_PLACEHOLDER`].
    pub collapsed: bool,
    /// Text for the model: parse errors, action errors (empty when all went well).
    pub text: String,
    /// For native tool APIs: the result of each call of the previous reply, in order
    /// (`None` = done, `Some(error)`).
    pub results: Vec<Option<String>>,
}

/// One model turn.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    /// The model's text, verbatim.
    pub text: String,
    /// The actions, or why they could not be read (the model sees this next turn).
    pub actions: Result<Vec<ComputerAction>, ReplyError>,
    /// Native tool APIs: the call ids, one per call, answered next turn.
    pub call_ids: Vec<String>,
    /// The assistant turn as the API sent it (echoed back verbatim in later requests).
    pub raw: Value,
    /// Tokens and cost of this turn.
    pub usage: Usage,
}

/// The conversation: the instruction, then alternating observations and replies.
#[derive(Debug, Clone, Default)]
pub struct Conversation {
    /// The task instruction (the first user message).
    pub instruction: String,
    /// `(observation, reply)` pairs; the last one has no reply yet.
    pub turns: Vec<(Observation, Option<Reply>)>,
}

/// A model API speaking one wire format.
pub trait Wire: Send + Sync {
    /// `kind:model`, recorded with the trial.
    fn name(&self) -> String;
    /// The coordinate space on a screen of `width × height`.
    fn coords(&self, width: u32, height: u32) -> Result<Coords, CoordError>;
    /// The system prompt this wire sends with `coords`, if it sends one.
    fn system_prompt(&self, coords: &Coords) -> Option<String> {
        let _ = coords;
        None
    }
    /// Sends the conversation (retrying transient failures) and reads the reply; `cursor` is
    /// where the pointer is, for drags given only their end.
    fn send(
        &self,
        convo: &Conversation,
        coords: &Coords,
        sampling: &Sampling,
        cursor: Option<(i32, i32)>,
    ) -> Result<Reply, ProviderError>;
}
