//! Impress's ui-oracle planner: keyboard-first plans through LibreOffice Impress (the Find &
//! Replace dialog, Ctrl+S), built with the shared [`LoPlan`]. Templates without a verified keyboard
//! plan are refused by name (a planner miss, never a tuple's).

use serde_json::Value;

use crate::apps::office::{template_of, text_slot, LoPlan};
use crate::engine::agents::TaskBrief;
use crate::engine::rollout::ui_plan::{PlanStep, UiPlanner};

/// The Impress plan of one template.
pub fn impress_plan(template: &str, s: &Value) -> Result<Vec<PlanStep>, String> {
    // Impress's Find & Replace has no Find All: 5 tabs from Replace to Replace All.
    let mut plan = LoPlan::new(text_slot(s, "deck", template)?, "Impress", 5);
    match template {
        "find_replace" => {
            let (old, new) = (text_slot(s, "old", template)?, text_slot(s, "new", template)?);
            plan.find(old, Some(new));
        }
        other => return Err(format!("template {other} has no Impress keyboard plan yet")),
    }
    Ok(plan.save())
}

/// Plans Impress tasks through LibreOffice's UI.
pub struct ImpressPlanner;

impl UiPlanner for ImpressPlanner {
    fn apps(&self) -> &[&'static str] {
        &["libreoffice_impress"]
    }

    fn plan(&self, brief: &TaskBrief) -> Result<Vec<PlanStep>, String> {
        let (template, slots) = template_of(brief)?;
        impress_plan(template, slots)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rollout::ui_plan::Target;

    /// Impress find & replace: waits for the deck's window, Replace All is 5 tabs away (no Find
    /// All button), then Ctrl+S; other templates are refused by name.
    #[test]
    fn impress_find_replace_plans_and_other_templates_are_refused() {
        let slots = serde_json::json!({"deck": "Documents/launch.pptx", "old": "a", "new": "b"});
        let plan = impress_plan("find_replace", &slots).unwrap();
        assert_eq!(
            plan[0],
            PlanStep::WaitFor {
                target: Target::Role {
                    role: "focused_window".into(),
                    name: "launch.pptx - LibreOffice Impress".into()
                },
                timeout_ms: 60_000
            }
        );
        assert!(plan.contains(&PlanStep::Key {
            key: "Tab Tab Tab Tab Tab Return".into()
        }));
        let err = impress_plan("add_slide", &slots).unwrap_err();
        assert!(err.contains("add_slide"), "{err}");
    }
}
