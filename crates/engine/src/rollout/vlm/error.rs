//! The errors of the VLM layer: coordinates that cannot be placed, replies that cannot be read as
//! actions (their text is what the model is told on its next turn), actions a wire has no form
//! for, and specs naming no known wire, format or space.

use super::MAX_ACTIONS_PER_TURN;

/// Why a coordinate space or a model's point cannot be used on a screen.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CoordError {
    /// `smart_resize` of an empty screen or with a zero factor.
    #[error("smart_resize of {width}x{height} with factor {factor}: sizes must be positive")]
    NotPositive {
        /// Screen width.
        width: u32,
        /// Screen height.
        height: u32,
        /// The factor asked for.
        factor: u32,
    },
    /// `smart_resize` of a screen more elongated than Qwen allows.
    #[error("absolute aspect ratio must be smaller than {max}, got {got}")]
    AspectRatio {
        /// The largest ratio.
        max: f64,
        /// The screen's ratio.
        got: f64,
    },
    /// A point that is not two finite numbers.
    #[error("coordinate ({x}, {y}) is not a pair of finite numbers")]
    NotFinite {
        /// As the model wrote it.
        x: f64,
        /// As the model wrote it.
        y: f64,
    },
    /// A point more than a million pixels away.
    #[error("coordinate ({x}, {y}) is far outside the screen")]
    FarOutside {
        /// As the model wrote it.
        x: f64,
        /// As the model wrote it.
        y: f64,
    },
    /// A space name that is none of the known ones.
    #[error(
        "unknown coordinate space `{0}` (pixels, rel1000, rel1, smart-resize, \
         smart-resize:paper or smart-resize:FACTOR:MIN_PIXELS:MAX_PIXELS)"
    )]
    UnknownSpace(String),
    /// `smart-resize:F:MIN:MAX` with a zero factor or MIN above MAX.
    #[error("coordinate space `{0}`: the factor must be positive and MIN_PIXELS ≤ MAX_PIXELS")]
    BadSmartResize(String),
}

/// Why a model's reply could not be read as actions. Its text is sent back to the model, so
/// each names the call, the argument and what was expected.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReplyError {
    /// The reply breaks the action format (the text says where and how).
    #[error("{0}")]
    Format(String),
    /// A point of a call cannot be placed on the screen.
    #[error("{at}: {source}")]
    Coords {
        /// The action or argument holding the point.
        at: String,
        /// Why.
        #[source]
        source: CoordError,
    },
    /// One of several calls of a turn is unreadable.
    #[error("{what} {index}{of}: {source}")]
    Call {
        /// `call` or `tool call`.
        what: &'static str,
        /// 1-based position of the call.
        index: usize,
        /// ` of N` when the turn's size is known, else empty.
        of: String,
        /// Why.
        #[source]
        source: Box<ReplyError>,
    },
    /// More calls in one turn than a turn may hold.
    #[error("{n} {calls}; at most {MAX_ACTIONS_PER_TURN}")]
    TooManyCalls {
        /// How many were sent.
        n: usize,
        /// What they are called (`tool calls in one turn`…).
        calls: &'static str,
    },
}

impl ReplyError {
    /// Call `index` (1-based) of a turn of `of` calls (`None`: the turn's size is unknown).
    pub fn in_call(self, what: &'static str, index: usize, of: Option<usize>) -> ReplyError {
        ReplyError::Call {
            what,
            index,
            of: of.map(|n| format!(" of {n}")).unwrap_or_default(),
            source: Box::new(self),
        }
    }

    /// A point of `at` that cannot be placed.
    pub fn coords(at: impl Into<String>) -> impl FnOnce(CoordError) -> ReplyError {
        let at = at.into();
        move |source| ReplyError::Coords { at, source }
    }
}

impl From<String> for ReplyError {
    fn from(text: String) -> Self {
        ReplyError::Format(text)
    }
}

impl From<&str> for ReplyError {
    fn from(text: &str) -> Self {
        ReplyError::Format(text.to_string())
    }
}

/// An action a wire's format has no form for (exports and stand-ins render trials in it).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RenderError {
    /// The wire's tool cannot express this action.
    #[error("the {tool} tool has no form for {action}")]
    NoForm {
        /// The tool (`computer`, `computer_use_preview`…).
        tool: &'static str,
        /// The action's name.
        action: String,
    },
    /// A successful `terminate` that is not the turn's last action.
    #[error("terminate must be the {turn}'s last action")]
    TerminateNotLast {
        /// `turn` or `response`.
        turn: &'static str,
    },
    /// The trial's screen size admits no image in the wire's coordinate space.
    #[error(transparent)]
    Coords(#[from] CoordError),
}

/// A `vlm:` policy spec, an action format or a `[rollout.vlm]` setting that names nothing known.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    /// The spec's provider part (`openai:MODEL@URL`…) is unusable.
    #[error("policy `{spec}`: {source}")]
    Provider {
        /// The policy spec.
        spec: String,
        /// Why.
        #[source]
        source: Box<tuplewright_models::providers::ProviderError>,
    },
    /// The wire could not be built from a valid provider config (e.g. its HTTP client).
    #[error(transparent)]
    Wire(Box<tuplewright_models::providers::ProviderError>),
    /// `vlm:` with a provider that does not speak OpenAI's chat API.
    #[error("policy `{0}`: vlm: takes an OpenAI-compatible endpoint (vlm:openai:MODEL[@URL])")]
    NotOpenai(String),
    /// A spec with none of the VLM prefixes.
    #[error(
        "unknown VLM policy `{0}` (vlm:openai:MODEL[@URL], anthropic:MODEL, openai-responses:MODEL)"
    )]
    UnknownPolicy(String),
    /// `[rollout.vlm] format` names no action format.
    #[error("unknown action format `{0}` (qwen-xml, qwen-json or uitars)")]
    UnknownFormat(String),
    /// `[rollout.vlm] anthropic_tool` is not a computer tool version.
    #[error("anthropic_tool `{0}` is not a computer tool version like computer_20250124")]
    AnthropicTool(String),
    /// `[rollout.vlm] coords` names no coordinate space.
    #[error(transparent)]
    Coords(#[from] CoordError),
}

/// `ReplyError::Format(format!(…))`: a reply that breaks the action format.
macro_rules! bad_reply {
    ($($arg:tt)*) => {
        $crate::rollout::vlm::error::ReplyError::Format(format!($($arg)*))
    };
}
pub(crate) use bad_reply;
