//! The team-chat [`UiPlanner`]: a plan per shipped template (post_message, thread_reply,
//! add_reaction, and the generic update_records / create_record on channels and the profile),
//! built from the task's structured slots. Targets are accessible roles and names where a person
//! would read them, CSS selectors where the thing has no unique name (a given message's reaction
//! picker, a channel known only by id). Targets scrolled out of their list are scrolled to by
//! the executor. A click that posts a form or follows a link is a [`PlanStep::Submit`] (it waits
//! for the new page), and the plan then waits for that operation's success banner, so an error
//! banner is a miss. Plans read the current page before toggling: a reaction already on, a
//! member already in, a channel already archived or private is left as it is.

use serde_json::Value;

use crate::agents::TaskBrief;
use crate::rollout::plan_steps::{click, css, done, fill, role, submit, text, unless};
use crate::rollout::ui_plan::{PlanStep, UiPlanner};
use crate::rollout::ui_plan::PlanRefusal;

/// The team-chat planner.
pub struct TeamChatPlanner;

/// Waits until the page at a path starting with `prefix` has replaced the previous one.
fn landed(prefix: &str) -> PlanStep {
    PlanStep::WaitFor {
        target: css(format!("body[data-path^=\"{prefix}\"]")),
        timeout_ms: 15_000,
    }
}

/// Waits until a channel's own page (not the start page, not another channel's) is shown.
pub(crate) fn in_channel(name: &str) -> PlanStep {
    PlanStep::WaitFor {
        target: css(format!(
            "body[data-path^=\"/c/\"] main[aria-label=\"#{name}\"]"
        )),
        timeout_ms: 15_000,
    }
}

fn list<'a>(v: &'a Value, what: &str) -> Result<Vec<&'a str>, String> {
    v.as_array()
        .ok_or_else(|| format!("{what} is not a list"))?
        .iter()
        .map(|x| {
            x.as_str()
                .ok_or_else(|| format!("{what} holds a non-string"))
        })
        .collect()
}

fn channel_plan(
    key: &str,
    changes: &serde_json::Map<String, Value>,
) -> Result<Vec<PlanStep>, String> {
    let mut p = vec![
        submit(css(format!("nav.sidebar a[href=\"/c/{key}\"]"))),
        landed(&format!("/c/{key}")),
        submit(role("link", "Channel details")),
        landed(&format!("/c/{key}/details")),
    ];
    if let Some(name) = changes.get("name") {
        let name = name.as_str().ok_or("`name` is not a string")?;
        p.extend([
            fill(role("textbox", "Channel name"), name),
            submit(role("button", "Rename channel")),
            done("rename_channel"),
        ]);
    }
    if changes.contains_key("topic") || changes.contains_key("purpose") {
        for (field, label) in [("topic", "Topic"), ("purpose", "Purpose")] {
            if let Some(v) = changes.get(field) {
                p.push(fill(
                    role("textbox", label),
                    v.as_str().ok_or(format!("`{field}` is not a string"))?,
                ));
            }
        }
        p.extend([
            submit(role("button", "Save topic and purpose")),
            done("set_topic"),
        ]);
    }
    if let Some(private) = changes.get("isPrivate") {
        // The page offers the opposite of what the channel is: no button, nothing to do.
        let (button, already) = if private == true {
            ("Make private", "Make public")
        } else {
            ("Make public", "Make private")
        };
        p.push(unless(
            role("button", already),
            vec![submit(role("button", button)), done("set_privacy")],
        ));
    }
    if let Some(users) = changes.get("members+") {
        for u in list(users, "`members+`")? {
            let boxed = css(format!(
                "form[action=\"/op/invite_members\"] input[value=\"{u}\"]"
            ));
            p.push(unless(
                css(format!("ul.members li[data-user=\"{u}\"]")),
                vec![
                    click(boxed),
                    submit(role("button", "Add to channel")),
                    done("invite_members"),
                ],
            ));
        }
    }
    if let Some(archived) = changes.get("isArchived") {
        let archive = "section[aria-labelledby=\"s-archive\"]";
        if archived == true {
            p.push(unless(
                css(format!("{archive} form[action=\"/op/unarchive_channel\"]")),
                vec![
                    click(css("details.confirm summary")),
                    submit(css("form[action=\"/op/archive_channel\"] button")),
                    done("archive_channel"),
                ],
            ));
        } else {
            p.push(unless(
                css(format!("{archive} details.confirm")),
                vec![
                    submit(css(format!(
                        "{archive} form[action=\"/op/unarchive_channel\"] button"
                    ))),
                    done("unarchive_channel"),
                ],
            ));
        }
    }
    if let Some(other) = changes.keys().find(|k| {
        ![
            "name",
            "topic",
            "purpose",
            "isPrivate",
            "members+",
            "isArchived",
        ]
        .contains(&k.as_str())
    }) {
        return Err(format!("no plan changes channel field `{other}`"));
    }
    Ok(p)
}

fn profile_plan(changes: &serde_json::Map<String, Value>) -> Result<Vec<PlanStep>, String> {
    let mut p = vec![submit(css("nav.sidebar a.me")), landed("/profile")];
    for (field, v) in changes {
        let v = v.as_str().ok_or(format!("`{field}` is not a string"))?;
        match field.as_str() {
            "title" => p.push(fill(role("textbox", "Title"), v)),
            "displayName" => p.push(fill(role("textbox", "Display name"), v)),
            "timezone" => p.extend([
                click(role("combobox", "Time zone")),
                PlanStep::Type { text: v.into() },
                PlanStep::Key {
                    key: "Return".into(),
                },
            ]),
            other => return Err(format!("no plan changes profile field `{other}`")),
        }
    }
    p.extend([
        submit(role("button", "Save profile")),
        done("update_profile"),
    ]);
    Ok(p)
}

