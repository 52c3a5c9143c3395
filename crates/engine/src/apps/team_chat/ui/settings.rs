//! Channel details (rename, topic and purpose, privacy, members, archive), the new-channel form
//! and the signed-in user's profile.

use maud::{html, Markup};
use serde_json::Value;

use super::model::{arr, b, by_id, me, members, s, user_name};
use super::view::sidebar;
use crate::ui::page::back;

/// Time zones the profile offers (plus whatever a user has already).
const ZONES: &[&str] = &[
    "UTC",
    "Europe/London",
    "Europe/Lisbon",
    "Europe/Dublin",
    "Europe/Paris",
    "Europe/Berlin",
    "Europe/Madrid",
    "Europe/Rome",
    "Europe/Amsterdam",
    "Europe/Stockholm",
    "Europe/Warsaw",
    "Europe/Athens",
    "Europe/Istanbul",
    "Africa/Lagos",
    "Africa/Nairobi",
    "Asia/Dubai",
    "Asia/Kolkata",
    "Asia/Singapore",
    "Asia/Shanghai",
    "Asia/Tokyo",
    "Asia/Seoul",
    "Australia/Sydney",
    "Pacific/Auckland",
    "America/Sao_Paulo",
    "America/New_York",
    "America/Toronto",
    "America/Chicago",
    "America/Denver",
    "America/Los_Angeles",
];

fn hidden(channel: &str, here: &str) -> Markup {
    html! {
        (back(here))
        input type="hidden" name="channel" value=(channel);
    }
}

/// `/c/<id>/details`.
pub fn details(state: &Value, id: &str) -> Option<(String, Markup)> {
    let c = by_id(arr(state, "channels"), id)?;
    let here = format!("/c/{id}/details");
    let name = s(c, "name");
    let inside = members(c);
    let outside: Vec<&Value> = arr(state, "users")
        .iter()
        .filter(|u| !inside.contains(&s(u, "id")))
        .collect();
    let private = b(c, "isPrivate");
    let archived = b(c, "isArchived");
    let body = html! {
        div.app {
            (sidebar(state, id))
            main.settings aria-label="Channel details" {
                header.head {
                    h1 { "Details of #" (name) }
                    a.close href={ "/c/" (id) } { "Back to #" (name) }
                }
                section aria-labelledby="s-name" {
                    h2 #s-name { "Name" }
                    form method="post" action="/op/rename_channel" {
                        (hidden(id, &here))
                        label for="f-name" { "Channel name" }
                        input #f-name type="text" name="name" value=(name) required;
                        button type="submit" { "Rename channel" }
                    }
                }
                section aria-labelledby="s-topic" {
                    h2 #s-topic { "Topic and purpose" }
                    form method="post" action="/op/set_topic" {
                        (hidden(id, &here))
                        label for="f-topic" { "Topic" }
                        input #f-topic type="text" name="topic" value=(s(c, "topic"));
                        label for="f-purpose" { "Purpose" }
                        textarea #f-purpose name="purpose" rows="2" { (s(c, "purpose")) }
                        button type="submit" { "Save topic and purpose" }
                    }
                }
                section aria-labelledby="s-privacy" {
                    h2 #s-privacy { "Privacy" }
                    p { "This channel is " strong { @if private { "private" } @else { "public" } } "." }
                    form method="post" action="/op/set_privacy" {
                        (hidden(id, &here))
                        input type="hidden" name="private" value=(!private);
                        button type="submit" { @if private { "Make public" } @else { "Make private" } }
                    }
                }
                section aria-labelledby="s-members" {
                    h2 #s-members { "Members (" (inside.len()) ")" }
                    ul.members {
                        @for u in &inside {
                            li data-user=(u) {
                                span { (user_name(state, u)) }
                                form.inline method="post" action="/op/remove_member" {
                                    (hidden(id, &here))
                                    input type="hidden" name="user" value=(u);
                                    button.quiet type="submit" aria-label={ "Remove " (user_name(state, u)) } { "Remove" }
                                }
                            }
                        }
                    }
                    @if !outside.is_empty() {
                        form method="post" action="/op/invite_members" {
                            (hidden(id, &here))
                            fieldset {
                                legend { "Add people" }
                                @for u in &outside {
                                    label.check {
                                        input type="checkbox" name="user" value=(s(u, "id"));
                                        (user_name(state, s(u, "id")))
                                    }
                                }
                            }
                            button type="submit" { "Add to channel" }
                        }
                    }
                }
                section aria-labelledby="s-archive" {
                    h2 #s-archive { "Archive" }
                    @if archived {
                        form method="post" action="/op/unarchive_channel" {
                            (hidden(id, &here))
                            button type="submit" { "Unarchive channel" }
                        }
                    } @else {
                        details.confirm {
                            summary { "Archive channel" }
                            p { "Nobody can post in an archived channel. Archive #" (name) "?" }
                            form method="post" action="/op/archive_channel" {
                                (hidden(id, &here))
                                button.danger type="submit" { "Yes, archive #" (name) }
                            }
                        }
                    }
                }
            }
        }
    };
    Some((format!("Details of #{name} · team chat"), body))
}

/// `/new-channel`.
pub fn new_channel(state: &Value) -> (String, Markup) {
    let me = me(state);
    let body = html! {
        div.app {
            (sidebar(state, ""))
            main.settings aria-label="New channel" {
                header.head { h1 { "Create a channel" } }
                form method="post" action="/op/create_channel" {
                    (back("/new-channel"))
                    label for="f-name" { "Name" }
                    input #f-name type="text" name="name" required placeholder="e.g. plan-budget";
                    label for="f-topic" { "Topic" }
                    input #f-topic type="text" name="topic";
                    label for="f-purpose" { "Purpose" }
                    textarea #f-purpose name="purpose" rows="2" {}
                    label.check { input type="checkbox" name="private" value="true"; "Make private" }
                    fieldset {
                        legend { "Members" }
                        @for u in arr(state, "users").iter().filter(|u| s(u, "id") != me) {
                            label.check {
                                input type="checkbox" name="member" value=(s(u, "id"));
                                (user_name(state, s(u, "id")))
                            }
                        }
                    }
                    button type="submit" { "Create channel" }
                }
            }
        }
    };
    ("New channel · team chat".into(), body)
}

/// `/profile`.
pub fn profile(state: &Value) -> (String, Markup) {
    let user = by_id(arr(state, "users"), me(state)).unwrap_or(&Value::Null);
    let tz = s(user, "timezone");
    let mut zones: Vec<&str> = ZONES.to_vec();
    if !tz.is_empty() && !zones.contains(&tz) {
        zones.push(tz);
    }
    let body = html! {
        div.app {
            (sidebar(state, ""))
            main.settings aria-label="Profile" {
                header.head { h1 { "Your profile" } }
                p { (s(user, "email")) }
                form method="post" action="/op/update_profile" {
                    (back("/profile"))
                    label for="f-display" { "Display name" }
                    input #f-display type="text" name="displayName" value=(s(user, "displayName")) required;
                    label for="f-title" { "Title" }
                    input #f-title type="text" name="title" value=(s(user, "title"));
                    label for="f-tz" { "Time zone" }
                    select #f-tz name="timezone" {
                        @for z in &zones { option value=(z) selected[*z == tz] { (z) } }
                    }
                    button type="submit" { "Save profile" }
                }
            }
        }
    };
    ("Profile · team chat".into(), body)
}
