//! Trials without model text (ui-oracle, a person through `env try`) as a policy would have
//! written them: the recorded actions grouped into turns by the paper's batching rules (D.1:
//! sub-components of one gesture and deterministic keyboard chains share a turn; clicks, whose
//! outcome must be seen, end one), each turn rendered in a [`WireFormat`] with coordinates in
//! its space, a closing `terminate`, and every turn read back by the wire's own parser: a turn
//! that does not read back as its actions (a format with no form for one) leaves the trial out
//! with the reason, never a wrong sample.

use serde_json::Value;

use super::errors::{RenderSkip, UnknownChoice};
use super::load::{Shot, Trajectory, Turn};
use super::wire::{snap, snap_error, WireFormat};
use crate::rollout::screen::ComputerAction;
use crate::rollout::vlm::{CoordSpace, Coords, MAX_ACTIONS_PER_TURN};

/// How recorded actions become turns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Batching {
    /// The paper's rules (D.1).
    Paper,
    /// One action per turn.
    Single,
}

impl std::str::FromStr for Batching {
    type Err = UnknownChoice;
    fn from_str(s: &str) -> Result<Self, UnknownChoice> {
        match s {
            "paper" => Ok(Batching::Paper),
            "single" => Ok(Batching::Single),
            other => Err(UnknownChoice {
                what: "batching",
                given: other.to_string(),
                known: "paper or single",
            }),
        }
    }
}

/// How to render.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RenderOptions {
    /// The wire.
    pub wire: WireFormat,
    /// The coordinate space (`None` = the wire's own).
    pub space: Option<CoordSpace>,
    /// Turn grouping.
    pub batching: Batching,
}

/// A rendered turn before its text: its actions (screen pixels), the frames around it and what
/// the screen answered.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// The actions, in order.
    pub actions: Vec<ComputerAction>,
    /// The screen the turn was decided on.
    pub before: Option<Shot>,
    /// The screen after its last action.
    pub after: Option<Shot>,
    /// The screen's error on its last action (empty when all went well).
    pub feedback: String,
    /// Settle wait of the after-frame.
    pub settle_ms: Option<u64>,
    /// When its first action began.
    pub at_ms: u64,
}

/// Whether `next` joins a turn ending in `turn` (the paper's batching rules).
fn joins(turn: &[ComputerAction], next: &ComputerAction) -> bool {
    use ComputerAction as A;
    let held = |down: fn(&A) -> bool, up: fn(&A) -> bool| {
        turn.iter().filter(|a| down(a)).count() > turn.iter().filter(|a| up(a)).count()
    };
    if held(
        |a| matches!(a, A::KeyDown { .. }),
        |a| matches!(a, A::KeyUp { .. }),
    ) || held(
        |a| matches!(a, A::LeftMouseDown),
        |a| matches!(a, A::LeftMouseUp),
    ) {
        return true;
    }
    let Some(last) = turn.last() else {
        return true;
    };
    match (last, next) {
        // A gesture's prelude: move, then scroll or drag there.
        (A::MouseMove { .. }, A::Scroll { .. } | A::Hscroll { .. })
        | (A::MouseMove { .. }, A::LeftClickDrag { .. } | A::LeftMouseDown) => true,
        // Deterministic keyboard chains (select-all → type → Enter).
        (A::Key { .. } | A::Type { .. }, A::Key { .. } | A::Type { .. }) => true,
        // Action-and-observe.
        (_, A::Screenshot) => true,
        _ => false,
    }
}

/// Why a trial's recorded actions cannot be grouped into turns (the trial is skipped, named).
#[derive(Debug, thiserror::Error)]
pub enum GroupError {
    /// A recorded step holds other than one action.
    #[error("step {step} holds {actions} actions")]
    NotOneAction {
        /// The step (from 1).
        step: usize,
        /// How many actions it holds.
        actions: usize,
    },
    /// A recorded action is not a `computer_use` action.
    #[error("step {step}: not a computer_use action ({source}): {raw}")]
    NotAnAction {
        /// The step (from 1).
        step: usize,
        /// The action as stored.
        raw: serde_json::Value,
        /// What the action parser refused.
        #[source]
        source: serde_json::Error,
    },
    /// The trial recorded no screen action.
    #[error("no recorded screen actions")]
    Empty,
}

