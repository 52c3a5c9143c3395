//! Code shared by the LibreOffice packs (Writer, Impress): keyboard-first plans through
//! LibreOffice's own UI ([`LoPlan`]: the Find & Replace dialog, formatting shortcuts, Ctrl+S, each
//! dialog step waiting for the focused window's title), slot readers, and recipes that draw a
//! pack's shipped task of a template ([`from_shipped`]). Not a pack: it names no app.

pub(crate) mod plan_writer_dialogs;

use serde_json::Value;

use crate::agents::TaskBrief;
use crate::rollout::ui_plan::{PlanStep, Target};
use crate::taskgen::recipes::{Ctx, Draft};

/// The Find & Replace dialog's window title.
pub(crate) const FIND_DIALOG: &str = "Find and Replace";
/// How long LibreOffice may take to show the document (first start of a fresh profile).
pub(crate) const OPEN_TIMEOUT_MS: u64 = 60_000;
/// How long a save may take to reach the disk.
pub(crate) const SAVE_TIMEOUT_MS: u64 = 30_000;
/// How long a dialog may take to appear or close.
pub(crate) const DIALOG_TIMEOUT_MS: u64 = 10_000;

pub(crate) fn focused(title: &str) -> Target {
    Target::Role {
        role: "focused_window".into(),
        name: title.into(),
    }
}

/// An accessible node of the application (`role:label`).
pub(crate) fn node(spec: &str) -> Target {
    Target::Role {
        role: "node".into(),
        name: spec.into(),
    }
}

pub(crate) fn key(k: &str) -> PlanStep {
    PlanStep::Key { key: k.into() }
}

pub(crate) fn typed(text: &str) -> PlanStep {
    PlanStep::Type { text: text.into() }
}

pub(crate) fn wait(title: &str, timeout_ms: u64) -> PlanStep {
    PlanStep::WaitFor {
        target: focused(title),
        timeout_ms,
    }
}

/// A plan under construction for one document window of LibreOffice.
pub(crate) struct LoPlan {
    /// The document window's title (`memo.docx - LibreOffice Writer`).
    title: String,
    /// The document's path under the home (what the save must reach).
    doc: String,
    /// Tabs from the Replace field to the Replace All button (Writer 6, Impress 5: no Find All).
    tabs_to_replace_all: usize,
    /// Whether the Find dialog was opened already (its Match case box keeps its state).
    match_case_set: bool,
    /// The steps so far.
    pub(crate) steps: Vec<PlanStep>,
}

impl LoPlan {
    /// A plan for the document at `doc` (a path under the home) in the application `app_title`
    /// (`Writer`, `Impress`): first, wait for its window to have the focus.
    pub(crate) fn new(doc: &str, app_title: &str, tabs_to_replace_all: usize) -> Self {
        let name = doc.rsplit('/').next().unwrap_or(doc);
        let title = format!("{name} - LibreOffice {app_title}");
        let steps = vec![wait(&title, OPEN_TIMEOUT_MS)];
        LoPlan {
            title,
            doc: doc.to_string(),
            tabs_to_replace_all,
            match_case_set: false,
            steps,
        }
    }

    /// Presses `keys` (chords separated by spaces).
    pub(crate) fn keys(&mut self, keys: &str) -> &mut Self {
        self.steps.push(key(keys));
        self
    }

    /// Types `text` where the focus is.
    pub(crate) fn text(&mut self, text: &str) -> &mut Self {
        self.steps.push(typed(text));
        self
    }

    /// Opens Ctrl+H, types `find` with Match case on; then either Replace All with `replace`,
    /// or Find All (the document selection becomes every occurrence); closes the dialog and
    /// waits for the document window to have the focus again.
    pub(crate) fn find(&mut self, find: &str, replace: Option<&str>) -> &mut Self {
        // A window that has just appeared may drop the first chord: press it again while the
        // dialog is not there (twice at most), then wait for it.
        self.keys("ctrl+h");
        for _ in 0..2 {
            self.steps.push(PlanStep::UnlessPresent {
                target: focused(FIND_DIALOG),
                steps: vec![key("ctrl+h")],
            });
        }
        self.steps.push(wait(FIND_DIALOG, DIALOG_TIMEOUT_MS));
        self.keys("ctrl+a").text(find).keys("Tab Tab");
        if !self.match_case_set {
            self.keys("space");
            self.match_case_set = true;
        }
        self.keys("Tab Tab");
        match replace {
            Some(new) => {
                let tabs = vec!["Tab"; self.tabs_to_replace_all].join(" ");
                self.keys("ctrl+a")
                    .text(new)
                    .keys(&format!("{tabs} Return"));
            }
            None => {
                self.keys("Tab Tab Return");
            }
        }
        self.keys("Escape");
        self.steps.push(PlanStep::UnlessPresent {
            target: focused(&self.title),
            steps: vec![key("Escape")],
        });
        self.steps.push(wait(&self.title, DIALOG_TIMEOUT_MS));
        self
    }

