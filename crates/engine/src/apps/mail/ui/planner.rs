//! The mail [`UiPlanner`]: a plan per shipped template (send_email, and the generic
//! update_records / create_record on messages, contacts, drafts, folders, labels and filters),
//! built from the task's structured slots only. Messages are found in "All messages" (every
//! folder, so the plan need not know where a message is) by their row and acted on with the
//! bulk toolbar, one action per changed field; the rest through the contacts and settings
//! pages. Every click that posts a form or follows a link is a [`PlanStep::Submit`], and each
//! operation's plan ends by waiting for its success banner, so an error banner is a miss.
//! Stars are sets, and plans skip a contact already starred or a checkbox already ticked.

use serde_json::{Map, Value};

use crate::agents::TaskBrief;
use crate::rollout::plan_steps::{
    click, css, done, fill, open_sidebar, role, submit, text, wait,
};
use crate::rollout::ui_plan::{PlanStep, UiPlanner};
use crate::rollout::ui_plan::PlanRefusal;

/// The mail planner.
pub struct MailPlanner;

fn strings<'a>(v: &'a Value, what: &str) -> Result<Vec<&'a str>, String> {
    match v {
        Value::String(s) => Ok(vec![s.as_str()]),
        Value::Array(items) => items
            .iter()
            .map(|x| {
                x.as_str()
                    .ok_or_else(|| format!("{what} holds a non-string"))
            })
            .collect(),
        _ => Err(format!("{what} is not a list")),
    }
}

fn send_plan(slots: &Value) -> Result<Vec<PlanStep>, String> {
    let to = strings(&slots["to"], "`to`")?;
    let mut p = vec![
        submit(css("nav.sidebar a.compose")),
        wait("body[data-path=\"/compose\"]".into()),
        fill(role("textbox", "To"), &to.join(", ")),
        fill(role("textbox", "Subject"), text(slots, "subject")?),
        fill(role("textbox", "Body"), text(slots, "body")?),
    ];
    p.extend([submit(role("button", "Send")), done("compose")]);
    Ok(p)
}

/// The toolbar steps that set `field` to `value` on the ticked messages.
fn bulk_steps(field: &str, value: &Value) -> Result<Vec<PlanStep>, String> {
    let button =
        |name: &str| -> Result<Vec<PlanStep>, String> { Ok(vec![submit(role("button", name))]) };
    let menu = |class: &str, name: &str, v: &str| -> Result<Vec<PlanStep>, String> {
        Ok(vec![
            click(css(format!("form#bulk details.menu.{class} summary"))),
            submit(css(format!(
                "form#bulk button[name=\"{name}\"][value=\"{v}\"]"
            ))),
        ])
    };
    match (field, value) {
        ("folder", Value::String(f)) if f == "archive" => button("Archive"),
        ("folder", Value::String(f)) if f == "trash" => button("Delete"),
        ("folder", Value::String(f)) if f == "spam" => button("Report spam"),
        ("folder", Value::String(f)) => menu("move", "move", f),
        ("isStarred", Value::Bool(on)) => button(if *on { "Star" } else { "Unstar" }),
        ("isRead", Value::Bool(on)) => button(if *on { "Mark read" } else { "Mark unread" }),
        ("labels+", v) => {
            let mut p = Vec::new();
            for (i, l) in strings(v, "`labels+`")?.into_iter().enumerate() {
                if i > 0 {
                    return Err("one label per task: re-tick between labels".into());
                }
                p.extend(menu("label", "label", l)?);
            }
            Ok(p)
        }
        (other, v) => Err(format!("no plan sets message field `{other}` to {v}")),
    }
}

fn messages_plan(keys: &[&str], changes: &Map<String, Value>) -> Result<Vec<PlanStep>, String> {
    let mut p = Vec::from(open_sidebar("/all"));
    for (field, value) in changes {
        for k in keys {
            p.push(click(css(format!(
                "li.row[data-message-id=\"{k}\"] input[type=\"checkbox\"]"
            ))));
        }
        p.extend(bulk_steps(field, value)?);
        p.push(done("bulk"));
    }
    Ok(p)
}

fn checkbox(name: &str, label: &str, on: bool) -> PlanStep {
    let state = if on { ":checked" } else { ":not(:checked)" };
    PlanStep::UnlessPresent {
        target: css(format!("input[name=\"{name}\"]{state}")),
        steps: vec![click(role("checkbox", label))],
    }
}

