//! `uitars`: UI-TARS's text actions after a `Thought:` line, one call per line (or separated by
//! blank lines), points as `(x,y)`, `(x1,y1,x2,y2)` boxes (their centre), `<point>x y</point>` or
//! with `<|box_start|>`/`<|box_end|>` markers:
//!
//! ```text
//! Thought: The Send button is at the bottom.
//! Action: click(start_box='(412,318)')
//! ```
//!
//! Calls: `click`, `left_single`, `left_double`, `left_triple`, `right_single`, `middle_single`,
//! `hover`, `drag(start_box, end_box)`, `hotkey(key='ctrl c')`, `press(key)`, `keydown(key)`,
//! `keyup(key)`, `type(content)`, `scroll(start_box, direction)`, `wait()`, `finished(content)`,
//! `call_user()`.

use std::collections::HashMap;

use super::coords::Coords;
use super::error::{bad_reply, ReplyError};
use super::MAX_ACTIONS_PER_TURN;
use crate::rollout::screen::ComputerAction;

/// Splits `name(k='v', k2="v2")` into the name and its keyword arguments.
fn split_call(src: &str) -> Result<(String, HashMap<String, String>), ReplyError> {
    let src = src.trim();
    let open = src
        .find('(')
        .ok_or_else(|| bad_reply!("`{src}` is not a call like click(start_box='(x,y)')"))?;
    let name = src[..open].trim().to_string();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(bad_reply!("`{src}` does not start with an action name"));
    }
    let mut args = HashMap::new();
    let mut chars = src[open + 1..].chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace() || *c == ',') {
            chars.next();
        }
        match chars.peek() {
            None => return Err(bad_reply!("`{src}`: missing `)`")),
            Some(')') => break,
            _ => {}
        }
        let key: String = chars
            .by_ref()
            .take_while(|c| *c != '=')
            .collect::<String>()
            .trim()
            .to_string();
        if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(bad_reply!("`{src}`: arguments must be written key='value'"));
        }
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let quote = match chars.next() {
            Some(q @ ('\'' | '"')) => q,
            _ => return Err(bad_reply!("`{src}`: the value of {key} must be quoted")),
        };
        let mut value = String::new();
        let mut closed = false;
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some('n') => value.push('\n'),
                    Some('t') => value.push('\t'),
                    Some(other) => value.push(other),
                    None => break,
                },
                c if c == quote => {
                    closed = true;
                    break;
                }
                c => value.push(c),
            }
        }
        if !closed {
            return Err(bad_reply!(
                "`{src}`: the value of {key} is not closed with {quote}"
            ));
        }
        args.insert(key, value);
    }
    Ok((name, args))
}

/// The numbers in a point or box argument, as a point in the model's units.
fn point_of(raw: &str, key: &str, coords: &Coords) -> Result<(i32, i32), ReplyError> {
    let nums: Vec<f64> = raw
        .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<f64>()
                .map_err(|_| bad_reply!("{key}: `{s}` is not a number"))
        })
        .collect::<Result<_, _>>()?;
    let (x, y) = match nums.as_slice() {
        [x, y] => (*x, *y),
        [x1, y1, x2, y2] => ((x1 + x2) / 2.0, (y1 + y2) / 2.0),
        _ => {
            return Err(bad_reply!(
                "{key} must be '(x,y)' or '(x1,y1,x2,y2)', got '{raw}'"
            ))
        }
    };
    coords.to_screen(x, y).map_err(ReplyError::coords(key))
}

/// One call → one action.
fn action(src: &str, coords: &Coords) -> Result<ComputerAction, ReplyError> {
    use ComputerAction as A;
    let (name, args) = split_call(src)?;
    let get = |keys: &[&'static str]| -> Option<(&'static str, &str)> {
        keys.iter()
            .find_map(|k| args.get(*k).map(|v| (*k, v.as_str())))
    };
    let at = |keys: &[&'static str]| -> Result<(i32, i32), ReplyError> {
        let (k, v) = get(keys).ok_or_else(|| bad_reply!("{name} needs {}='(x,y)'", keys[0]))?;
        point_of(v, k, coords)
    };
    let start = ["start_box", "point", "start_point"];
    let keys = |v: &str| v.split_whitespace().collect::<Vec<_>>().join("+");
    Ok(match name.as_str() {
        "click" | "left_single" => {
            let (x, y) = at(&start)?;
            A::LeftClick { x, y }
        }
        "left_double" | "double_click" => {
            let (x, y) = at(&start)?;
            A::DoubleClick { x, y }
        }
        "left_triple" => {
            let (x, y) = at(&start)?;
            A::TripleClick { x, y }
        }
        "right_single" => {
            let (x, y) = at(&start)?;
            A::RightClick { x, y }
        }
        "middle_single" => {
            let (x, y) = at(&start)?;
            A::MiddleClick { x, y }
        }
        "hover" | "mouse_move" => {
            let (x, y) = at(&start)?;
            A::MouseMove { x, y }
        }
        "drag" | "select" => {
            let (x, y) = at(&start)?;
            let (to_x, to_y) = at(&["end_box", "end_point"])?;
            A::LeftClickDrag { x, y, to_x, to_y }
        }
        "hotkey" | "press" => A::Key {
            key: keys(
                get(&["key", "hotkey"])
                    .ok_or(format!("{name} needs key='...'"))?
                    .1,
            ),
        },
        "keydown" => A::KeyDown {
            key: keys(get(&["key"]).ok_or("keydown needs key='...'")?.1),
        },
        "keyup" => A::KeyUp {
            key: keys(get(&["key"]).ok_or("keyup needs key='...'")?.1),
        },
        "type" => A::Type {
            text: get(&["content", "text"])
                .ok_or("type needs content='...'")?
                .1
                .to_string(),
        },
        "scroll" => {
            let (x, y) = if get(&start).is_some() {
                at(&start)?
            } else {
                ((coords.screen_w / 2) as i32, (coords.screen_h / 2) as i32)
            };
            let dir = get(&["direction"])
                .ok_or("scroll needs direction='up|down|left|right'")?
                .1;
            match dir.trim() {
                "down" => A::Scroll { x, y, amount: 5 },
                "up" => A::Scroll { x, y, amount: -5 },
                "right" => A::Hscroll { x, y, amount: 5 },
                "left" => A::Hscroll { x, y, amount: -5 },
                other => {
                    return Err(bad_reply!(
                        "scroll direction must be up, down, left or right, got '{other}'"
                    ))
                }
            }
        }
        "wait" => A::Wait { seconds: 5.0 },
        "finished" => A::Terminate { success: true },
        "call_user" => A::CallUser {
            question: get(&["content"])
                .map(|(_, v)| v.to_string())
                .unwrap_or_default(),
        },
        other => {
            return Err(bad_reply!(
                "unknown action {other}() (click, left_double, left_triple, right_single, \
                 middle_single, hover, drag, hotkey, press, keydown, keyup, type, scroll, wait, \
                 finished, call_user)"
            ))
        }
    })
}

