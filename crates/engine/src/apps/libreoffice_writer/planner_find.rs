//! Writer's Find & Replace with every step checked in the accessibility tree (issue #31): the
//! dialog asked for with Ctrl+H until its window has the focus, each field clicked by its caption
//! (`Find:`, `Replace:`) and typed into until it shows exactly the text (a click puts the keyboard
//! in the field: keys sent while a fresh dialog had the window focus but not yet the keyboard
//! went to the document), Match case ticked until it shows checked, Find All / Replace All and
//! Close clicked by name, and the document window waited for until it has the focus again.
//! Nothing in the dialog is reached by counting Tabs.

use crate::apps::office::plan_writer_dialogs::field_target;
use crate::apps::office::{focused, key, node, LoPlan, DIALOG_TIMEOUT_MS, FIND_DIALOG};
use crate::rollout::ui_plan::{PlanStep, Target};

/// How many times a step of the dialog is tried before the plan misses.
const TRIES: u32 = 3;
/// How long a field or a check box may take to show what a try did.
const SHOW_MS: u64 = 5_000;

/// What a Find & Replace run does once the phrase is in the Find field.
pub(super) enum Then<'a> {
    /// Find All: the document's selection becomes every occurrence.
    FindAll,
    /// Replace All with this text.
    ReplaceAll(&'a str),
}

/// Whether the option `label` (a check box of the dialog) is ticked: `[checked]` or `[!checked]`.
fn ticked(label: &str, on: bool) -> Target {
    node(&format!("check box:{label}[{}checked]", if on { "" } else { "!" }))
}

/// Ticks the dialog's check box `label` until it shows checked (a no-op when it is already).
fn tick(plan: &mut LoPlan, label: &str) {
    plan.steps.push(PlanStep::Retry {
        until: ticked(label, true),
        tries: TRIES,
        timeout_ms: SHOW_MS,
        steps: vec![PlanStep::Click {
            target: ticked(label, false),
        }],
    });
}

/// Clicks the field captioned `caption` and types `text` into it until it shows exactly `text`.
fn fill(plan: &mut LoPlan, caption: &str, text: &str) {
    plan.steps.push(PlanStep::Retry {
        until: field_target("labelled_shows", &format!("{caption}={text}")),
        tries: TRIES,
        timeout_ms: SHOW_MS,
        steps: vec![PlanStep::Fill {
            target: field_target("labelled", caption),
            text: text.into(),
        }],
    });
}

/// Opens Find & Replace (Ctrl+H until its window has the focus).
fn open(plan: &mut LoPlan) {
    plan.steps.push(PlanStep::Retry {
        until: focused(FIND_DIALOG),
        tries: TRIES + 1,
        timeout_ms: DIALOG_TIMEOUT_MS,
        steps: vec![key("ctrl+h")],
    });
}

/// Clicks Close until the document window `title` has the focus again.
fn close(plan: &mut LoPlan, title: &str) {
    plan.steps.push(PlanStep::Retry {
        until: focused(title),
        tries: TRIES,
        timeout_ms: DIALOG_TIMEOUT_MS,
        steps: vec![PlanStep::Click {
            target: node("push button:Close"),
        }],
    });
}

/// Finds `phrase` (Match case on) in the document titled `title`, then Find All or Replace All;
/// closes the dialog and waits until the document has the focus.
pub(super) fn find(plan: &mut LoPlan, title: &str, phrase: &str, then: Then<'_>) {
    open(plan);
    fill(plan, "Find:", phrase);
    tick(plan, "Match case");
    match then {
        Then::FindAll => {
            plan.click("push button:Find All");
        }
        Then::ReplaceAll(new) => {
            fill(plan, "Replace:", new);
            plan.click("push button:Replace All");
        }
    }
    close(plan, title);
}

/// `text` as a literal inside an ICU regular expression (LibreOffice's Find with Regular
/// expressions on).
pub(super) fn regex_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if "\\^$.|?*+()[]{}".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `text` as a literal in the Replace field with Regular expressions on (`&` is the match, `$n`
/// a group and `\` an escape there).
pub(super) fn replace_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if "\\&$".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Inserts `text` as a new paragraph right after the paragraph holding `anchor`, in the dialog
/// alone: Regular expressions on (under Other options), Find `anchor.*$` (to the paragraph's
/// end), Replace All with `&\n<text>` (`&` keeps the paragraph, `\n` in Replace is a paragraph
/// break). No key is pressed in the document, so no caret position has to be trusted.
pub(super) fn insert_after(plan: &mut LoPlan, title: &str, anchor: &str, text: &str) {
    open(plan);
    // The options under the expander show only once it is expanded.
    plan.steps.push(PlanStep::Retry {
        until: node("check box:Regular expressions"),
        tries: TRIES,
        timeout_ms: SHOW_MS,
        steps: vec![PlanStep::Click {
            target: node("toggle button|push button:Other options"),
        }],
    });
    tick(plan, "Regular expressions");
    fill(plan, "Find:", &format!("{}.*$", regex_literal(anchor)));
    tick(plan, "Match case");
    fill(plan, "Replace:", &format!("&\\n{}", replace_literal(text)));
    plan.click("push button:Replace All");
    close(plan, title);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_escape_what_the_regex_and_replace_fields_read_specially() {
        assert_eq!(regex_literal("Q3 (final) 1.5$"), r"Q3 \(final\) 1\.5\$");
        assert_eq!(replace_literal(r"R&D costs $5 \ 2"), r"R\&D costs \$5 \\ 2");
        assert_eq!(regex_literal("Core hours are"), "Core hours are");
    }
}