fn create_plan(rec: &Value) -> Result<Vec<PlanStep>, String> {
    let mut p = vec![
        submit(role("link", "+ New channel")),
        landed("/new-channel"),
        fill(role("textbox", "Name"), text(rec, "name")?),
        fill(role("textbox", "Topic"), text(rec, "topic")?),
    ];
    let purpose = text(rec, "purpose").unwrap_or_default();
    if !purpose.is_empty() {
        p.push(fill(role("textbox", "Purpose"), purpose));
    }
    if rec["isPrivate"] == true {
        p.push(click(role("checkbox", "Make private")));
    }
    let creator = rec["createdBy"].as_str().unwrap_or_default();
    for u in list(&rec["members"], "`members`")?
        .into_iter()
        .filter(|u| *u != creator)
    {
        p.push(click(css(format!("input[name=\"member\"][value=\"{u}\"]"))));
    }
    p.extend([
        submit(role("button", "Create channel")),
        done("create_channel"),
    ]);
    Ok(p)
}

impl UiPlanner for TeamChatPlanner {
    fn apps(&self) -> &[&'static str] {
        &["team-chat"]
    }

    fn plan(&self, brief: &TaskBrief) -> Result<Vec<PlanStep>, PlanRefusal> {
        let template = brief.structured["template"].as_str().unwrap_or_default();
        let slots = &brief.structured["slots"];
        match template {
            "post_message" => {
                let ch = text(slots, "channel")?;
                Ok(vec![
                    submit(role("link", ch)),
                    in_channel(ch),
                    fill(
                        role("textbox", &format!("Message #{ch}")),
                        text(slots, "text")?,
                    ),
                    submit(role("button", "Send")),
                    done("send_message"),
                ])
            }
            "thread_reply" => {
                let ch = text(slots, "channel")?;
                let parent = text(slots, "parent_id")?;
                let open = css(format!("[data-message-id=\"{parent}\"] a.replies"));
                Ok(vec![
                    submit(role("link", ch)),
                    in_channel(ch),
                    submit(open),
                    PlanStep::WaitFor {
                        target: css(format!(
                            "body[data-path$=\"/thread/{parent}\"] aside.thread textarea"
                        )),
                        timeout_ms: 15_000,
                    },
                    fill(role("textbox", "Reply in thread"), text(slots, "text")?),
                    submit(role("button", "Send reply")),
                    done("reply_in_thread"),
                ])
            }
            "add_reaction" => {
                let ch = text(slots, "channel")?;
                let emoji = text(slots, "emoji")?;
                let mut p = vec![submit(role("link", ch)), in_channel(ch)];
                for mid in list(&slots["message_ids"], "`message_ids`")? {
                    let m = format!("[data-message-id=\"{mid}\"]");
                    p.push(unless(
                        css(format!("{m} button.reaction.mine[data-emoji=\"{emoji}\"]")),
                        vec![
                            click(css(format!("{m} details.picker summary"))),
                            submit(css(format!(
                                "{m} form.emoji button[data-emoji=\"{emoji}\"]"
                            ))),
                            done("toggle_reaction"),
                        ],
                    ));
                }
                Ok(p)
            }
            "update_records" => {
                let changes = slots["changes"]
                    .as_object()
                    .ok_or("slot `changes` is not an object")?;
                let keys = list(&slots["keys"], "`keys`")?;
                match slots["collection"].as_str() {
                    Some("channels") => {
                        let mut p = Vec::new();
                        for k in keys {
                            p.extend(channel_plan(k, changes)?);
                        }
                        Ok(p)
                    }
                    Some("users") => profile_plan(changes),
                    other => Err(format!(
                        "update_records on collection {other:?} has no team-chat plan"
                    )),
                }
            }
            "create_record" if slots["collection"] == "channels" => create_plan(&slots["record"]),
            other => Err(format!("template {other:?} has no team-chat plan")),
        }
        .map_err(PlanRefusal::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brief(task: &Value) -> TaskBrief {
        crate::rollout::plan_steps::shipped_brief("team-chat", task)
    }

    #[test]
    fn every_shipped_team_chat_task_has_a_plan_ending_in_its_success_banner() {
        let tasks: Value =
            serde_json::from_str(include_str!("../tasks.json")).unwrap();
        for task in tasks["tasks"].as_array().unwrap() {
            let plan = TeamChatPlanner
                .plan(&brief(task))
                .unwrap_or_else(|e| panic!("{}: {e}", task["task_id"]));
            // The last step waits for the banner, or skips work already done and otherwise
            // ends by waiting for it.
            let last = crate::rollout::plan_steps::final_step(&plan);
            assert!(
                matches!(last, Some(PlanStep::WaitFor { .. })),
                "{}",
                task["task_id"]
            );
            assert!(plan.len() >= 3);
        }
        let bad = serde_json::json!({"template": "update_records", "slots": {"collection": "channels", "keys": ["C01"], "changes": {"createdBy": "U02"}}});
        assert_eq!(
            TeamChatPlanner.plan(&brief(&bad)).unwrap_err(),
            "no plan changes channel field `createdBy`"
        );
        let none = serde_json::json!({"template": "send_email", "slots": {}});
        assert!(TeamChatPlanner
            .plan(&brief(&none))
            .unwrap_err()
            .contains("no team-chat plan"));
    }
}