/// Fills the contact form's fields from `rec` (name, email, company, phone, starred).
fn contact_fields(rec: &Map<String, Value>) -> Result<Vec<PlanStep>, String> {
    let mut p = Vec::new();
    for (field, v) in rec {
        match (field.as_str(), v) {
            ("id", _) => {}
            ("starred", Value::Bool(on)) => p.push(checkbox("starred", "Starred", *on)),
            ("name" | "email" | "company" | "phone", Value::String(s)) => {
                let label = match field.as_str() {
                    "name" => "Name",
                    "email" => "Email",
                    "company" => "Company",
                    _ => "Phone",
                };
                p.push(fill(role("textbox", label), s));
            }
            (other, v) => return Err(format!("no plan sets contact field `{other}` to {v}")),
        }
    }
    Ok(p)
}

fn contacts_plan(keys: &[&str], changes: &Map<String, Value>) -> Result<Vec<PlanStep>, String> {
    let mut p = Vec::new();
    if changes.len() == 1 && changes.get("starred") == Some(&Value::Bool(true)) {
        // The list's star buttons, skipping anyone already starred.
        p.extend(open_sidebar("/contacts"));
        for k in keys {
            p.push(PlanStep::UnlessPresent {
                target: css(format!("tr.starred[data-contact=\"{k}\"]")),
                steps: vec![
                    submit(css(format!("tr[data-contact=\"{k}\"] button.star"))),
                    done("star_contact"),
                ],
            });
        }
        return Ok(p);
    }
    for k in keys {
        p.extend(open_sidebar("/contacts"));
        p.extend([
            submit(css(format!(
                "tr[data-contact=\"{k}\"] a[href=\"/contacts/{k}\"]"
            ))),
            wait(format!("body[data-path=\"/contacts/{k}\"]")),
        ]);
        p.extend(contact_fields(changes)?);
        p.extend([
            submit(role("button", "Save contact")),
            done("update_contact"),
        ]);
    }
    Ok(p)
}

fn drafts_plan(keys: &[&str], changes: &Map<String, Value>) -> Result<Vec<PlanStep>, String> {
    let mut p = Vec::new();
    for k in keys {
        p.extend(open_sidebar("/f/drafts"));
        p.extend([
            submit(css(format!("a[href=\"/drafts/{k}\"]"))),
            wait(format!("body[data-path=\"/drafts/{k}\"]")),
        ]);
        for (field, v) in changes {
            let (label, value) = match field.as_str() {
                "to" => ("To", strings(v, "`to`")?.join(", ")),
                "cc" => ("Cc", strings(v, "`cc`")?.join(", ")),
                "subject" | "body" => (
                    if field == "subject" {
                        "Subject"
                    } else {
                        "Body"
                    },
                    v.as_str()
                        .ok_or(format!("`{field}` is not a string"))?
                        .to_string(),
                ),
                other => return Err(format!("no plan changes draft field `{other}`")),
            };
            p.push(fill(role("textbox", label), &value));
        }
        p.extend([submit(role("button", "Save draft")), done("compose")]);
    }
    Ok(p)
}

fn named_rows_plan(
    page: &str,
    row: &str,
    op: &str,
    keys: &[&str],
    changes: &Map<String, Value>,
) -> Result<Vec<PlanStep>, String> {
    let mut p = Vec::from(open_sidebar(page));
    for k in keys {
        let form = format!("li[{row}=\"{k}\"] form[action=\"/op/{op}\"]");
        for (field, v) in changes {
            let v = v.as_str().ok_or(format!("`{field}` is not a string"))?;
            match field.as_str() {
                "name" | "color" => {
                    p.push(fill(css(format!("{form} input[name=\"{field}\"]")), v));
                }
                other => return Err(format!("no plan changes `{other}` on {page}")),
            }
        }
        p.extend([submit(css(format!("{form} button"))), done(op)]);
    }
    Ok(p)
}

