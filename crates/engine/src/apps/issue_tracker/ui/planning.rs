//! The planning operations of the tracker UI: filing an issue, editing and planning sprints and
//! a project's settings. Dates are `YYYY-MM-DD`; a sprint ends on or after its start.

use chrono::NaiveDate;
use serde_json::{json, Value};

use super::model::{arr, by_id, key_number, me, s, statuses, PRIORITIES, SPRINT_STATES, TYPES};
use super::ops::{
    err, label_name, list_mut, one_of, record_mut, sprint_choice, story_points, user_choice,
};
use crate::ui::{Ctx, Done, FormData, OpError};

fn date(raw: &str, what: &str) -> Result<String, OpError> {
    let raw = raw.trim();
    NaiveDate::parse_from_str(raw, "%Y-%m-%d")
        .map(|d| d.format("%Y-%m-%d").to_string())
        .map_err(|_| {
            OpError(format!(
                "{what} must be a date like 2026-03-17, not {raw:?}"
            ))
        })
}

/// Name, goal, dates and state of a sprint form, checked.
struct SprintFields {
    name: String,
    goal: String,
    start: String,
    end: String,
    state: String,
}

fn sprint_fields(form: &FormData) -> Result<SprintFields, OpError> {
    let f = SprintFields {
        name: form.non_blank("name", "The sprint name")?.to_string(),
        goal: form.required("goal")?.trim().to_string(),
        start: date(form.required("startDate")?, "The start date")?,
        end: date(form.required("endDate")?, "The end date")?,
        state: one_of(form.required("state")?, SPRINT_STATES, "The sprint state")?,
    };
    if f.end < f.start {
        return err(format!(
            "The sprint ends ({}) before it starts ({})",
            f.end, f.start
        ));
    }
    Ok(f)
}

fn name_clash(state: &Value, project: &str, name: &str, except: &str) -> Result<(), OpError> {
    let clash = arr(state, "sprints")
        .iter()
        .any(|sp| s(sp, "projectId") == project && s(sp, "name") == name && s(sp, "id") != except);
    if clash {
        return err(format!("This project already has a sprint named {name:?}"));
    }
    Ok(())
}

/// `update_sprint`: name, goal, dates and state of one sprint.
pub fn update_sprint(form: &FormData, state: &mut Value) -> Result<Done, OpError> {
    let id = form.non_blank("sprint", "The sprint")?.to_string();
    let project = by_id(arr(state, "sprints"), &id)
        .map(|sp| s(sp, "projectId").to_string())
        .ok_or_else(|| OpError(format!("there is no sprint {id:?}")))?;
    let f = sprint_fields(form)?;
    name_clash(state, &project, &f.name, &id)?;
    let sp = record_mut(state, "sprints", "id", &id)?;
    for (k, v) in [
        ("name", &f.name),
        ("goal", &f.goal),
        ("startDate", &f.start),
        ("endDate", &f.end),
        ("state", &f.state),
    ] {
        sp.insert(k.into(), json!(v));
    }
    Ok(Done {
        message: format!("Saved {} ({})", f.name, f.state),
        go: None,
    })
}

/// `create_sprint`: a new sprint of a project.
pub fn create_sprint(form: &FormData, state: &mut Value) -> Result<Done, OpError> {
    let project = form.non_blank("project", "The project")?.to_string();
    let Some(index) = arr(state, "projects")
        .iter()
        .position(|p| s(p, "id") == project)
    else {
        return err(format!("there is no project {project:?}"));
    };
    let f = sprint_fields(form)?;
    name_clash(state, &project, &f.name, "")?;
    let ids: Vec<&str> = arr(state, "sprints").iter().map(|sp| s(sp, "id")).collect();
    // Sprint ids follow the seed's pattern s<project number><n>; any free id otherwise.
    let last = arr(state, "sprints")
        .iter()
        .filter(|sp| s(sp, "projectId") == project)
        .filter_map(|sp| s(sp, "id").strip_prefix('s')?.parse::<u64>().ok())
        .max()
        .unwrap_or((index as u64 + 1) * 10);
    let id = (last + 1..)
        .map(|n| format!("s{n}"))
        .find(|c| !ids.contains(&c.as_str()))
        .unwrap_or_default();
    list_mut(state, "sprints")?.push(json!({
        "id": id, "projectId": project, "name": f.name, "state": f.state,
        "startDate": f.start, "endDate": f.end, "goal": f.goal,
    }));
    Ok(Done {
        message: format!("Created {}", f.name),
        go: Some(format!("/sprint/{id}")),
    })
}

