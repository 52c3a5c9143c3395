//! Impress plan steps checked against the accessibility tree, robust to a slow machine: each
//! edit waits for the object to be selected and for text edit mode before typing, checks that
//! the text landed, and tries again when it did not (keys a busy LibreOffice dropped); dialogs
//! are re-asked for until they show. Built on the shared [`LoPlan`].

use crate::apps::office::{focused, key, node, typed, LoPlan, DIALOG_TIMEOUT_MS, FIND_DIALOG};
use crate::rollout::ui_plan::{PlanStep, Target};

/// How many times an edit or a dialog is tried before the plan misses.
pub(crate) const TRIES: u32 = 3;
/// How long a selection, edit mode or typed text may take to show in the tree.
pub(crate) const SHOW_MS: u64 = 8_000;

/// The window title of the deck at `deck` (a path under the home).
pub(crate) fn doc_title(deck: &str) -> String {
    format!("{} - LibreOffice Impress", deck.rsplit('/').next().unwrap_or(deck))
}

/// Waits up to [`SHOW_MS`] for the node `spec`.
pub(crate) fn wait_node(spec: &str) -> PlanStep {
    PlanStep::WaitFor {
        target: node(spec),
        timeout_ms: SHOW_MS,
    }
}

/// The keys going to slide `n` (1-based) in Normal or Notes view: Escape leaves any
/// selection or text edit, Home shows the first slide, Page Down each next one.
pub(crate) fn goto_keys(n: usize) -> String {
    let mut keys = String::from("Escape Escape Home");
    for _ in 1..n {
        keys.push_str(" Next");
    }
    keys
}

/// The slide pane's page (Normal view: `PageShape: Title`; Notes view: `… (Notes)`).
pub(crate) fn page_node(title: &str, notes: bool) -> String {
    let suffix = if notes { " (Notes)" } else { "" };
    format!("panel:PageShape: {title}{suffix}")
}

/// Where an edit happens: the slide (`goto` keys, `None` = the slide shown now, and the page
/// the tree must show then, when known), and the object the `tabs` Tab presses select
/// (`object`: its accessible name, or empty for any object).
pub(crate) struct Spot<'a> {
    /// Keys that show the slide.
    pub goto: Option<String>,
    /// The page node that must show after them (`None`: not checked).
    pub page: Option<String>,
    /// Tab presses selecting the object.
    pub tabs: usize,
    /// The object's accessible name (`Title 1`, `PresentationNotes`; `Title *`: any name
    /// starting so), empty for any.
    pub object: &'a str,
    /// The state the object shows once Tab reached it: `focused`, or `selected` where
    /// LibreOffice leaves a stale `focused` on every object of the slide (a duplicated slide).
    pub state: &'a str,
}

/// Shows slide `n` (1-based) by keys and waits for its `page` node, the keys pressed again
/// when the page did not show (keys sent while a closing dialog still held the keyboard were
/// lost, measured): the keys name the slide from the first, so a second press is harmless.
/// The first press is unconditional, even when the page already shows (a plan that began with
/// Slide Properties on the slide shown at start crashed LibreOffice at OK, twice; with the keys
/// first it did not).
pub(crate) fn show_slide(plan: &mut LoPlan, keys: &str, page: &str) {
    plan.keys(keys);
    plan.steps.push(PlanStep::Retry {
        until: node(page),
        tries: TRIES,
        timeout_ms: SHOW_MS,
        steps: vec![key(keys)],
    });
}

/// Shows the spot's slide, checked in the tree, before the edit's retry: keys switching slides
/// inside it raced the switch (Tab selected an object of the slide being left).
fn goto(plan: &mut LoPlan, spot: &Spot<'_>) {
    match (&spot.goto, &spot.page) {
        (Some(keys), Some(page)) => show_slide(plan, keys, page),
        (Some(keys), None) => {
            plan.keys(keys);
        }
        (None, Some(page)) => plan.steps.push(wait_node(page)),
        (None, None) => {}
    }
}

