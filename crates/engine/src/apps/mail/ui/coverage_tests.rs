//! The coverage test of the mail UI: every field a shipped mail task changes has a form on a
//! page that writes it, and those forms with the task's values give the task's ground truth.

use serde_json::Value;

use super::tests::{rec, without, TODAY};
use crate::ui::tests::{fixture, form_of};
use crate::ui::{app_ui, Ctx, FormData, Today};

/// One form to post: (page, operation, fields).
type Form = (String, &'static str, Vec<(String, String)>);

/// The forms the UI offers for one shipped task: (page, operation, fields) in order.
fn forms_for(task: &Value) -> Vec<Form> {
    let slots = &task["slots"];
    let text = |v: &Value| {
        v.as_str()
            .map(str::to_string)
            .unwrap_or_else(|| v.to_string())
    };
    let list = |v: &Value| match v {
        Value::Array(a) => a.iter().map(text).collect::<Vec<_>>().join(", "),
        other => text(other),
    };
    let pair = |k: &str, v: String| (k.to_string(), v);
    let keys: Vec<String> = slots["keys"]
        .as_array()
        .map(|k| k.iter().map(text).collect())
        .unwrap_or_default();
    let changes = slots["changes"].as_object().cloned().unwrap_or_default();
    let mut out = Vec::new();
    match (
        task["template"].as_str().unwrap(),
        slots["collection"].as_str().unwrap_or_default(),
    ) {
        ("send_email", _) => out.push((
            "/compose".into(),
            "compose",
            vec![
                pair("to", list(&slots["to"])),
                pair("cc", String::new()),
                pair("subject", text(&slots["subject"])),
                pair("body", text(&slots["body"])),
                pair("do", "send".into()),
            ],
        )),
        ("update_records", "messages") => {
            for (field, v) in &changes {
                let mut form: Vec<(String, String)> =
                    keys.iter().map(|k| pair("message", k.clone())).collect();
                form.push(match (field.as_str(), v) {
                    ("folder", v) => pair("move", text(v)),
                    ("labels+", v) => pair("label", text(v)),
                    ("isStarred", Value::Bool(on)) => {
                        pair("do", (if *on { "star" } else { "unstar" }).into())
                    }
                    ("isRead", Value::Bool(on)) => {
                        pair("do", (if *on { "read" } else { "unread" }).into())
                    }
                    other => panic!("no bulk action for {other:?}"),
                });
                out.push(("/all".into(), "bulk", form));
            }
        }
        ("update_records", "contacts") => {
            for k in &keys {
                let mut form = vec![pair("contact", k.clone())];
                for field in ["name", "email", "company", "phone"] {
                    form.push(pair(field, String::new()));
                }
                let starred = changes.get("starred") == Some(&Value::Bool(true));
                out.push((format!("/contacts/{k}"), "update_contact", form));
                out.last_mut()
                    .unwrap()
                    .2
                    .push(pair("starred", starred.to_string()));
            }
        }
        ("update_records", "drafts") => {
            for k in &keys {
                let mut form = vec![
                    pair("draft", k.clone()),
                    pair("cc", String::new()),
                    pair("body", String::new()),
                    pair("do", "save".into()),
                ];
                for (field, v) in &changes {
                    form.push(pair(field.as_str(), list(v)));
                }
                out.push((format!("/drafts/{k}"), "compose", form));
            }
        }
        ("update_records", "folders") => {
            for k in &keys {
                out.push((
                    "/folders".into(),
                    "rename_folder",
                    vec![
                        pair("folder", k.clone()),
                        pair("name", text(&changes["name"])),
                    ],
                ));
            }
        }
        ("create_record", coll) => {
            let r = &slots["record"];
            let (page, op, form) = match coll {
                "contacts" => (
                    "/contacts/new",
                    "create_contact",
                    ["name", "email", "company", "phone"]
                        .iter()
                        .map(|k| pair(k, text(&r[*k])))
                        .collect(),
                ),
                "labels" => (
                    "/labels",
                    "create_label",
                    vec![
                        pair("name", text(&r["name"])),
                        pair("color", text(&r["color"])),
                    ],
                ),
                "filters" => (
                    "/filters",
                    "create_filter",
                    vec![
                        pair("from", text(&r["match"]["from"])),
                        pair("subject", String::new()),
                        pair("label", text(&r["action"]["label"])),
                        pair("folder", text(&r["action"]["folder"])),
                    ],
                ),
                other => panic!("no create form for {other}"),
            };
            out.push((page.into(), op, form));
        }
        other => panic!(
            "{}: {other:?} is not covered by the mail UI",
            task["task_id"]
        ),
    }
    out
}

/// Every field a shipped mail task changes has a form on a page that can write it, and
/// performing those forms with the task's values gives what the task wants and nothing else.
#[tokio::test]
async fn every_field_the_shipped_mail_tasks_change_has_a_working_form() {
    let f = fixture("mail").await;
    let tasks: Value =
        serde_json::from_str(include_str!("../tasks.json")).unwrap();
    let ui = app_ui("mail").unwrap();
    let ctx = Ctx {
        today: Today::parse(TODAY).unwrap(),
    };
    let seed = f.current();
    let mut checked = 0;
    for task in tasks["tasks"].as_array().unwrap() {
        let id = task["task_id"].as_str().unwrap();
        let slots = &task["slots"];
        let mut state = seed.clone();
        for (page, op, mut fields) in forms_for(task) {
            let (status, html) = f.get(&page).await;
            assert_eq!(status, 200, "{id}: {page}");
            let form =
                form_of(&html, op).unwrap_or_else(|| panic!("{id}: {page} has no {op} form"));
            for (name, value) in &fields {
                let input = match name.as_str() {
                    "message" => {
                        html.contains(&format!(r#"form="bulk" name="message" value="{value}""#))
                    }
                    "do" | "move" | "label" => {
                        form.contains(&format!(r#"name="{name}" value="{value}""#))
                            || name == "label"
                                && op == "create_filter"
                                && form.contains(&format!(r#"value="{value}""#))
                    }
                    _ => form.contains(&format!(r#"name="{name}""#)),
                };
                assert!(input, "{id}: {page} {op} form lacks {name}={value}");
            }
            // Fields the task leaves alone keep what the page shows (a contact's name, a draft's body).
            if op == "update_contact" || (op == "compose" && page.starts_with("/drafts/")) {
                let key = fields[0].1.clone();
                let coll = if op == "compose" {
                    "drafts"
                } else {
                    "contacts"
                };
                let changes = slots["changes"].as_object().unwrap();
                for (name, value) in fields.iter_mut() {
                    if !changes.contains_key(name.as_str())
                        && !["contact", "draft", "do", "starred"].contains(&name.as_str())
                    {
                        *value = rec(&state, coll, &key)[name.as_str()]
                            .as_str()
                            .unwrap_or_default()
                            .to_string();
                    }
                    if let Some(v) = changes.get(name.as_str()) {
                        *value = match v {
                            Value::String(s) => s.clone(),
                            Value::Array(a) => a
                                .iter()
                                .map(|x| x.as_str().unwrap())
                                .collect::<Vec<_>>()
                                .join(", "),
                            other => other.to_string(),
                        };
                    }
                }
            }
            ui.apply(op, &FormData(fields), &ctx, &mut state)
                .unwrap_or_else(|e| panic!("{id}: {op}: {e}"));
        }
        match task["template"].as_str().unwrap() {
            "update_records" => {
                let coll = slots["collection"].as_str().unwrap();
                let keys: Vec<&str> = slots["keys"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|k| k.as_str().unwrap())
                    .collect();
                for k in &keys {
                    for (field, want) in slots["changes"].as_object().unwrap() {
                        let got = &rec(&state, coll, k)[field.trim_end_matches('+')];
                        if field.ends_with('+') {
                            assert!(got.as_array().unwrap().contains(want), "{id}: {k}.{field}");
                        } else {
                            assert_eq!(got, want, "{id}: {k}.{field}");
                        }
                    }
                }
                assert_eq!(
                    without(&state, coll, &keys),
                    without(&seed, coll, &keys),
                    "{id}: only the targets changed"
                );
            }
            "create_record" => {
                let coll = slots["collection"].as_str().unwrap();
                let made = state[coll].as_array().unwrap().last().unwrap();
                for (k, v) in slots["expect"]
                    .as_object()
                    .unwrap()
                    .iter()
                    .chain(slots["identify"].as_object().unwrap())
                {
                    assert_eq!(&made[k], v, "{id}: {k}");
                }
            }
            _ => {
                let sent = state["messages"].as_array().unwrap().last().unwrap();
                assert_eq!(
                    (
                        sent["folder"].as_str(),
                        &sent["to"],
                        &sent["subject"],
                        &sent["body"]
                    ),
                    (
                        Some("sent"),
                        &slots["to"],
                        &slots["subject"],
                        &slots["body"]
                    ),
                    "{id}"
                );
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 22);
}
