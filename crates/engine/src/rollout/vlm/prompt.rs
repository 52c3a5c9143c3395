//! System prompts of the text formats: the `computer_use` tool (paper C.1.1's primitives), the
//! grammar of a reply, the coordinate convention and the termination rule. Constant across
//! tasks; the instruction is the first user message.

use serde_json::json;

use super::coords::{CoordSpace, Coords};
use super::{ActionFormat, MAX_ACTIONS_PER_TURN, TOOL_NAME};

/// The coordinate convention in one sentence.
pub fn coordinate_note(coords: &Coords) -> String {
    let (w, h) = coords.image;
    match coords.space {
        CoordSpace::Pixels | CoordSpace::SmartResize { .. } => format!(
            "The screen is {w}x{h} pixels; coordinates are [x, y] pixels of the screenshot, (0, 0) at the top left."
        ),
        CoordSpace::Relative1000 => "Coordinates are [x, y] relative to the screenshot on a 0-999 scale: (0, 0) is the top left, (999, 999) the bottom right.".into(),
        CoordSpace::Relative1 => "Coordinates are [x, y] fractions of the screenshot's width and height between 0 and 1: (0, 0) is the top left, (1, 1) the bottom right.".into(),
    }
}

/// The `computer_use` function as a JSON schema (Qwen's layout).
pub fn tool_schema(coords: &Coords) -> serde_json::Value {
    json!({
        "type": "function",
        "function": {
            "name": TOOL_NAME,
            "description": format!("Use a mouse and keyboard to interact with the computer, and take screenshots. {}", coordinate_note(coords)),
            "parameters": {
                "type": "object",
                "required": ["action"],
                "properties": {
                    "action": {"type": "string", "enum": [
                        "left_click", "right_click", "middle_click", "double_click", "triple_click",
                        "left_click_drag", "mouse_move", "left_mouse_down", "left_mouse_up",
                        "type", "key", "key_down", "key_up", "scroll", "hscroll", "screenshot",
                        "wait", "terminate", "call_user"]},
                    "coordinate": {"type": "array", "description": "[x, y] for pointer actions and scroll; the end point of left_click_drag"},
                    "start_coordinate": {"type": "array", "description": "[x, y] where left_click_drag starts"},
                    "text": {"type": "string", "description": "text to type (type) or the question (call_user)"},
                    "keys": {"type": "array", "description": "keys pressed together for key, key_down, key_up, e.g. [\"ctrl\", \"s\"]"},
                    "pixels": {"type": "number", "description": "wheel clicks for scroll and hscroll; positive scrolls up or left"},
                    "time": {"type": "number", "description": "seconds to wait"},
                    "status": {"type": "string", "enum": ["success", "failure"], "description": "for terminate"}
                }
            }
        }
    })
}

/// The system prompt of a text format.
pub fn system_prompt(format: ActionFormat, coords: &Coords) -> String {
    let note = coordinate_note(coords);
    match format {
        ActionFormat::QwenXml => format!(
            "You are a computer-use agent. After each screenshot, think briefly, then act with the \
             {TOOL_NAME} function inside one <tool_call> block. A block may hold up to \
             {MAX_ACTIONS_PER_TURN} <function={TOOL_NAME}> blocks, run in order without a screenshot \
             in between. Each argument is a <parameter=NAME> block:\n<tool_call>\n<function={TOOL_NAME}>\n\
             <parameter=action>\nleft_click\n</parameter>\n<parameter=coordinate>\n[x, y]\n</parameter>\n\
             </function>\n</tool_call>\n{note}\nWhen the task is complete call terminate with status \
             success; if it cannot be done, terminate with status failure.\n# Tools\n{}",
            tool_schema(coords)
        ),
        ActionFormat::QwenJson => format!(
            "You are a computer-use agent. After each screenshot, think briefly, then call the \
             function. # Tools\nYou may call one or more functions to assist with the user query.\n\
             You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n{}\n\
             </tools>\nFor each function call, return a json object with function name and arguments \
             within <tool_call></tool_call> XML tags:\n<tool_call>\n{{\"name\": <function-name>, \
             \"arguments\": <args-json-object>}}\n</tool_call>\n{note}\nWhen the task is complete \
             call terminate with status success; if it cannot be done, terminate with status failure.",
            tool_schema(coords)
        ),
        ActionFormat::Uitars => format!(
            "You are a GUI agent. You are given a task and your action history, with screenshots. \
             You need to perform the next action to complete the task.\n## Output Format\n```\n\
             Thought: ...\nAction: ...\n```\n## Action Space\nclick(start_box='(x1,y1)')\n\
             left_double(start_box='(x1,y1)')\nright_single(start_box='(x1,y1)')\n\
             drag(start_box='(x1,y1)', end_box='(x2,y2)')\nhotkey(key='ctrl c')\n\
             type(content='xxx') # use \\n at the end to submit\n\
             scroll(start_box='(x1,y1)', direction='down or up or right or left')\nwait()\n\
             finished(content='xxx')\n## Note\n{note}\n- Write a small plan in `Thought`."
        ),
    }
}