/// The steps selecting the spot's object on the slide shown: leave any edit or selection, Tab
/// until the object shows the spot's state.
fn selecting(spot: &Spot<'_>) -> Vec<PlanStep> {
    vec![
        key("Escape Escape"),
        key(&vec!["Tab"; spot.tabs.max(1)].join(" ")),
        wait_node(&format!("panel:{}[{}]", spot.object, spot.state)),
    ]
}

/// Retypes the text of the object at `spot` as `lines` (Return between them): the slide, then
/// tried until the last line shows as a paragraph: Tab until the object is focused, F2 until a
/// paragraph is in edit mode, select all, type; then leaves text edit.
pub(crate) fn retype(plan: &mut LoPlan, spot: &Spot<'_>, lines: &[&str]) {
    let Some(last) = lines.last() else {
        return;
    };
    goto(plan, spot);
    let mut steps = selecting(spot);
    steps.push(key("F2"));
    steps.push(wait_node("paragraph:[focused]"));
    steps.push(key("ctrl+a"));
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            steps.push(key("Return"));
        }
        steps.push(typed(line));
    }
    plan.steps.push(PlanStep::Retry {
        until: node(&format!("paragraph:{last}")),
        tries: TRIES,
        timeout_ms: SHOW_MS,
        steps,
    });
    plan.keys("Escape");
}

/// Selects the object at `spot` (checked in the tree), tried again until it is focused.
pub(crate) fn select(plan: &mut LoPlan, spot: &Spot<'_>) {
    goto(plan, spot);
    let mut steps = selecting(spot);
    steps.pop();
    plan.steps.push(PlanStep::Retry {
        until: node(&format!("panel:{}[{}]", spot.object, spot.state)),
        tries: TRIES,
        timeout_ms: SHOW_MS,
        steps,
    });
}

/// Presses `chord` until the window titled `title` has the focus (a dialog a busy application
/// did not open at the first press).
pub(crate) fn open_dialog(plan: &mut LoPlan, chord: &str, title: &str) {
    plan.steps.push(PlanStep::Retry {
        until: focused(title),
        tries: TRIES,
        timeout_ms: DIALOG_TIMEOUT_MS,
        steps: vec![key(chord)],
    });
}

/// Impress's Find & Replace with Replace All, the dialog asked for until it shows: `find` with
/// Match case ticked, `replace`, Replace All (5 tabs: no Find All), then closed until the deck
/// `doc_title` has the focus again.
pub(crate) fn replace_all(plan: &mut LoPlan, doc_title: &str, find: &str, replace: &str) {
    open_dialog(plan, "ctrl+h", FIND_DIALOG);
    plan.keys("ctrl+a")
        .text(find)
        .keys("Tab Tab space Tab Tab ctrl+a")
        .text(replace)
        .keys("Tab Tab Tab Tab Tab Return Escape");
    plan.steps.push(PlanStep::Retry {
        until: focused(doc_title),
        tries: TRIES,
        timeout_ms: DIALOG_TIMEOUT_MS,
        steps: vec![key("Escape")],
    });
}

/// Clicks the menu `top`, then each label of `path` (submenus, the last an item), the whole
/// walk tried again when a menu did not open in time, until `until` shows.
pub(crate) fn menu_until(plan: &mut LoPlan, top: &str, path: &[&str], until: Target) {
    let mut steps = vec![PlanStep::Click {
        target: node(&format!("menu:{top}")),
    }];
    for (i, label) in path.iter().enumerate() {
        let kind = if i + 1 == path.len() {
            "menu item|check menu item|radio menu item"
        } else {
            "menu"
        };
        steps.push(PlanStep::Click {
            target: node(&format!("{kind}:{label}")),
        });
    }
    plan.steps.push(PlanStep::Retry {
        until,
        tries: TRIES,
        timeout_ms: DIALOG_TIMEOUT_MS,
        steps,
    });
}
