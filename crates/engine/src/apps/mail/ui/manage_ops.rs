//! The semantic operations on contacts, labels, folders and filters. Names are checked for
//! clashes, colours and addresses for form, and a folder or label still in use is named in the
//! error rather than silently orphaned.

use serde_json::{json, Map, Value};

use super::model::{arr, b, by_id, folder_name, is_colour, s, SYSTEM};
use super::records::{address, coll_mut, err, next_id, rec_mut};
use crate::ui::{Done, FormData, OpError};

fn done(message: String, go: Option<&str>) -> Result<Done, OpError> {
    Ok(Done {
        message,
        go: go.map(str::to_string),
    })
}

fn clash(state: &Value, key: &str, field: &str, value: &str, except: &str) -> Option<String> {
    arr(state, key)
        .iter()
        .find(|r| s(r, field).eq_ignore_ascii_case(value) && s(r, "id") != except)
        .map(|r| s(r, "name").to_string())
}

/// The contact fields of a form, checked.
fn contact_fields(
    form: &FormData,
    state: &Value,
    except: &str,
) -> Result<Map<String, Value>, OpError> {
    let name = form.non_blank("name", "The name")?;
    let email = address(form.non_blank("email", "The email address")?)?;
    if let Some(other) = clash(state, "contacts", "email", &email, except) {
        return err(format!("{other} already has the address {email}"));
    }
    let mut rec = Map::new();
    rec.insert("name".into(), json!(name));
    rec.insert("email".into(), json!(email));
    rec.insert(
        "company".into(),
        json!(form.get("company").unwrap_or_default().trim()),
    );
    rec.insert(
        "phone".into(),
        json!(form.get("phone").unwrap_or_default().trim()),
    );
    rec.insert("starred".into(), json!(form.checked("starred")));
    Ok(rec)
}

fn contact_op(op: &str, form: &FormData, state: &mut Value) -> Result<Done, OpError> {
    if op == "create_contact" {
        let fields = contact_fields(form, state, "")?;
        let contacts = coll_mut(state, "contacts")?;
        let id = next_id(contacts, "ct", 3);
        let mut rec = Map::new();
        rec.insert("id".into(), json!(id));
        rec.extend(fields);
        let name = rec
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        contacts.push(Value::Object(rec));
        return done(format!("Added {name} to your contacts"), Some("/contacts"));
    }
    let id = form.non_blank("contact", "The contact")?.to_string();
    match op {
        "update_contact" => {
            let fields = contact_fields(form, state, &id)?;
            let rec = rec_mut(state, "contacts", &id, "contact")?;
            rec.extend(fields);
            done(
                format!("Saved {}", form.get("name").unwrap_or_default().trim()),
                None,
            )
        }
        "star_contact" => {
            let on = form.required("starred")? == "true";
            let rec = rec_mut(state, "contacts", &id, "contact")?;
            rec.insert("starred".into(), json!(on));
            let name = rec.get("name").and_then(Value::as_str).unwrap_or_default();
            done(
                format!("{} {name}", if on { "Starred" } else { "Unstarred" }),
                None,
            )
        }
        _ => {
            rec_mut(state, "contacts", &id, "contact")?;
            coll_mut(state, "contacts")?.retain(|c| s(c, "id") != id);
            done("Contact deleted".into(), Some("/contacts"))
        }
    }
}

fn label_fields(form: &FormData, state: &Value, except: &str) -> Result<(String, String), OpError> {
    let name = form.non_blank("name", "The label name")?.to_string();
    if clash(state, "labels", "name", &name, except).is_some() {
        return err(format!("A label named {name:?} already exists"));
    }
    let colour = form.non_blank("color", "The colour")?.to_lowercase();
    if !is_colour(&colour) {
        return err(format!("{colour:?} is not a colour like #8e44ad"));
    }
    Ok((name, colour))
}

fn label_op(op: &str, form: &FormData, state: &mut Value) -> Result<Done, OpError> {
    if op == "create_label" {
        let (name, color) = label_fields(form, state, "")?;
        let labels = coll_mut(state, "labels")?;
        let id = next_id(labels, "lb", 0);
        labels.push(json!({"id": id, "name": name, "color": color}));
        return done(format!("Created label {name}"), None);
    }
    let id = form.non_blank("label", "The label")?.to_string();
    if op == "update_label" {
        let (name, color) = label_fields(form, state, &id)?;
        let rec = rec_mut(state, "labels", &id, "label")?;
        rec.insert("name".into(), json!(name));
        rec.insert("color".into(), json!(color));
        return done(format!("Saved label {name}"), None);
    }
    let name = rec_mut(state, "labels", &id, "label")?
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let name = if name.is_empty() { id.clone() } else { name };
    coll_mut(state, "labels")?.retain(|l| s(l, "id") != id);
    for m in coll_mut(state, "messages")?.iter_mut() {
        if let Some(list) = m.get_mut("labels").and_then(Value::as_array_mut) {
            list.retain(|l| l.as_str() != Some(&id));
        }
    }
    for f in coll_mut(state, "filters")?.iter_mut() {
        if let Some(a) = f.get_mut("action").and_then(Value::as_object_mut) {
            if a.get("label").and_then(Value::as_str) == Some(&id) {
                a.remove("label");
            }
        }
    }
    done(format!("Deleted label {name}"), None)
}

