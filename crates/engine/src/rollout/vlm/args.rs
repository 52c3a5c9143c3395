//! The `computer_use` tool's arguments (Qwen's schema, which Anthropic's computer tool shares in
//! the main) as a JSON object → one [`ComputerAction`] in screen pixels. Shared by `qwen-xml`,
//! `qwen-json` and the Anthropic tool; every refusal names the action and the argument.

use serde_json::{json, Map, Value};

use super::coords::Coords;
use super::error::{bad_reply, ReplyError};
use crate::rollout::screen::ComputerAction;

/// What an argument mapper needs besides the arguments.
#[derive(Debug, Clone, Copy)]
pub struct ArgCtx {
    /// The model's coordinate space on this screen.
    pub coords: Coords,
    /// Where the pointer is (the last coordinate acted at), for drags given only their end.
    pub cursor: Option<(i32, i32)>,
}

/// The action names the tool accepts (shown to a model that used another one).
pub const ACTIONS: &str = "left_click, right_click, middle_click, double_click, triple_click, \
left_click_drag, mouse_move, left_mouse_down, left_mouse_up, type, key, key_down, key_up, scroll, \
hscroll, screenshot, wait, terminate, call_user";

fn point(
    args: &Map<String, Value>,
    key: &str,
    action: &str,
    ctx: &ArgCtx,
) -> Result<(i32, i32), ReplyError> {
    let v = args
        .get(key)
        .ok_or_else(|| bad_reply!("{action} needs `{key}` as [x, y]"))?;
    let pair = match v {
        Value::String(s) => serde_json::from_str::<Value>(s.trim()).unwrap_or(Value::Null),
        other => other.clone(),
    };
    let nums: Option<Vec<f64>> = pair
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_f64).collect());
    match nums.as_deref() {
        Some([x, y]) if pair.as_array().is_some_and(|a| a.len() == 2) => ctx
            .coords
            .to_screen(*x, *y)
            .map_err(ReplyError::coords(action)),
        _ => Err(bad_reply!(
            "{action}: `{key}` must be [x, y] (two numbers), got {v}"
        )),
    }
}

fn text(args: &Map<String, Value>, keys: &[&str]) -> Option<String> {
    keys.iter()
        .find_map(|k| args.get(*k))
        .and_then(|v| match v {
            Value::String(s) => Some(s.clone()),
            Value::Array(a) => Some(
                a.iter()
                    .map(|x| {
                        x.as_str()
                            .map(str::to_string)
                            .unwrap_or_else(|| x.to_string())
                    })
                    .collect::<Vec<_>>()
                    .join("+"),
            ),
            Value::Null => None,
            other => Some(other.to_string()),
        })
}

fn number(args: &Map<String, Value>, keys: &[&str]) -> Option<Result<f64, ReplyError>> {
    let (k, v) = keys.iter().find_map(|k| args.get(*k).map(|v| (*k, v)))?;
    Some(match v {
        Value::Number(n) => n
            .as_f64()
            .ok_or_else(|| bad_reply!("`{k}` is not a number")),
        Value::String(s) => s
            .trim()
            .parse::<f64>()
            .map_err(|_| bad_reply!("`{k}` must be a number, got \"{s}\"")),
        other => Err(bad_reply!("`{k}` must be a number, got {other}")),
    })
}

/// Scroll: Qwen's `pixels` (positive = up) or Anthropic's `scroll_direction` + `scroll_amount`.
fn scroll(
    args: &Map<String, Value>,
    action: &str,
    at: (i32, i32),
) -> Result<ComputerAction, ReplyError> {
    let clicks = |v: f64| -> Result<i32, ReplyError> {
        if v.fract() != 0.0 || v.abs() > 1e4 {
            return Err(bad_reply!(
                "{action}: the amount must be a whole number of wheel clicks, got {v}"
            ));
        }
        Ok(v as i32)
    };
    let (x, y) = at;
    if let Some(dir) = text(args, &["scroll_direction", "direction"]) {
        let n = match number(args, &["scroll_amount", "amount", "pixels"]) {
            Some(v) => clicks(v.map_err(|e| bad_reply!("{action}: {e}"))?.abs())?,
            None => 3,
        };
        return match dir.to_ascii_lowercase().as_str() {
            "down" => Ok(ComputerAction::Scroll { x, y, amount: n }),
            "up" => Ok(ComputerAction::Scroll { x, y, amount: -n }),
            "right" => Ok(ComputerAction::Hscroll { x, y, amount: n }),
            "left" => Ok(ComputerAction::Hscroll { x, y, amount: -n }),
            other => Err(bad_reply!(
                "{action}: scroll_direction must be up, down, left or right, got \"{other}\""
            )),
        };
    }
    let v = number(args, &["pixels", "amount", "scroll_amount"])
        .ok_or_else(|| bad_reply!("{action} needs `pixels` (positive scrolls up / left)"))?
        .map_err(|e| bad_reply!("{action}: {e}"))?;
    let amount = -clicks(v)?;
    Ok(if action == "hscroll" {
        ComputerAction::Hscroll { x, y, amount }
    } else {
        ComputerAction::Scroll { x, y, amount }
    })
}

