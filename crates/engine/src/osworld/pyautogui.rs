//! `computer_use` primitives as the pyautogui code an OSWorld harness sends through `/execute`
//! (`python -c "import pyautogui; …"`). Key names are xdotool's (as the screen takes them) mapped
//! to pyautogui's; text travels as a JSON string literal (valid Python), never spliced raw.

use crate::screen::ComputerAction;

/// The prefix OSWorld's `PythonController` puts before every command.
pub const PREFIX: &str = "import pyautogui; import time; pyautogui.FAILSAFE = False; ";

/// A Python string literal of `s`.
fn lit(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "''".into())
}

/// One xdotool-style key name as pyautogui's.
pub fn key_name(name: &str) -> String {
    let lower = name.to_ascii_lowercase();
    let mapped = match lower.as_str() {
        "return" | "kp_enter" => "enter",
        "escape" => "esc",
        "control" | "control_l" | "control_r" => "ctrl",
        "alt_l" | "alt_r" | "meta" => "alt",
        "shift_l" | "shift_r" => "shift",
        "super" | "super_l" | "super_r" | "cmd" | "windows" => "win",
        "page_up" | "prior" => "pageup",
        "page_down" | "next" => "pagedown",
        "delete" | "del" => "delete",
        "caps_lock" => "capslock",
        "kp_add" | "plus" => "+",
        "minus" => "-",
        other => other,
    };
    // Single characters keep their case (`A` is shift+a to pyautogui, as to a person).
    if name.chars().count() == 1 {
        name.to_string()
    } else {
        mapped.to_string()
    }
}

/// The keys of one chord (`ctrl+shift+t`, `ctrl++`).
fn chord(chord: &str) -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    let mut rest = chord;
    while !rest.is_empty() {
        match rest.find('+') {
            Some(0) => {
                keys.push("+".into());
                rest = rest[1..].trim_start_matches('+');
            }
            Some(i) => {
                keys.push(key_name(&rest[..i]));
                rest = &rest[i + 1..];
            }
            None => {
                keys.push(key_name(rest));
                rest = "";
            }
        }
    }
    keys
}

fn key_list(keys: &[String]) -> String {
    keys.iter().map(|k| lit(k)).collect::<Vec<_>>().join(", ")
}

/// The pyautogui code of `action`, or `None` when it needs none (screenshot, wait, terminate,
/// call_user: the caller handles those).
pub fn code(action: &ComputerAction) -> Option<String> {
    use ComputerAction as A;
    Some(match action {
        A::LeftClick { x, y } => format!("pyautogui.click({x}, {y})"),
        A::RightClick { x, y } => format!("pyautogui.rightClick({x}, {y})"),
        A::MiddleClick { x, y } => format!("pyautogui.middleClick({x}, {y})"),
        A::DoubleClick { x, y } => format!("pyautogui.doubleClick({x}, {y})"),
        A::TripleClick { x, y } => format!("pyautogui.tripleClick({x}, {y})"),
        A::LeftClickDrag { x, y, to_x, to_y } => format!(
            "pyautogui.moveTo({x}, {y}); pyautogui.dragTo({to_x}, {to_y}, duration=0.5, button='left')"
        ),
        A::MouseMove { x, y } => format!("pyautogui.moveTo({x}, {y})"),
        A::LeftMouseDown => "pyautogui.mouseDown(button='left')".into(),
        A::LeftMouseUp => "pyautogui.mouseUp(button='left')".into(),
        A::Type { text } => format!("pyautogui.write({}, interval=0.01)", lit(text)),
        A::Key { key } => key
            .split_whitespace()
            .map(|c| format!("pyautogui.hotkey({})", key_list(&chord(c))))
            .collect::<Vec<_>>()
            .join("; "),
        A::KeyDown { key } => chord(key)
            .iter()
            .map(|k| format!("pyautogui.keyDown({})", lit(k)))
            .collect::<Vec<_>>()
            .join("; "),
        A::KeyUp { key } => chord(key)
            .iter()
            .rev()
            .map(|k| format!("pyautogui.keyUp({})", lit(k)))
            .collect::<Vec<_>>()
            .join("; "),
        // Ours: positive = down/right; pyautogui's vertical scroll: positive = up.
        A::Scroll { x, y, amount } => format!("pyautogui.scroll({}, x={x}, y={y})", -amount),
        A::Hscroll { x, y, amount } => format!("pyautogui.hscroll({amount}, x={x}, y={y})"),
        A::Screenshot | A::Wait { .. } | A::Terminate { .. } | A::CallUser { .. } => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clicks_keys_and_text_become_pyautogui_calls() {
        assert_eq!(
            code(&ComputerAction::LeftClick { x: 3, y: 4 }).unwrap(),
            "pyautogui.click(3, 4)"
        );
        assert_eq!(
            code(&ComputerAction::Key {
                key: "ctrl+shift+t Return".into()
            })
            .unwrap(),
            "pyautogui.hotkey(\"ctrl\", \"shift\", \"t\"); pyautogui.hotkey(\"enter\")"
        );
        assert_eq!(
            code(&ComputerAction::Key {
                key: "ctrl++".into()
            })
            .unwrap(),
            "pyautogui.hotkey(\"ctrl\", \"+\")"
        );
        let t = code(&ComputerAction::Type {
            text: "a\"b'\n\\ ü".into(),
        })
        .unwrap();
        assert_eq!(t, "pyautogui.write(\"a\\\"b'\\n\\\\ ü\", interval=0.01)");
        assert_eq!(
            code(&ComputerAction::Scroll {
                x: 1,
                y: 2,
                amount: 3
            })
            .unwrap(),
            "pyautogui.scroll(-3, x=1, y=2)"
        );
        assert!(code(&ComputerAction::Screenshot).is_none());
    }
}
