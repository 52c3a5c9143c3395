//! The plans of the cross-app templates (`skills/cross/templates/`): each composed of the apps'
//! own plan steps joined by "switch to app X" steps, from the task's slots only. `csv_to_issues`
//! (look at the CSV in the terminal, file one issue per row in the tracker), `issues_to_file`
//! (look at the project's board, write the list in the terminal), `chat_to_issue` (read the
//! channel, change the issue), and any web template with files beside it (`send_email`,
//! `post_message`: look at the files, then the web app's own plan).

use serde_json::{json, Map, Value};

use crate::agents::TaskBrief;
use crate::apps::issue_tracker::ui::planner::{create_issue, issue_changes, open_project};
use crate::apps::team_chat::ui::planner::in_channel;
use crate::rollout::plan_steps::{role, submit, text};
use crate::rollout::ui_oracle_cross::switch_to;
use crate::rollout::ui_oracle_files::{python, shell_quote, terminal_steps};
use crate::rollout::ui_oracle_web::planner_for;
use crate::rollout::ui_plan::PlanRefusal;
use crate::rollout::ui_plan::{PlanStep, UiPlanner};

/// Plans cross-app tasks from their slots.
pub struct CrossPlanner;

/// A terminal command that shows the files a task reads (`sources`, or `csv_path`), or the
/// home's folders when the slots name none.
fn look_at_files(slots: &Value) -> String {
    let mut paths: Vec<String> = slots["sources"]
        .as_object()
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default();
    if let Some(p) = slots["csv_path"].as_str() {
        paths.push(p.to_string());
    }
    if paths.is_empty() {
        return "ls -R /home/user | head -n 40".into();
    }
    let quoted: Vec<String> = paths
        .iter()
        .map(|p| shell_quote(&format!("/home/user/{p}")))
        .collect();
    format!("cat {}", quoted.join(" "))
}

fn csv_to_issues(slots: &Value) -> Result<Vec<PlanStep>, String> {
    let project = text(slots, "project")?;
    let rows = slots["rows"]
        .as_array()
        .ok_or("slot `rows` is not a list")?;
    let mut p = switch_to("files");
    p.extend(terminal_steps(&look_at_files(slots)));
    p.extend(switch_to("issue-tracker"));
    for row in rows {
        p.extend(create_issue(&json!({
            "projectKey": project,
            "type": text(row, "type")?,
            "summary": text(row, "summary")?,
            "priority": text(row, "priority")?,
            "labels": [],
        }))?);
    }
    Ok(p)
}

fn issues_to_file(slots: &Value) -> Result<Vec<PlanStep>, String> {
    let project = text(slots, "project")?;
    let mut p = switch_to("issue-tracker");
    p.extend(open_project(&format!("[data-pkey=\"{project}\"]")));
    p.extend(switch_to("files"));
    let picked = json!({
        "output": text(slots, "output")?,
        "status": text(slots, "status")?,
        "project": project,
        "keys": slots["expected_keys"],
        "summaries": slots["expected_summaries"],
    });
    // The slots list the keys and the summaries apart (not paired), so the list gives one line
    // per key and the summaries below it.
    p.extend(terminal_steps(&python(
        &picked,
        "p='/home/user/'+S['output'];os.makedirs(os.path.dirname(p),exist_ok=True);\
         L=['# %s issues in %s'%(S['status'],S['project']),'']+['- '+k for k in S['keys']]\
         +['','Summaries:']+['- '+x for x in S['summaries']];\
         f=open(p,'w');f.write(chr(10).join(L)+chr(10));f.close()",
    )));
    Ok(p)
}

fn chat_to_issue(slots: &Value) -> Result<Vec<PlanStep>, String> {
    let channel = text(slots, "channel")?;
    let changes = slots["changes"]
        .as_object()
        .ok_or("slot `changes` is not an object")?;
    // The issue had no labels the message did not ask for: adding the asked ones is the change.
    let changes: Map<String, Value> = changes
        .iter()
        .map(|(k, v)| match k.as_str() {
            "labels" => ("labels+".to_string(), v.clone()),
            _ => (k.clone(), v.clone()),
        })
        .collect();
    let mut p = switch_to("team-chat");
    p.extend([submit(role("link", channel)), in_channel(channel)]);
    p.extend(switch_to("issue-tracker"));
    p.extend(issue_changes(text(slots, "issue")?, &changes)?);
    Ok(p)
}