/// The recorded actions of a trial without model text, grouped into turns.
pub fn groups(t: &Trajectory, batching: Batching) -> Result<Vec<Group>, GroupError> {
    let mut out: Vec<Group> = Vec::new();
    let mut before = t.first.clone();
    let mut open = false;
    for (i, turn) in t.turns.iter().enumerate() {
        let [raw] = turn.actions.as_slice() else {
            return Err(GroupError::NotOneAction {
                step: i + 1,
                actions: turn.actions.len(),
            });
        };
        let action: ComputerAction =
            serde_json::from_value(raw.clone()).map_err(|source| GroupError::NotAnAction {
                step: i + 1,
                raw: raw.clone(),
                source,
            })?;
        let join = open
            && batching == Batching::Paper
            && out.last().is_some_and(|g| {
                g.actions.len() < MAX_ACTIONS_PER_TURN && joins(&g.actions, &action)
            });
        if !join {
            out.push(Group {
                actions: Vec::new(),
                before: before.clone(),
                after: None,
                feedback: String::new(),
                settle_ms: None,
                at_ms: turn.at_ms,
            });
        }
        if let Some(g) = out.last_mut() {
            g.actions.push(action);
            g.after = turn.after.clone().or(g.after.take());
            g.feedback = turn.feedback.clone();
            g.settle_ms = turn.settle_ms;
            before = g.after.clone().or(before);
        }
        // An action the screen refused ends the turn: the policy sees the error next.
        open = turn.feedback.is_empty();
    }
    if out.is_empty() {
        return Err(GroupError::Empty);
    }
    // The closing turn: the policy looks at the final screen and ends the episode, declaring
    // success unless its last action was refused.
    let success = out.last().is_some_and(|g| g.feedback.is_empty());
    out.push(Group {
        actions: vec![ComputerAction::Terminate { success }],
        before,
        after: None,
        feedback: String::new(),
        settle_ms: None,
        at_ms: t.duration_ms,
    });
    Ok(out)
}

/// What rendering a trial gave: the trajectory with assistant turns in the wire, and the
/// largest distance between a recorded point and the point its written coordinate names.
#[derive(Debug, Clone, PartialEq)]
pub struct Rendered {
    /// The trajectory (system prompt, first observation, rendered turns).
    pub trajectory: Trajectory,
    /// The coordinates (space applied to the trial's screen).
    pub coords: Coords,
    /// Largest snap distance, screen pixels (0 when the space names every pixel).
    pub snap_px: i32,
}

/// Renders `t` (a trial without model text) in `opts.wire`; `thoughts[i]` is the text before
/// turn `i` (empty = none). An error is why the trial cannot be rendered.
pub fn render(
    t: &Trajectory,
    groups: &[Group],
    thoughts: &[String],
    opts: &RenderOptions,
) -> Result<Rendered, RenderSkip> {
    let shot = t.first.as_ref().ok_or(RenderSkip::NoFirstObservation)?;
    let space = opts.space.unwrap_or(opts.wire.default_space());
    let coords = Coords::new(space, shot.width, shot.height)?;
    let mut turns = Vec::with_capacity(groups.len());
    let mut snap_px = 0;
    for (i, g) in groups.iter().enumerate() {
        let thought = thoughts.get(i).map(String::as_str).unwrap_or_default();
        let id = format!("call_{}_{}", t.rollout_id, i + 1);
        let content = opts.wire.render(thought, &g.actions, &coords, &id)?;
        let want: Vec<ComputerAction> = g.actions.iter().map(|a| snap(a, &coords)).collect();
        let back = opts
            .wire
            .parse(&content, &coords)
            .map_err(|source| RenderSkip::ReadBack {
                turn: i + 1,
                wire: opts.wire.to_string(),
                source,
            })?;
        if back != want {
            return Err(RenderSkip::Inexact {
                wire: opts.wire.to_string(),
                turn: i + 1,
                said: serde_json::to_string(&g.actions).unwrap_or_default(),
                back: serde_json::to_string(&back).unwrap_or_default(),
            });
        }
        snap_px = g
            .actions
            .iter()
            .map(|a| snap_error(a, &coords))
            .fold(snap_px, i32::max);
        turns.push(Turn {
            reply: content.as_str().map(str::to_string).unwrap_or_default(),
            assistant: (!content.is_string()).then_some(content),
            actions: g
                .actions
                .iter()
                .map(|a| serde_json::to_value(a).unwrap_or(Value::Null))
                .collect(),
            feedback: g.feedback.clone(),
            after: g.after.clone(),
            settle_ms: g.settle_ms,
            at_ms: g.at_ms,
        });
    }
    let mut trajectory = t.clone();
    trajectory.system = opts.wire.system_prompt(&coords);
    trajectory.turns = turns;
    Ok(Rendered {
        trajectory,
        coords,
        snap_px,
    })
}