fn folder_id(name: &str, state: &Value) -> String {
    let slug: String = name
        .to_lowercase()
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '-' })
        .collect::<String>()
        .split('-')
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    let base = format!("f-{slug}");
    (1..)
        .map(|n| {
            if n == 1 {
                base.clone()
            } else {
                format!("{base}-{n}")
            }
        })
        .find(|id| by_id(arr(state, "folders"), id).is_none())
        .unwrap_or(base)
}

fn folder_op(op: &str, form: &FormData, state: &mut Value) -> Result<Done, OpError> {
    if op == "create_folder" {
        let name = form.non_blank("name", "The folder name")?.to_string();
        if let Some(other) = clash(state, "folders", "name", &name, "") {
            return err(format!("A folder named {other:?} already exists"));
        }
        let id = folder_id(&name, state);
        coll_mut(state, "folders")?.push(json!({"id": id, "name": name, "system": false}));
        return done(format!("Created folder {name}"), None);
    }
    let id = form.non_blank("folder", "The folder")?.to_string();
    let f = by_id(arr(state, "folders"), &id)
        .ok_or_else(|| OpError(format!("there is no folder {id:?}")))?;
    let old = s(f, "name").to_string();
    if b(f, "system") || SYSTEM.contains(&id.as_str()) {
        return err(format!(
            "{old} is a system folder: it cannot be renamed or deleted"
        ));
    }
    if op == "rename_folder" {
        let name = form.non_blank("name", "The folder name")?.to_string();
        if let Some(other) = clash(state, "folders", "name", &name, &id) {
            return err(format!("A folder named {other:?} already exists"));
        }
        rec_mut(state, "folders", &id, "folder")?.insert("name".into(), json!(name));
        return done(format!("Renamed folder {old} to {name}"), None);
    }
    let held = arr(state, "messages")
        .iter()
        .filter(|m| s(m, "folder") == id)
        .count();
    if held > 0 {
        return err(format!(
            "{old} still holds {held} message(s): move them out first"
        ));
    }
    if let Some(fl) = arr(state, "filters")
        .iter()
        .find(|fl| s(fl.get("action").unwrap_or(&Value::Null), "folder") == id)
    {
        return err(format!(
            "Filter {} moves messages to {old}: delete it first",
            s(fl, "id")
        ));
    }
    coll_mut(state, "folders")?.retain(|f| s(f, "id") != id);
    done(format!("Deleted folder {old}"), None)
}

fn filter_op(op: &str, form: &FormData, state: &mut Value) -> Result<Done, OpError> {
    if op == "delete_filter" {
        let id = form.non_blank("filter", "The filter")?.to_string();
        rec_mut(state, "filters", &id, "filter")?;
        coll_mut(state, "filters")?.retain(|f| s(f, "id") != id);
        return done("Filter deleted".into(), None);
    }
    let mut matching = Map::new();
    let from = form.get("from").unwrap_or_default().trim().to_lowercase();
    if !from.is_empty() {
        if from.contains(char::is_whitespace) {
            return err(format!("{from:?} is not a sender address"));
        }
        matching.insert("from".into(), json!(from));
    }
    let subject = form.get("subject").unwrap_or_default().trim();
    if !subject.is_empty() {
        matching.insert("subjectContains".into(), json!(subject));
    }
    if matching.is_empty() {
        return err("Give the filter a sender or a subject to match");
    }
    let mut action = Map::new();
    let label = form.get("label").unwrap_or_default();
    if !label.is_empty() {
        if by_id(arr(state, "labels"), label).is_none() {
            return err(format!("there is no label {label:?}"));
        }
        action.insert("label".into(), json!(label));
    }
    let folder = form.get("folder").unwrap_or_default();
    if !folder.is_empty() {
        if by_id(arr(state, "folders"), folder).is_none() || matches!(folder, "sent" | "drafts") {
            return err(format!("a filter cannot move messages to {folder:?}"));
        }
        action.insert("folder".into(), json!(folder));
    }
    if form.checked("markRead") {
        action.insert("markRead".into(), json!(true));
    }
    if action.is_empty() {
        return err("Choose what the filter does: a label, a folder or mark as read");
    }
    let target = folder_name(state, folder).to_string();
    let filters = coll_mut(state, "filters")?;
    let id = next_id(filters, "fl", 0);
    filters.push(json!({"id": id, "match": matching, "action": action}));
    let what = if folder.is_empty() {
        String::new()
    } else {
        format!(" (to {target})")
    };
    done(format!("Created filter {id}{what}"), None)
}

/// Runs a contact, label, folder or filter operation.
pub fn apply(op: &str, form: &FormData, state: &mut Value) -> Result<Done, OpError> {
    match op {
        "create_contact" | "update_contact" | "star_contact" | "delete_contact" => {
            contact_op(op, form, state)
        }
        "create_label" | "update_label" | "delete_label" => label_op(op, form, state),
        "create_folder" | "rename_folder" | "delete_folder" => folder_op(op, form, state),
        "create_filter" | "delete_filter" => filter_op(op, form, state),
        other => err(format!("unknown operation {other:?}")),
    }
}
