//! One primitive of the `computer_use` tool (paper C.1.1): what every screen-driving policy
//! emits and every screen performs. Owned here, below the rollout area that drives screens.

use serde::{Deserialize, Serialize};

/// One primitive of the `computer_use` tool (C.1.1). Coordinates are screen pixels.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum ComputerAction {
    /// Pointer clicks and moves at a coordinate.
    LeftClick { x: i32, y: i32 },
    /// Right click.
    RightClick { x: i32, y: i32 },
    /// Middle click.
    MiddleClick { x: i32, y: i32 },
    /// Double click.
    DoubleClick { x: i32, y: i32 },
    /// Triple click.
    TripleClick { x: i32, y: i32 },
    /// Drag from one point to another.
    LeftClickDrag {
        x: i32,
        y: i32,
        to_x: i32,
        to_y: i32,
    },
    /// Move the pointer.
    MouseMove { x: i32, y: i32 },
    /// Press the left button.
    LeftMouseDown,
    /// Release the left button.
    LeftMouseUp,
    /// Type text.
    Type { text: String },
    /// Press a key chord, e.g. `ctrl+s`.
    Key { key: String },
    /// Hold a key.
    KeyDown { key: String },
    /// Release a key.
    KeyUp { key: String },
    /// Vertical scroll at a point.
    Scroll { x: i32, y: i32, amount: i32 },
    /// Horizontal scroll at a point.
    Hscroll { x: i32, y: i32, amount: i32 },
    /// Ask for a fresh screenshot.
    Screenshot,
    /// Wait.
    Wait { seconds: f64 },
    /// End the episode, declaring success or failure.
    Terminate { success: bool },
    /// Ask the user (evaluation only; never during RL).
    CallUser { question: String },
}
