//! Every shipped issue-tracker task done with the forms of its pages, submitted as a browser
//! would submit them (hidden fields, the checked radios and boxes, the typed text).

use serde_json::Value;

use super::{by, ctx, holds, text};
use crate::apps::issue_tracker::ui::model::issue;
use crate::ui::tests::fixture;

fn submit(
    state: &mut Value,
    page: &str,
    op: &str,
    fields: &[(&str, String)],
) -> Result<String, String> {
    crate::ui::test_forms::submit("issue-tracker", &ctx(), state, page, op, fields)
}

/// Every field a shipped issue-tracker task reads or changes is on a page with a form a person
/// can fill with the task's values, and submitting those forms as a browser would yields exactly
/// what the task wants (update, create and comment tasks alike).
#[tokio::test]
async fn every_shipped_issue_tracker_task_is_doable_with_the_forms_of_its_pages() {
    let f = fixture("issue-tracker").await;
    let seed = f.current();
    let tasks: Value = serde_json::from_str(include_str!(
        "../../tasks.json"
    ))
    .unwrap();
    let mut checked = 0;
    for task in tasks["tasks"].as_array().unwrap() {
        let id = task["task_id"].as_str().unwrap();
        let slots = &task["slots"];
        let mut state = seed.clone();
        let ok = |r: Result<String, String>| r.unwrap_or_else(|e| panic!("{id}: {e}"));
        match task["template"].as_str().unwrap() {
            "update_records" => {
                let coll = slots["collection"].as_str().unwrap();
                let kf = slots["key_field"].as_str().unwrap();
                for key in slots["keys"].as_array().unwrap() {
                    let key = key.as_str().unwrap();
                    if let Some(preset) = slots["preset"].as_object() {
                        let rec = state[coll]
                            .as_array_mut()
                            .unwrap()
                            .iter_mut()
                            .find(|r| r[kf] == key)
                            .unwrap();
                        preset.iter().for_each(|(k, v)| rec[k] = v.clone());
                    }
                    let changes = slots["changes"].as_object().unwrap();
                    let plain: Vec<(&str, String)> = changes
                        .iter()
                        .filter(|(k, _)| !k.ends_with('+'))
                        .map(|(k, v)| (k.as_str(), text(v)))
                        .collect();
                    let (page, op) = match coll {
                        "issues" => (format!("/issue/{key}"), "update_details"),
                        "sprints" => (format!("/sprint/{key}"), "update_sprint"),
                        "projects" => (format!("/p/{key}/settings"), "update_project"),
                        other => panic!("{id}: no page edits {other}"),
                    };
                    if !plain.is_empty() {
                        ok(submit(&mut state, &page, op, &plain));
                    }
                    if let Some(l) = changes.get("labels+") {
                        ok(submit(
                            &mut state,
                            &page,
                            "add_label",
                            &[("label", text(l))],
                        ));
                    }
                    let rec = by(&state, coll, kf, key);
                    for (field, want) in changes {
                        let path = format!("{coll}.{}", field.trim_end_matches('+'));
                        assert!(
                            crate::apps::issue_tracker::ui::ops::OPS
                                .iter()
                                .any(|(_, paths)| paths.contains(&path.as_str())),
                            "{id}: no operation writes {path}"
                        );
                        assert!(
                            holds(rec, field, want),
                            "{id}: {key}.{field} is {}",
                            rec[field.trim_end_matches('+')]
                        );
                        checked += 1;
                    }
                }
            }
            "create_record" => {
                let rec = &slots["record"];
                let project = rec["projectId"].as_str().unwrap();
                let before = state[slots["collection"].as_str().unwrap()]
                    .as_array()
                    .unwrap()
                    .len();
                let (page, op, fields): (String, &str, Vec<&str>) =
                    match slots["collection"].as_str().unwrap() {
                        "issues" => (
                            format!("/p/{project}/new-issue"),
                            "create_issue",
                            vec![
                                "type",
                                "summary",
                                "description",
                                "priority",
                                "assignee",
                                "sprintId",
                                "storyPoints",
                            ],
                        ),
                        _ => (
                            format!("/p/{project}/new-sprint"),
                            "create_sprint",
                            vec!["name", "goal", "startDate", "endDate", "state"],
                        ),
                    };
                let mut set: Vec<(&str, String)> =
                    fields.iter().map(|k| (*k, text(&rec[*k]))).collect();
                let labels: Vec<String> = rec["labels"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(text)
                    .collect();
                if !labels.is_empty() {
                    set.push(("moreLabels", labels.join(", ")));
                }
                ok(submit(&mut state, &page, op, &set));
                let coll = state[slots["collection"].as_str().unwrap()]
                    .as_array()
                    .unwrap();
                assert_eq!(coll.len(), before + 1, "{id}");
                let made = coll.last().unwrap();
                for (field, want) in slots["expect"].as_object().unwrap() {
                    assert!(
                        holds(made, field, want),
                        "{id}: new {field} is {}",
                        made[field.trim_end_matches('+')]
                    );
                    checked += 1;
                }
            }
            "add_comment" => {
                let key = slots["issue"].as_str().unwrap();
                ok(submit(
                    &mut state,
                    &format!("/issue/{key}"),
                    "add_comment",
                    &[("body", text(&slots["text"]))],
                ));
                let last = issue(&state, key).unwrap()["comments"]
                    .as_array()
                    .unwrap()
                    .last()
                    .unwrap()
                    .clone();
                assert_eq!(last["author"], "u1", "{id}");
                assert_eq!(last["body"], slots["text"], "{id}");
                checked += 1;
            }
            other => panic!("{id}: template {other} is not covered by the issue-tracker UI"),
        }
    }
    assert!(checked >= 40, "checked {checked}");
}