fn create_plan(collection: &str, rec: &Value) -> Result<Vec<PlanStep>, String> {
    let fields = rec.as_object().ok_or("slot `record` is not an object")?;
    let mut p = Vec::new();
    match collection {
        "contacts" => {
            p.extend(open_sidebar("/contacts"));
            p.extend([
                submit(role("link", "New contact")),
                wait("body[data-path=\"/contacts/new\"]".into()),
            ]);
            p.extend(contact_fields(fields)?);
            p.extend([
                submit(role("button", "Create contact")),
                done("create_contact"),
            ]);
        }
        "labels" => {
            p.extend(open_sidebar("/labels"));
            p.push(fill(role("textbox", "New label name"), text(rec, "name")?));
            if let Some(c) = rec["color"].as_str() {
                p.push(fill(role("textbox", "New label colour"), c));
            }
            p.extend([submit(role("button", "Create label")), done("create_label")]);
        }
        "folders" => {
            p.extend(open_sidebar("/folders"));
            p.extend([
                fill(role("textbox", "New folder name"), text(rec, "name")?),
                submit(role("button", "Create folder")),
                done("create_folder"),
            ]);
        }
        "filters" => {
            p.extend(open_sidebar("/filters"));
            let m = &rec["match"];
            if let Some(from) = m["from"].as_str() {
                p.push(fill(role("textbox", "From"), from));
            }
            if let Some(subject) = m["subjectContains"].as_str() {
                p.push(fill(role("textbox", "Subject contains"), subject));
            }
            let a = &rec["action"];
            for key in ["label", "folder"] {
                if let Some(v) = a[key].as_str() {
                    p.push(click(css(format!("input[name=\"{key}\"][value=\"{v}\"]"))));
                }
            }
            if a["markRead"] == true {
                p.push(checkbox("markRead", "Mark as read", true));
            }
            p.extend([
                submit(role("button", "Create filter")),
                done("create_filter"),
            ]);
        }
        other => return Err(format!("create_record on {other:?} has no mail plan")),
    }
    Ok(p)
}

impl UiPlanner for MailPlanner {
    fn apps(&self) -> &[&'static str] {
        &["mail"]
    }

    fn plan(&self, brief: &TaskBrief) -> Result<Vec<PlanStep>, PlanRefusal> {
        let template = brief.structured["template"].as_str().unwrap_or_default();
        let slots = &brief.structured["slots"];
        match template {
            "send_email" => send_plan(slots),
            "update_records" => {
                let changes = slots["changes"]
                    .as_object()
                    .ok_or("slot `changes` is not an object")?;
                let keys = strings(&slots["keys"], "`keys`")?;
                match slots["collection"].as_str() {
                    Some("messages") => messages_plan(&keys, changes),
                    Some("contacts") => contacts_plan(&keys, changes),
                    Some("drafts") => drafts_plan(&keys, changes),
                    Some("folders") => {
                        named_rows_plan("/folders", "data-folder", "rename_folder", &keys, changes)
                    }
                    Some("labels") => {
                        named_rows_plan("/labels", "data-label", "update_label", &keys, changes)
                    }
                    other => Err(format!(
                        "update_records on collection {other:?} has no mail plan"
                    )),
                }
            }
            "create_record" => create_plan(
                slots["collection"].as_str().unwrap_or_default(),
                &slots["record"],
            ),
            other => Err(format!("template {other:?} has no mail plan")),
        }
        .map_err(PlanRefusal::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brief(task: &Value) -> TaskBrief {
        crate::rollout::plan_steps::shipped_brief("mail", task)
    }

    #[test]
    fn every_shipped_mail_task_has_a_plan_ending_in_its_success_banner() {
        let tasks: Value =
            serde_json::from_str(include_str!("../tasks.json")).unwrap();
        for task in tasks["tasks"].as_array().unwrap() {
            let plan = MailPlanner
                .plan(&brief(task))
                .unwrap_or_else(|e| panic!("{}: {e}", task["task_id"]));
            let last = crate::rollout::plan_steps::final_step(&plan);
            assert!(
                matches!(last, Some(PlanStep::WaitFor { .. })),
                "{}",
                task["task_id"]
            );
            assert!(plan.len() >= 4, "{}", task["task_id"]);
        }
        let bad = serde_json::json!({"template": "update_records", "slots": {"collection": "messages", "keys": ["m001"], "changes": {"subject": "x"}}});
        assert!(MailPlanner
            .plan(&brief(&bad))
            .unwrap_err()
            .contains("`subject`"));
        let none = serde_json::json!({"template": "post_message", "slots": {}});
        assert!(MailPlanner
            .plan(&brief(&none))
            .unwrap_err()
            .contains("no mail plan"));
    }
}