/// Every action after `Action:` in the reply.
pub fn parse(reply: &str, coords: &Coords) -> Result<Vec<ComputerAction>, ReplyError> {
    let Some(idx) = reply.find("Action:") else {
        return Err(
            "no `Action:` line; reply as\nThought: ...\nAction: click(start_box='(x,y)')".into(),
        );
    };
    let body = &reply[idx + "Action:".len()..];
    let mut out = Vec::new();
    let mut pending = String::new();
    for line in body.lines().map(str::trim) {
        let line = line.strip_prefix("Action:").map(str::trim).unwrap_or(line);
        if line.is_empty() && pending.is_empty() {
            continue;
        }
        if !pending.is_empty() {
            pending.push('\n');
        }
        pending.push_str(line);
        // A call ends at a `)` outside quotes: try to parse what is pending.
        if pending.ends_with(')') {
            if let Ok(a) = action(&pending, coords) {
                out.push(a);
                pending.clear();
            }
        }
        if out.len() > MAX_ACTIONS_PER_TURN {
            return Err(bad_reply!(
                "more than {MAX_ACTIONS_PER_TURN} actions in one turn"
            ));
        }
    }
    if !pending.trim().is_empty() {
        // Report the real parse error of what is left.
        return Err(action(&pending, coords)
            .err()
            .unwrap_or_else(|| bad_reply!("cannot read `{pending}`")));
    }
    if out.is_empty() {
        return Err("`Action:` is followed by no action".into());
    }
    Ok(out)
}

fn pt(coords: &Coords, x: i32, y: i32) -> String {
    let (mx, my) = coords.to_model(x, y);
    format!("'({mx},{my})'")
}

/// One turn in this format.
pub fn render(thought: &str, actions: &[ComputerAction], coords: &Coords) -> String {
    use ComputerAction as A;
    let esc = |s: &str| {
        s.replace('\\', "\\\\")
            .replace('\'', "\\'")
            .replace('\n', "\\n")
    };
    let calls: Vec<String> = actions
        .iter()
        .map(|a| match a {
            A::LeftClick { x, y } => format!("click(start_box={})", pt(coords, *x, *y)),
            A::DoubleClick { x, y } => format!("left_double(start_box={})", pt(coords, *x, *y)),
            A::TripleClick { x, y } => format!("left_triple(start_box={})", pt(coords, *x, *y)),
            A::RightClick { x, y } => format!("right_single(start_box={})", pt(coords, *x, *y)),
            A::MiddleClick { x, y } => format!("middle_single(start_box={})", pt(coords, *x, *y)),
            A::MouseMove { x, y } => format!("hover(start_box={})", pt(coords, *x, *y)),
            A::LeftClickDrag { x, y, to_x, to_y } => format!(
                "drag(start_box={}, end_box={})",
                pt(coords, *x, *y),
                pt(coords, *to_x, *to_y)
            ),
            A::Key { key } => format!("hotkey(key='{}')", esc(&key.replace('+', " "))),
            A::KeyDown { key } => format!("keydown(key='{}')", esc(key)),
            A::KeyUp { key } => format!("keyup(key='{}')", esc(key)),
            A::Type { text } => format!("type(content='{}')", esc(text)),
            A::Scroll { x, y, amount } => format!(
                "scroll(start_box={}, direction='{}')",
                pt(coords, *x, *y),
                if *amount > 0 { "down" } else { "up" }
            ),
            A::Hscroll { x, y, amount } => format!(
                "scroll(start_box={}, direction='{}')",
                pt(coords, *x, *y),
                if *amount > 0 { "right" } else { "left" }
            ),
            A::Wait { .. } | A::Screenshot | A::LeftMouseDown | A::LeftMouseUp => "wait()".into(),
            A::Terminate { .. } => "finished(content='')".into(),
            A::CallUser { question } => format!("call_user(content='{}')", esc(question)),
        })
        .collect();
    format!("Thought: {thought}\nAction: {}", calls.join("\n\n"))
}
