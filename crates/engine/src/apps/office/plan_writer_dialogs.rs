//! LibreOffice dialogs in a [`LoPlan`] (issue #31): a dialog opened from its menu and waited for
//! by title, fields found by their caption,
//! typed into and checked against what the accessibility tree shows (typed again when they do
//! not show it), unnamed list boxes opened and their entry clicked by name, OK and the document
//! window waited for again. Nothing is clicked by a guessed position.

use super::{focused, key, node, typed, LoPlan, DIALOG_TIMEOUT_MS};
use crate::rollout::ui_plan::{PlanStep, Target};

/// How long a dialog opened from a menu may take to appear (a loaded machine builds the Page
/// Style dialog's nine tabs slowly).
const DIALOG_OPEN_MS: u64 = 30_000;

/// A target of `ui_oracle_fields` (`labelled_shows`, `labelled_button`, `field_within`, ...).
pub(crate) fn field_target(role: &str, name: &str) -> Target {
    Target::Role {
        role: role.into(),
        name: name.into(),
    }
}

impl LoPlan {
    /// Opens the dialog titled `title` from the menu `top` > `path` (the menu bar waited for,
    /// each item clicked once the tree shows it) and waits for the dialog to have the focus.
    pub(crate) fn dialog(&mut self, top: &str, path: &[&str], title: &str) -> &mut Self {
        // A window that has just opened on a loaded machine shows its menu bar in the tree late.
        self.steps.push(PlanStep::WaitFor {
            target: node(&format!("menu:{top}")),
            timeout_ms: DIALOG_OPEN_MS,
        });
        self.menu(top, path);
        self.steps.push(PlanStep::WaitFor {
            target: focused(title),
            timeout_ms: DIALOG_OPEN_MS,
        });
        self
    }

    /// Shows the dialog's tab `name` (clicked by its name) and waits for it to be selected.
    pub(crate) fn tab(&mut self, name: &str) -> &mut Self {
        self.click(&format!("page tab:{name}"));
        self.steps.push(PlanStep::WaitFor {
            target: node(&format!("page tab:{name}[selected]")),
            timeout_ms: DIALOG_TIMEOUT_MS,
        });
        self
    }

    /// Types `text` into the field captioned `caption` (`Left:`), checks the field shows it
    /// (typing it again when it does not: a click or keys taken late), then leaves the field
    /// with Tab so the dialog takes the value.
    pub(crate) fn field(&mut self, caption: &str, text: &str) -> &mut Self {
        let fill = PlanStep::Fill {
            target: field_target("labelled", caption),
            text: text.into(),
        };
        let shown = field_target("labelled_shows", &format!("{caption}={text}"));
        self.steps.push(fill.clone());
        for _ in 0..2 {
            self.steps.push(PlanStep::UnlessPresent {
                target: shown.clone(),
                steps: vec![fill.clone()],
            });
        }
        self.steps.push(PlanStep::WaitFor {
            target: shown,
            timeout_ms: DIALOG_TIMEOUT_MS,
        });
        self.keys("Tab")
    }

    /// Opens the list box `button` (a `ui_oracle_fields` target) and clicks its entry `item`.
    pub(crate) fn choose(&mut self, button: Target, item: &str) -> &mut Self {
        let entry = node(&format!("table cell|list item|menu item:{item}"));
        self.steps.push(PlanStep::Click { target: button });
        self.steps.push(PlanStep::WaitFor {
            target: entry.clone(),
            timeout_ms: DIALOG_TIMEOUT_MS,
        });
        self.steps.push(PlanStep::Click { target: entry });
        self
    }

    /// Applies the paragraph style `style` through the Apply Style box: Ctrl+F11, then once an
    /// editable field has the focus, select its text and type the name; checked to show the
    /// name (typed again when it does not) before Return applies it.
    pub(crate) fn apply_style_box(&mut self, style: &str) -> &mut Self {
        self.keys("ctrl+F11");
        self.steps.push(PlanStep::WaitFor {
            target: node("text|combo box:[focused]"),
            timeout_ms: DIALOG_TIMEOUT_MS,
        });
        let retype = vec![key("ctrl+a"), typed(style)];
        self.steps.extend(retype.clone());
        let shown = field_target("focused_shows", style);
        for _ in 0..2 {
            self.steps.push(PlanStep::UnlessPresent {
                target: shown.clone(),
                steps: retype.clone(),
            });
        }
        self.steps.push(PlanStep::WaitFor {
            target: shown,
            timeout_ms: DIALOG_TIMEOUT_MS,
        });
        self.keys("Return")
    }

    /// Clicks `target` (a `ui_oracle_fields` target or any other) once it is on screen.
    pub(crate) fn click_on(&mut self, target: Target) -> &mut Self {
        self.steps.push(PlanStep::Click { target });
        self
    }

    /// Presses the dialog's OK button and waits for the document window to have the focus.
    pub(crate) fn ok(&mut self) -> &mut Self {
        self.click("push button:OK");
        let title = self.title.clone();
        self.wait_window(&title)
    }

    /// Waits until the dialog shows the node `spec` (what a step changed: a colour button named
    /// `#C9211E`), the check after a step whose result has no field to compare.
    pub(crate) fn expect(&mut self, spec: &str) -> &mut Self {
        self.steps.push(PlanStep::WaitFor {
            target: node(spec),
            timeout_ms: DIALOG_TIMEOUT_MS,
        });
        self
    }
}