    /// Clicks the menu `top`, then each label of `path` (submenus, the last a menu item, a check
    /// menu item or a radio menu item), each found in the accessibility tree.
    pub(crate) fn menu(&mut self, top: &str, path: &[&str]) -> &mut Self {
        self.click(&format!("menu:{top}"));
        for (i, label) in path.iter().enumerate() {
            let kind = if i + 1 == path.len() {
                "menu item|check menu item|radio menu item"
            } else {
                "menu"
            };
            self.click(&format!("{kind}:{label}"));
        }
        self
    }

    /// Clicks the accessible node `spec` (`role:label`, see `find_node`).
    pub(crate) fn click(&mut self, spec: &str) -> &mut Self {
        self.steps.push(PlanStep::Click { target: node(spec) });
        self
    }

    /// Clicks the field `spec`, selects its text, types `text` and presses Return.
    pub(crate) fn fill(&mut self, spec: &str, text: &str) -> &mut Self {
        self.steps.push(PlanStep::Fill {
            target: node(spec),
            text: text.into(),
        });
        self.keys("Return")
    }

    /// Waits until the window titled `title` has the focus (a dialog opened, or closed again
    /// when `title` is the document's).
    pub(crate) fn wait_window(&mut self, title: &str) -> &mut Self {
        self.steps.push(wait(title, DIALOG_TIMEOUT_MS));
        self
    }

    /// Ends a plan whose result is another file (an export): waits until `path` (under the home)
    /// has been written, then for the document window to have the focus again.
    pub(crate) fn written(mut self, path: &str) -> Vec<PlanStep> {
        self.steps.push(PlanStep::WaitFor {
            target: Target::Role {
                role: "saved".into(),
                name: path.into(),
            },
            timeout_ms: SAVE_TIMEOUT_MS,
        });
        let title = self.title.clone();
        self.wait_window(&title);
        self.steps
    }

    /// Saves with Ctrl+S (the profile answers "Keep current format") and waits until the
    /// document on disk has been written: the screen stops right after the plan, so a save still
    /// under way when the last key is pressed would be lost.
    pub(crate) fn save(mut self) -> Vec<PlanStep> {
        self.keys("ctrl+s");
        self.steps.push(PlanStep::WaitFor {
            target: Target::Role {
                role: "saved".into(),
                name: self.doc.clone(),
            },
            timeout_ms: SAVE_TIMEOUT_MS,
        });
        self.steps
    }
}

/// A string slot.
pub(crate) fn text_slot<'a>(v: &'a Value, key: &str, template: &str) -> Result<&'a str, String> {
    v.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("template {template}: slot `{key}` missing"))
}

/// An array slot.
pub(crate) fn list_slot<'a>(
    v: &'a Value,
    key: &str,
    template: &str,
) -> Result<&'a Vec<Value>, String> {
    v.get(key)
        .and_then(Value::as_array)
        .ok_or_else(|| format!("template {template}: slot `{key}` missing"))
}

/// The template name and slots of a task.
pub(crate) fn template_of(brief: &TaskBrief) -> Result<(&str, &Value), String> {
    let template = brief
        .structured
        .get("template")
        .and_then(Value::as_str)
        .ok_or_else(|| format!("task {} names no template", brief.task_id))?;
    let slots = brief
        .structured
        .get("slots")
        .ok_or_else(|| format!("task {} has no slots", brief.task_id))?;
    Ok((template.rsplit('/').next().unwrap_or(template), slots))
}

/// Draws a shipped task of `template` from `tasks_text` (a pack's `tasks.json`) for `app`.
pub(crate) fn from_shipped(
    ctx: &mut Ctx<'_>,
    tasks_text: &str,
    app: &'static str,
    template: &str,
) -> Option<Draft> {
    let doc: Value = serde_json::from_str(tasks_text).ok()?;
    let pool: Vec<&Value> = doc
        .get("tasks")?
        .as_array()?
        .iter()
        .filter(|t| t.get("template").and_then(Value::as_str) == Some(template))
        .collect();
    let v = ctx.idx(pool.len());
    let task = pool.get(v)?;
    let text = |key: &str| {
        task.get(key)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let mut draft = ctx.draft(
        v,
        text("task_instruction"),
        text("context"),
        template,
        task.get("slots")?.clone(),
        vec![app],
    );
    draft.difficulty = text("difficulty");
    Some(draft)
}

/// `pack_files!` for a LibreOffice pack: the same files, with `crates/engine/src/apps/office/<prelude>` (the
/// pack's docx/pptx/xlsx helpers) as every template's reward prelude.
macro_rules! office_pack_files {
    ($dir:literal, $prelude:literal, [$($t:literal),* $(,)?]) => {
        $crate::apps::pack_files!($dir, no_seed, [$($t),*], reward_prelude: concat!("office/", $prelude));
    };
}
pub(crate) use office_pack_files;