/// One action from its arguments (`action` names the primitive).
pub fn to_action(args: &Map<String, Value>, ctx: &ArgCtx) -> Result<ComputerAction, ReplyError> {
    use ComputerAction as A;
    let action = match args.get("action") {
        Some(Value::String(s)) => s.trim().to_string(),
        Some(other) => return Err(bad_reply!("`action` must be a string, got {other}")),
        None => {
            return Err(bad_reply!(
                "every call needs an `action` (one of {ACTIONS})"
            ))
        }
    };
    let at = |key: &str| point(args, key, &action, ctx);
    let needs_text = |keys: &[&str], what: &str| {
        text(args, keys).ok_or_else(|| bad_reply!("{action} needs `{what}`"))
    };
    Ok(match action.as_str() {
        "left_click" | "click" => {
            let (x, y) = at("coordinate")?;
            A::LeftClick { x, y }
        }
        "right_click" => {
            let (x, y) = at("coordinate")?;
            A::RightClick { x, y }
        }
        "middle_click" => {
            let (x, y) = at("coordinate")?;
            A::MiddleClick { x, y }
        }
        "double_click" => {
            let (x, y) = at("coordinate")?;
            A::DoubleClick { x, y }
        }
        "triple_click" => {
            let (x, y) = at("coordinate")?;
            A::TripleClick { x, y }
        }
        "mouse_move" => {
            let (x, y) = at("coordinate")?;
            A::MouseMove { x, y }
        }
        "left_click_drag" => {
            let (to_x, to_y) = at("coordinate")?;
            let (x, y) = if args.contains_key("start_coordinate") {
                at("start_coordinate")?
            } else {
                ctx.cursor.ok_or_else(|| {
                    "left_click_drag needs `start_coordinate` (the pointer has not moved yet)"
                        .to_string()
                })?
            };
            A::LeftClickDrag { x, y, to_x, to_y }
        }
        "left_mouse_down" => A::LeftMouseDown,
        "left_mouse_up" => A::LeftMouseUp,
        "type" => A::Type {
            text: needs_text(&["text"], "text")?,
        },
        "key" => A::Key {
            key: needs_text(&["keys", "key", "text"], "keys")?,
        },
        "key_down" => A::KeyDown {
            key: needs_text(&["keys", "key", "text"], "keys")?,
        },
        "key_up" => A::KeyUp {
            key: needs_text(&["keys", "key", "text"], "keys")?,
        },
        "scroll" | "hscroll" => {
            let p = if args.contains_key("coordinate") {
                at("coordinate")?
            } else {
                ctx.cursor.unwrap_or((
                    (ctx.coords.screen_w / 2) as i32,
                    (ctx.coords.screen_h / 2) as i32,
                ))
            };
            scroll(args, &action, p)?
        }
        "screenshot" => A::Screenshot,
        "wait" => {
            let seconds = match number(args, &["time", "seconds", "duration"]) {
                Some(v) => v.map_err(|e| bad_reply!("wait: {e}"))?,
                None => 1.0,
            };
            A::Wait { seconds }
        }
        "terminate" => {
            let status = text(args, &["status", "success"]).unwrap_or_default();
            let success = match status.to_ascii_lowercase().as_str() {
                "success" | "true" | "done" => true,
                "failure" | "fail" | "false" => false,
                _ => return Err("terminate needs `status`: \"success\" or \"failure\"".into()),
            };
            A::Terminate { success }
        }
        "call_user" | "ask_user" => A::CallUser {
            question: text(args, &["text", "question"]).unwrap_or_default(),
        },
        other => return Err(bad_reply!("unknown action \"{other}\" (one of {ACTIONS})")),
    })
}

/// The arguments of one action in Qwen's schema (the inverse of [`to_action`]; coordinates in
/// the model's units), for renderers and stand-ins.
pub fn to_args(action: &ComputerAction, coords: &Coords) -> Value {
    use ComputerAction as A;
    let c = |x: i32, y: i32| {
        let (mx, my) = coords.to_model(x, y);
        json!([num(mx), num(my)])
    };
    match action {
        A::LeftClick { x, y } => json!({"action": "left_click", "coordinate": c(*x, *y)}),
        A::RightClick { x, y } => json!({"action": "right_click", "coordinate": c(*x, *y)}),
        A::MiddleClick { x, y } => json!({"action": "middle_click", "coordinate": c(*x, *y)}),
        A::DoubleClick { x, y } => json!({"action": "double_click", "coordinate": c(*x, *y)}),
        A::TripleClick { x, y } => json!({"action": "triple_click", "coordinate": c(*x, *y)}),
        A::MouseMove { x, y } => json!({"action": "mouse_move", "coordinate": c(*x, *y)}),
        A::LeftClickDrag { x, y, to_x, to_y } => json!({"action": "left_click_drag",
            "start_coordinate": c(*x, *y), "coordinate": c(*to_x, *to_y)}),
        A::LeftMouseDown => json!({"action": "left_mouse_down"}),
        A::LeftMouseUp => json!({"action": "left_mouse_up"}),
        A::Type { text } => json!({"action": "type", "text": text}),
        A::Key { key } => json!({"action": "key", "keys": key.split('+').collect::<Vec<_>>()}),
        A::KeyDown { key } => {
            json!({"action": "key_down", "keys": key.split('+').collect::<Vec<_>>()})
        }
        A::KeyUp { key } => json!({"action": "key_up", "keys": key.split('+').collect::<Vec<_>>()}),
        A::Scroll { x, y, amount } => {
            json!({"action": "scroll", "coordinate": c(*x, *y), "pixels": -amount})
        }
        A::Hscroll { x, y, amount } => {
            json!({"action": "hscroll", "coordinate": c(*x, *y), "pixels": -amount})
        }
        A::Screenshot => json!({"action": "screenshot"}),
        A::Wait { seconds } => json!({"action": "wait", "time": seconds}),
        A::Terminate { success } => json!({"action": "terminate",
            "status": if *success { "success" } else { "failure" }}),
        A::CallUser { question } => json!({"action": "call_user", "text": question}),
    }
}

/// A whole number as a JSON integer, anything else as a float.
pub(crate) fn num(v: f64) -> Value {
    if v.fract() == 0.0 && v.abs() < 1e9 {
        json!(v as i64)
    } else {
        json!(v)
    }
}
