//! The Filter screen's inputs: a one-line reason prompt (every decision needs one) and the
//! in-place instruction editor of modify_query (ratatui-textarea), prefilled with the best revised
//! query of the votes — or the original instruction when no critic proposed one.

use ratatui_textarea::{Input, Key as TaKey, TextArea, WrapMode};

use crate::filter_data::FilterData;
use crate::keymap::{Code, Key};
use tuplewright_records::filter::Action as Decision;

/// Where the editor's starting text came from (shown above it).
#[derive(Debug, Clone, PartialEq)]
pub enum Prefill {
    /// The highest-confidence modify_query vote.
    BestRevision {
        /// Its critic.
        critic: String,
        /// Its confidence.
        confidence: f64,
    },
    /// No vote proposed a revision: the original instruction.
    Original,
}

/// The open input, if any.
#[derive(Debug, Clone, Default)]
pub enum Prompt {
    /// Nothing open.
    #[default]
    None,
    /// The reason line for a decision.
    Reason {
        /// The tuple.
        task_id: String,
        /// The decision (modify_query carries the edited instruction).
        action: Decision,
        /// Typed so far.
        input: String,
    },
    /// The instruction editor of modify_query.
    Editor {
        /// The tuple.
        task_id: String,
        /// The editor.
        editor: Box<TextArea<'static>>,
        /// Where its text came from.
        prefill: Prefill,
    },
}

/// What a key did to the prompt.
#[derive(Debug, Clone, PartialEq)]
pub enum PromptOutcome {
    /// Still typing.
    Editing,
    /// Closed without deciding.
    Cancelled,
    /// Something to tell the user; the prompt stays open.
    Notice(String),
    /// Ready to send.
    Confirmed {
        /// The tuple.
        task_id: String,
        /// The decision.
        action: Decision,
        /// The reason.
        reason: String,
    },
}

impl Prompt {
    /// A reason prompt for `action` on `task_id`.
    pub fn reason(task_id: String, action: Decision) -> Self {
        Prompt::Reason {
            task_id,
            action,
            input: String::new(),
        }
    }

    /// The modify_query editor for a tuple, prefilled with the best revised query.
    pub fn editor(d: &FilterData) -> Self {
        let (text, prefill) = match &d.best_revision {
            Some(b) => (
                b.query.clone(),
                Prefill::BestRevision {
                    critic: b.critic.clone(),
                    confidence: b.confidence,
                },
            ),
            None => (d.instruction.clone(), Prefill::Original),
        };
        let mut editor = TextArea::new(text.lines().map(str::to_string).collect());
        editor.set_wrap_mode(WrapMode::WordOrGlyph);
        editor.move_cursor(ratatui_textarea::CursorMove::Bottom);
        editor.move_cursor(ratatui_textarea::CursorMove::End);
        Prompt::Editor {
            task_id: d.task_id.clone(),
            editor: Box::new(editor),
            prefill,
        }
    }

    /// The editor's text (empty when no editor is open).
    pub fn editor_text(&self) -> String {
        match self {
            Prompt::Editor { editor, .. } => editor.lines().join("\n"),
            _ => String::new(),
        }
    }

    /// Applies one key: Esc cancels; the reason line confirms with Enter, the editor with ctrl-s
    /// (Enter there starts a new line).
    pub fn key(&mut self, k: Key) -> PromptOutcome {
        if k.code == Code::Esc {
            return PromptOutcome::Cancelled;
        }
        match self {
            Prompt::None => PromptOutcome::Cancelled,
            Prompt::Reason {
                task_id,
                action,
                input,
            } => match k.code {
                Code::Enter if input.trim().is_empty() => PromptOutcome::Notice(
                    "a reason is required (it is recorded with the decision)".into(),
                ),
                Code::Enter => PromptOutcome::Confirmed {
                    task_id: task_id.clone(),
                    action: action.clone(),
                    reason: input.trim().to_string(),
                },
                Code::Backspace => {
                    input.pop();
                    PromptOutcome::Editing
                }
                Code::Char(c) if !k.ctrl && !k.alt => {
                    input.push(c);
                    PromptOutcome::Editing
                }
                _ => PromptOutcome::Editing,
            },
            Prompt::Editor {
                task_id, editor, ..
            } => {
                if k.ctrl && k.code == Code::Char('s') {
                    let text = editor.lines().join("\n").trim().to_string();
                    if text.is_empty() {
                        return PromptOutcome::Notice("the new instruction is empty".into());
                    }
                    *self = Prompt::reason(task_id.clone(), Decision::ModifyQuery(text));
                    return PromptOutcome::Editing;
                }
                editor.input(to_input(k));
                PromptOutcome::Editing
            }
        }
    }
}

/// The workbench key as ratatui-textarea input.
fn to_input(k: Key) -> Input {
    let (key, shift) = match k.code {
        Code::Char(c) => (TaKey::Char(c), c.is_uppercase()),
        Code::Enter => (TaKey::Enter, false),
        Code::Esc => (TaKey::Esc, false),
        Code::Tab => (TaKey::Tab, false),
        Code::BackTab => (TaKey::Tab, true),
        Code::Backspace => (TaKey::Backspace, false),
        Code::Up => (TaKey::Up, false),
        Code::Down => (TaKey::Down, false),
        Code::Left => (TaKey::Left, false),
        Code::Right => (TaKey::Right, false),
        Code::PageUp => (TaKey::PageUp, false),
        Code::PageDown => (TaKey::PageDown, false),
        Code::Home => (TaKey::Home, false),
        Code::End => (TaKey::End, false),
        Code::F(n) => (TaKey::F(n), false),
    };
    Input {
        key,
        ctrl: k.ctrl,
        alt: k.alt,
        shift,
    }
}
