//! What the filmstrip and the live trial read: one step's frame — the screenshot taken after it,
//! or, for a step without one (a model's action inside a batch, `terminate`), the latest earlier
//! screenshot, which is what the screen showed when the action ran — decoded off the UI thread,
//! scaled, with the step's action drawn on it ([`super::marker`]) before it is encoded.

use serde_json::Value;

use tuplewright_base::store::{ScreenshotRef, Store, StoredStep};

use super::rollouts_data::{decode_scaled, Screenshot};

/// Identifies a frame for the image cache: (trial row id, step seq) for a stored trial;
/// ([`LIVE`], event seq) for a live step.
pub type FrameKey = (i64, i64);
/// The first half of a live frame's key.
pub const LIVE: i64 = -1;

/// A frame to load: the screenshot `sha` with `action` marked on it.
#[derive(Debug, Clone, PartialEq)]
pub struct FrameRequest {
    /// Cache key.
    pub key: FrameKey,
    /// The screenshot's sha256 (a file of the store's screenshot directory).
    pub sha: String,
    /// The step's action (`ComputerAction` JSON) to mark.
    pub action: Value,
}

/// A loaded frame.
#[derive(Debug, Clone)]
pub struct Frame {
    /// Its key.
    pub key: FrameKey,
    /// The marked image, or why it could not be read.
    pub shot: Screenshot,
    /// Whether the action was drawn (clicks, drags, moves, scrolls).
    pub marked: bool,
}

/// Reads, decodes, scales and marks one frame.
pub fn load_frame(store: &Store, req: &FrameRequest) -> Frame {
    let path = match store.screenshots().path_of(&req.sha) {
        Ok(p) => p,
        Err(e) => {
            return Frame {
                key: req.key,
                shot: Screenshot::Error(req.sha.clone().into(), e.to_string()),
                marked: false,
            }
        }
    };
    match decode_scaled(&path) {
        Ok((mut img, scale)) => {
            let marked = super::marker::draw_action(&mut img, &req.action, scale);
            Frame {
                key: req.key,
                shot: Screenshot::Image(path, img),
                marked,
            }
        }
        Err(e) => Frame {
            key: req.key,
            shot: Screenshot::Error(path, e),
            marked: false,
        },
    }
}

/// The frame of step `i`: its own screenshot or the latest earlier one, with the index of the
/// step that took it.
pub fn frame_of(steps: &[StoredStep], i: usize) -> Option<(usize, &ScreenshotRef)> {
    steps
        .get(..=i.min(steps.len().saturating_sub(1)))?
        .iter()
        .enumerate()
        .rev()
        .find_map(|(k, s)| s.screenshot.as_ref().map(|r| (k, r)))
}

/// The model turn that made step `i` (its record in the trial's `actions`: reply, tokens,
/// errors), for model policies. Turns are matched to steps in order: a VLM trial opens with the
/// first observation (a `screenshot` at 0 ms, no turn); each turn's actions then ran one by one
/// until one failed or ended the episode; a turn whose reply could not be parsed ran none.
pub fn turn_of<'a>(detail: &'a Value, steps: &[StoredStep], i: usize) -> Option<&'a Value> {
    let turns = detail.get("actions")?.as_array()?;
    if !turns.iter().any(|t| t.get("reply").is_some()) {
        return None;
    }
    let mut k = usize::from(
        steps
            .first()
            .is_some_and(|s| s.at_ms == 0 && s.action.get("action") == Some(&"screenshot".into())),
    );
    for t in turns {
        let actions = t.get("actions").and_then(Value::as_array);
        for a in actions.into_iter().flatten() {
            let Some(s) = steps.get(k).filter(|s| s.action == *a) else {
                break;
            };
            if k == i {
                return Some(t);
            }
            k += 1;
            if s.error.is_some() {
                break;
            }
        }
    }
    None
}