/// `update_project`: name, lead and description of a project.
pub fn update_project(form: &FormData, state: &mut Value) -> Result<Done, OpError> {
    let id = form.non_blank("project", "The project")?.to_string();
    let name = form.non_blank("name", "The project name")?.to_string();
    let lead = user_choice(state, form.required("lead")?, "The lead")?;
    if lead.is_null() {
        return err("Pick a project lead");
    }
    let description = form.required("description")?.trim().to_string();
    let p = record_mut(state, "projects", "id", &id)?;
    p.insert("name".into(), json!(name));
    p.insert("lead".into(), lead);
    p.insert("description".into(), json!(description));
    Ok(Done {
        message: format!("Saved the settings of {name}"),
        go: None,
    })
}

/// The labels of a create form: ticked known labels, then the comma-separated extra ones.
fn form_labels(form: &FormData) -> Result<Vec<String>, OpError> {
    let mut out: Vec<String> = Vec::new();
    let extra = form.get("moreLabels").unwrap_or_default();
    for raw in form.all("label").into_iter().chain(extra.split(',')) {
        if raw.trim().is_empty() {
            continue;
        }
        let l = label_name(raw)?;
        if !out.contains(&l) {
            out.push(l);
        }
    }
    Ok(out)
}

/// `create_issue`: a new issue in a project, To Do, reported by the signed-in user.
pub fn create_issue(form: &FormData, ctx: &Ctx, state: &mut Value) -> Result<Done, OpError> {
    let project = form.non_blank("project", "The project")?.to_string();
    let Some(pkey) = by_id(arr(state, "projects"), &project).map(|p| s(p, "key").to_string())
    else {
        return err(format!("there is no project {project:?}"));
    };
    let summary = form.non_blank("summary", "The summary")?.to_string();
    let kind = one_of(form.required("type")?, TYPES, "The type")?;
    let priority = one_of(form.required("priority")?, PRIORITIES, "The priority")?;
    let assignee = user_choice(state, form.required("assignee")?, "The assignee")?;
    let sprint = sprint_choice(state, form.required("sprintId")?, &project, None)?;
    let points = story_points(form.required("storyPoints")?)?;
    let labels = form_labels(form)?;
    let issues = arr(state, "issues");
    let number = issues
        .iter()
        .filter(|i| s(i, "projectId") == project)
        .map(|i| key_number(s(i, "key")))
        .max()
        .unwrap_or(0)
        + 1;
    let key = format!("{pkey}-{number}");
    let ids: std::collections::HashSet<&str> = issues.iter().map(|i| s(i, "id")).collect();
    let id = (1..)
        .map(|n| format!("i{n:03}"))
        .find(|c| !ids.contains(c.as_str()))
        .unwrap_or_default();
    let status = statuses(state)
        .first()
        .map(|x| x.to_string())
        .unwrap_or_default();
    let now = ctx.today.rfc3339();
    let record = json!({
        "id": id, "key": key, "projectId": project, "type": kind, "summary": summary,
        "description": form.required("description")?.trim_end(), "status": status,
        "priority": priority, "assignee": assignee, "reporter": me(state), "sprintId": sprint,
        "storyPoints": points, "labels": labels, "comments": [], "created": now, "updated": now,
    });
    list_mut(state, "issues")?.push(record);
    Ok(Done {
        message: format!("Created {key}"),
        go: Some(format!("/issue/{key}")),
    })
}