impl UiPlanner for CrossPlanner {
    fn apps(&self) -> &[&'static str] {
        &["files", "team-chat", "mail", "issue-tracker"]
    }

    fn plan(&self, brief: &TaskBrief) -> Result<Vec<PlanStep>, PlanRefusal> {
        let template = brief.structured["template"].as_str().unwrap_or_default();
        let slots = &brief.structured["slots"];
        if let Some(plan) = super::desktop_planner::plan(template, slots) {
            return plan.map_err(PlanRefusal::new);
        }
        match template {
            "csv_to_issues" => csv_to_issues(slots),
            "issues_to_file" => issues_to_file(slots),
            "chat_to_issue" => chat_to_issue(slots),
            _ => {
                let web: Vec<&String> = brief.apps.iter().filter(|a| *a != "files").collect();
                let ([app], true) = (web.as_slice(), web.len() < brief.apps.len()) else {
                    return Err(PlanRefusal::new(format!(
                        "template {template} over {} has no cross-app plan",
                        brief.apps.join(" + ")
                    )));
                };
                let planner = planner_for(app).ok_or_else(|| format!("no UI planner for {app}"))?;
                let mut p = switch_to("files");
                p.extend(terminal_steps(&look_at_files(slots)));
                p.extend(switch_to(app));
                p.extend(planner.plan(brief)?);
                Ok(p)
            }
        }
        .map_err(PlanRefusal::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rollout::ui_plan::Target;
    use crate::ui::{FOCUSED_APP, TASKBAR_BUTTON};

    /// Every shipped task (each pack's and the cross-app files').
    fn shipped_all() -> Vec<Value> {
        crate::apps::shipped_task_files(&crate::checkout_root())
            .into_iter()
            .flat_map(|(_, path)| {
                let all: Value =
                    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
                all["tasks"].as_array().unwrap().clone()
            })
            .collect()
    }

    fn brief(task: &Value) -> TaskBrief {
        let apps = task["domains"].as_array().unwrap();
        TaskBrief {
            task_id: task["task_id"].as_str().unwrap().into(),
            instruction: String::new(),
            context: String::new(),
            difficulty: String::new(),
            apps: apps.iter().map(|a| a.as_str().unwrap().into()).collect(),
            skills: Vec::new(),
            structured: task.clone(),
        }
    }

    fn switches(plan: &[PlanStep]) -> Vec<String> {
        plan.iter()
            .filter_map(|s| match s {
                PlanStep::WaitFor {
                    target: Target::Role { role, name },
                    ..
                } if role == FOCUSED_APP => Some(name.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn every_shipped_cross_app_task_has_a_plan_visiting_each_of_its_apps() {
        let cross: Vec<Value> = shipped_all()
            .into_iter()
            .filter(|t| t["domains"].as_array().is_some_and(|d| d.len() > 1))
            // Desktop-only ones switch windows by title: desktop_planner's test.
            .filter(|t| t["platform"] != "desktop")
            .collect();
        assert_eq!(cross.len(), 11, "the shipped cross-app tasks");
        for task in &cross {
            let b = brief(task);
            let plan = CrossPlanner
                .plan(&b)
                .unwrap_or_else(|e| panic!("{}: {e}", b.task_id));
            let mut visited = switches(&plan);
            visited.sort();
            visited.dedup();
            let mut apps = b.apps.clone();
            apps.sort();
            assert_eq!(visited, apps, "{}", b.task_id);
            // A plan starts by bringing an app forward: nothing is typed into whatever is in front.
            assert!(
                matches!(&plan[0], PlanStep::Click { target: Target::Role { role, .. } } if role == TASKBAR_BUTTON),
                "{}",
                b.task_id
            );
        }
    }

    #[test]
    fn the_chat_template_adds_the_asked_labels_and_an_unknown_template_is_named() {
        let task = shipped_all()
            .into_iter()
            .find(|t| t["task_id"] == "cross_chat-to-issue_002")
            .unwrap();
        let plan = CrossPlanner.plan(&brief(&task)).unwrap();
        let text = serde_json::to_string(&plan).unwrap();
        assert!(
            text.contains("li.label-chip[data-label=\\\"escalated\\\"]"),
            "{text}"
        );
        let mut other = brief(&task);
        other.structured["template"] = json!("make_coffee");
        other.apps = vec!["team-chat".into(), "mail".into()];
        let err = CrossPlanner.plan(&other).unwrap_err();
        assert!(
            err.contains("make_coffee") && err.contains("team-chat + mail"),
            "{err}"
        );
    }
}