/// An action in a few words: `left_click (120, 48)`, `type "Friday 3pm"`, `key ctrl+s`.
pub fn action_text(action: &Value) -> String {
    let name = action
        .get("action")
        .and_then(Value::as_str)
        .unwrap_or("?")
        .to_string();
    let int = |k: &str| action.get(k).and_then(Value::as_i64);
    let text = |k: &str| action.get(k).and_then(Value::as_str);
    let rest = match (int("x"), int("y"), int("to_x"), int("to_y")) {
        (Some(x), Some(y), Some(tx), Some(ty)) => format!(" ({x}, {y}) → ({tx}, {ty})"),
        (Some(x), Some(y), ..) => match int("amount") {
            Some(a) => format!(" ({x}, {y}) by {a}"),
            None => format!(" ({x}, {y})"),
        },
        _ => match (text("text"), text("key"), text("question")) {
            (Some(t), ..) => format!(" {}", serde_json::Value::from(t)),
            (_, Some(k), _) => format!(" {k}"),
            (.., Some(q)) => format!(" {}", serde_json::Value::from(q)),
            _ => match (
                action.get("success").and_then(Value::as_bool),
                action.get("seconds").and_then(Value::as_f64),
            ) {
                (Some(ok), _) => format!(" ({})", if ok { "success" } else { "failure" }),
                (_, Some(s)) => format!(" {s} s"),
                _ => String::new(),
            },
        },
    };
    format!("{name}{rest}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn step(seq: u32, shot: Option<&str>) -> StoredStep {
        StoredStep {
            seq,
            action: json!({"action": "wait", "seconds": 1.0}),
            at_ms: 0,
            duration_ms: 0,
            error: None,
            settle_ms: None,
            screenshot: shot.map(|s| ScreenshotRef {
                sha256: s.into(),
                bytes: 1,
                width: 10,
                height: 10,
            }),
        }
    }

    #[test]
    fn a_step_without_a_screenshot_shows_the_latest_earlier_one() {
        let steps = [step(0, Some("a")), step(1, None), step(2, Some("c"))];
        assert_eq!(
            frame_of(&steps, 0).map(|(k, r)| (k, r.sha256.as_str())),
            Some((0, "a"))
        );
        assert_eq!(frame_of(&steps, 1).map(|(k, _)| k), Some(0));
        assert_eq!(frame_of(&steps, 2).map(|(k, _)| k), Some(2));
        assert_eq!(frame_of(&steps, 9).map(|(k, _)| k), Some(2), "clamped");
        assert!(frame_of(&[step(0, None)], 0).is_none());
        assert!(frame_of(&[], 0).is_none());
    }

    #[test]
    fn steps_map_to_the_turns_that_made_them() {
        let click = json!({"action": "left_click", "x": 1, "y": 2});
        let key = json!({"action": "key", "key": "Return"});
        let first = StoredStep {
            action: json!({"action": "screenshot"}),
            ..step(0, Some("a"))
        };
        let mut failed = StoredStep {
            action: click.clone(),
            ..step(2, None)
        };
        failed.error = Some("coordinate outside the screen".into());
        let steps = [
            first,
            StoredStep {
                action: click.clone(),
                at_ms: 5,
                ..step(1, None)
            },
            failed,
            StoredStep {
                action: key.clone(),
                at_ms: 9,
                ..step(3, None)
            },
        ];
        let detail = json!({"actions": [
            {"turn": 1, "reply": "r1", "actions": [click.clone()]},
            {"turn": 2, "reply": "bad", "parse_error": "no tool call"},
            {"turn": 3, "reply": "r3", "actions": [click, key.clone()]},
            {"turn": 4, "reply": "r4", "actions": [key]},
        ]});
        let turn = |i| turn_of(&detail, &steps, i).and_then(|t| t["turn"].as_u64());
        assert_eq!(turn(0), None, "the first observation is no turn's");
        assert_eq!(turn(1), Some(1));
        assert_eq!(
            turn(2),
            Some(3),
            "the failed action ends turn 3; its key never ran"
        );
        assert_eq!(turn(3), Some(4));
        assert_eq!(
            turn_of(&json!({"actions": [{"run": "x"}]}), &steps, 1),
            None
        );
    }

    #[test]
    fn actions_read_as_a_person_would_write_them() {
        let t = |v: Value| action_text(&v);
        assert_eq!(
            t(json!({"action": "left_click", "x": 1, "y": 2})),
            "left_click (1, 2)"
        );
        assert_eq!(
            t(json!({"action": "left_click_drag", "x": 1, "y": 2, "to_x": 3, "to_y": 4})),
            "left_click_drag (1, 2) → (3, 4)"
        );
        assert_eq!(
            t(json!({"action": "scroll", "x": 1, "y": 2, "amount": -3})),
            "scroll (1, 2) by -3"
        );
        assert_eq!(
            t(json!({"action": "type", "text": "a\"b"})),
            r#"type "a\"b""#
        );
        assert_eq!(t(json!({"action": "key", "key": "ctrl+s"})), "key ctrl+s");
        assert_eq!(
            t(json!({"action": "terminate", "success": true})),
            "terminate (success)"
        );
        assert_eq!(t(json!({"action": "screenshot"})), "screenshot");
    }
}
