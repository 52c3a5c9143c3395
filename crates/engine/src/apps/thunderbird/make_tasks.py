#!/usr/bin/env python3
"""Writes tasks.json of the thunderbird pack. Run from the crate root:
python3 crates/engine/src/apps/thunderbird/make_tasks.py
"""
import json
import os

ME = "Dana Ruiz <dana@harbor.test>"
TASKS = []
TAG = {"$label1": "Important", "$label2": "Work", "$label3": "Personal", "$label4": "To Do", "$label5": "Later"}


def msg(n, frm, subject, day, body, **kw):
    m = {"id": "<m%02d@mail.harbor.test>" % n, "from": frm, "to": ME, "subject": subject,
         "date": "%s, %02d Mar 2025 %02d:%02d:00 +0000" % (["Sat", "Sun", "Mon", "Tue", "Wed", "Thu", "Fri"][day % 7], day, 8 + n % 9, (n * 7) % 60),
         "body": body}
    m.update(kw)
    return m


INBOX = [
    msg(1, "Priya Shah <priya@northwind.test>", "Q1 budget review", 3, "The budget review moved to Thursday at 10."),
    msg(2, "Leo Park <leo@harbor.test>", "Lunch on Friday?", 4, "Are you free for lunch on Friday?"),
    msg(3, "Accounts <billing@northwind.test>", "Invoice 4471 for February", 5, "Please find invoice 4471 attached.", read=True),
    msg(4, "Maya Chen <maya@harbor.test>", "Warehouse inventory counts", 6, "Counts for aisle 7 are in the shared sheet."),
    msg(5, "Omar Haddad <omar@lakeside.test>", "Contract renewal terms", 7, "Here are the renewal terms we discussed.", read=True),
    msg(6, "Newsletter <news@shipping-weekly.test>", "Shipping Weekly: port delays", 8, "This week: port delays and fuel prices.", read=True),
]
PROJECTS = [
    msg(11, "Maya Chen <maya@harbor.test>", "Dock 4 renovation plan", 2, "Draft plan for the dock renovation.", read=True),
    msg(12, "Leo Park <leo@harbor.test>", "Forklift training schedule", 3, "Training runs every Tuesday in April.", read=True, flagged=True),
]


def base(extra=None):
    folders = {"Inbox": [dict(m) for m in INBOX], "Projects": [dict(m) for m in PROJECTS], "Archive": []}
    folders.update(extra or {})
    return folders


def add(tid, text, difficulty, template, slots, context, scenario="Mail Organisation"):
    TASKS.append({"task_id": "thunderbird_%s" % tid, "task_instruction": text, "context": context,
                  "difficulty": difficulty, "domain": "thunderbird", "domains": ["thunderbird"],
                  "platform": "desktop", "scenario": scenario, "task_type": "single_app",
                  "template": template, "slots": slots})


def find(folders, subject):
    for name, msgs in folders.items():
        for m in msgs:
            if m["subject"] == subject:
                return name, m
    raise KeyError(subject)


def op(folders, kind, subject=None, **kw):
    if kind == "create_folder":
        return dict(op=kind, name=kw["name"], say="folder %s created" % kw["name"])
    name, m = find(folders, subject)
    says = {"flag": "%r starred", "unflag": "%r unstarred", "read": "%r marked read", "unread": "%r marked unread",
            "delete": "%r deleted", "move": "%r moved to " + kw.get("to", ""),
            "tag": "%r tagged " + TAG.get(kw.get("tag"), ""), "untag": "%r no longer tagged " + TAG.get(kw.get("tag"), "")}
    return dict(op=kind, id=m["id"], folder=name, subject=subject, say=says[kind] % subject, **kw)


def mail(tid, text, difficulty, ops_spec, folders=None, prep=None):
    folders = folders or base()
    for subject, fields in (prep or {}).items():
        find(folders, subject)[1].update(fields)
    ops = [op(folders, *o[:2], **(o[2] if len(o) > 2 else {})) if o[0] != "create_folder" else op(folders, "create_folder", **o[1]) for o in ops_spec]
    context = ("The setup writes Local Folders (%s) as mbox files and opens Thunderbird. Ground truth: %s. "
               "Checkpoints: one per change (0.8 split); every other message stays in its folder with its star "
               "and tags (0.2, once a change is made). Moved/deleted messages are expunged (X-Mozilla-Status 0x0008) "
               "in their old mbox, not removed." % (", ".join("%s: %d" % (k, len(v)) for k, v in folders.items()),
                                                 "; ".join(o["say"] for o in ops)))
    add(tid, text, difficulty, "tb_mail", {"folders": folders, "ops": ops}, context)


def organise():
    mail("star_budget", "In Thunderbird, star the message \"Q1 budget review\" in the Inbox.", "easy",
         [("flag", "Q1 budget review")])
    mail("star_contract", "Star Omar Haddad's message about the contract renewal.", "easy",
         [("flag", "Contract renewal terms")])
    mail("unstar_forklift", "Remove the star from \"Forklift training schedule\" in the Projects folder.", "easy",
         [("unflag", "Forklift training schedule")])
    mail("tag_important", "Tag the message \"Invoice 4471 for February\" as Important.", "easy",
         [("tag", "Invoice 4471 for February", {"tag": "$label1"})])
    mail("tag_work", "Give Maya's \"Warehouse inventory counts\" message the Work tag.", "easy",
         [("tag", "Warehouse inventory counts", {"tag": "$label2"})])
    mail("tag_personal", "Tag Leo's lunch invitation as Personal.", "easy",
         [("tag", "Lunch on Friday?", {"tag": "$label3"})])
    mail("tag_todo", "Mark \"Contract renewal terms\" with the To Do tag.", "easy",
         [("tag", "Contract renewal terms", {"tag": "$label4"})])
    mail("tag_later", "Tag the Shipping Weekly newsletter as Later.", "easy",
         [("tag", "Shipping Weekly: port delays", {"tag": "$label5"})])
    mail("untag_work", "The Dock 4 renovation plan is not work-in-progress any more: remove its Work tag.", "medium",
         [("untag", "Dock 4 renovation plan", {"tag": "$label2"})],
         prep={"Dock 4 renovation plan": {"tags": ["$label2"]}})
    mail("mark_unread", "Mark the invoice message (Invoice 4471) as unread so it stays on your list.", "easy",
         [("unread", "Invoice 4471 for February")])
    mail("read_inventory", "Open and read Maya's \"Warehouse inventory counts\" so it is marked as read.", "easy",
         [("read", "Warehouse inventory counts")])
    mail("delete_newsletter", "Delete the Shipping Weekly newsletter from the Inbox.", "easy",
         [("delete", "Shipping Weekly: port delays")])
    mail("star_and_tag", "Star \"Q1 budget review\" and tag it Important.", "medium",
         [("flag", "Q1 budget review"), ("tag", "Q1 budget review", {"tag": "$label1"})])
    mail("triage_three", "Triage the Inbox: star the budget review, tag the contract renewal To Do and delete the "
         "Shipping Weekly newsletter.", "hard",
         [("flag", "Q1 budget review"), ("tag", "Contract renewal terms", {"tag": "$label4"}),
          ("delete", "Shipping Weekly: port delays")])
    mail("move_invoice", "Move \"Invoice 4471 for February\" from the Inbox to the Archive folder.", "medium",
         [("move", "Invoice 4471 for February", {"to": "Archive"})])
    mail("move_dock", "File Maya's inventory counts message into the Projects folder.", "medium",
         [("move", "Warehouse inventory counts", {"to": "Projects"})])
    mail("folder_finance", "Create a new folder called Finance under Local Folders.", "easy",
         [("create_folder", {"name": "Finance"})])
    mail("folder_and_move", "Create a folder named Contracts and move Omar's \"Contract renewal terms\" into it.",
         "hard", [("create_folder", {"name": "Contracts"}),
                  ("move", "Contract renewal terms", {"to": "Contracts"})])
    mail("unread_and_star", "Mark \"Contract renewal terms\" as unread and star it.", "medium",
         [("unread", "Contract renewal terms"), ("flag", "Contract renewal terms")])


def draft(tid, text, difficulty, to, subject, body):
    context = ("The setup writes Local Folders and opens Thunderbird (identity Dana Ruiz <dana@harbor.test>). "
               "Ground truth: a draft in Local Folders/Drafts to %s, subject %r, body %r. Checkpoints: subject (0.25), "
               "recipients (0.375), body (0.375) on the best-matching draft." % (", ".join(to), subject, body))
    add(tid, text, difficulty, "tb_draft", {"folders": base(), "draft": {"to": to, "subject": subject, "body": body}},
        context, scenario="Composing")


def drafts():
    draft("draft_leo", "Write a message to leo@harbor.test with the subject \"Lunch confirmed\" saying \"Friday at noon "
          "works for me.\" and save it as a draft (do not send it).", "medium",
          ["leo@harbor.test"], "Lunch confirmed", "Friday at noon works for me.")
    draft("draft_priya", "Draft a reply-style note to priya@northwind.test, subject \"Budget review agenda\", body "
          "\"I will bring the Q1 numbers.\" Save it as a draft only.", "medium",
          ["priya@northwind.test"], "Budget review agenda", "I will bring the Q1 numbers.")
    draft("draft_omar", "Compose an email to omar@lakeside.test titled \"Renewal questions\" with the text \"Can we "
          "extend the term to 24 months?\" and save it to Drafts.", "medium",
          ["omar@lakeside.test"], "Renewal questions", "Can we extend the term to 24 months?")
    draft("draft_maya", "Save a draft to maya@harbor.test with subject \"Aisle 7 recount\" and body \"Please recount "
          "aisle 7 on Monday.\"", "medium", ["maya@harbor.test"], "Aisle 7 recount", "Please recount aisle 7 on Monday.")
    draft("draft_two", "Prepare (but do not send) a message to leo@harbor.test and maya@harbor.test, subject "
          "\"Dock 4 kickoff\", body \"Kickoff is on Wednesday at 9.\" Save it as a draft.", "hard",
          ["leo@harbor.test", "maya@harbor.test"], "Dock 4 kickoff", "Kickoff is on Wednesday at 9.")
    draft("draft_billing", "Draft an email to billing@northwind.test with subject \"Invoice 4471 received\" and the "
          "body \"Payment is scheduled for March 20.\" Keep it in Drafts.", "medium",
          ["billing@northwind.test"], "Invoice 4471 received", "Payment is scheduled for March 20.")


KEEP = {"mail.identity.id1.useremail": "dana@harbor.test", "mail.server.server1.type": "none"}


def pref(tid, text, difficulty, preset, changes, where):
    context = ("The setup writes %s into prefs.js (Thunderbird's defaults where it has one) and opens Thunderbird. Ground truth: %s in "
               "prefs.js (%s; Thunderbird saves a changed preference at once). Checkpoints: one per preference (0.8 "
               "split), account and identity kept (0.2)." % (json.dumps(preset), json.dumps(changes), where))
    add(tid, text, difficulty, "tb_prefs", {"preset": preset, "changes": changes, "keep": KEEP}, context,
        scenario="Settings")


def prefs():
    pref("no_auto_read", "Stop Thunderbird from marking messages as read automatically when they are displayed.", "easy",
         {"mailnews.mark_message_read.auto": True}, {"mailnews.mark_message_read.auto": False},
         "Settings > General > Reading & Display")
    pref("remote_content", "Allow remote content in messages in Thunderbird.", "easy",
         {"mailnews.message_display.disable_remote_image": True},
         {"mailnews.message_display.disable_remote_image": False}, "Settings > Privacy & Security")
    pref("spellcheck_send", "Make Thunderbird check spelling before sending a message.", "easy",
         {"mail.SpellCheckBeforeSend": False}, {"mail.SpellCheckBeforeSend": True}, "Settings > Composition")
    pref("autosave_2", "Have Thunderbird auto-save messages being written every 2 minutes.", "medium",
         {"mail.compose.autosaveinterval": 5}, {"mail.compose.autosaveinterval": 2}, "Settings > Composition")
    # Thunderbird's default is inline (2: all-thunderbird.js overrides mailnews.js's 0), and it
    # drops a preference set back to its default from prefs.js: the goal is the non-default 0.
    pref("forward_attach", "Forward messages as attachments instead of inline.", "easy",
         {"mail.forward_message_mode": 2}, {"mail.forward_message_mode": 0}, "Settings > Composition")
    pref("no_outgoing_collect", "Stop Thunderbird from adding outgoing e-mail addresses to the address book.", "medium",
         {"mail.collect_email_address_outgoing": True}, {"mail.collect_email_address_outgoing": False},
         "Settings > Composition > Addressing")
    pref("reply_on_top", "Set Dana's identity to start replies above the quoted text.", "medium",
         {"mail.identity.id1.reply_on_top": 0}, {"mail.identity.id1.reply_on_top": 1},
         "Account Settings > Composition & Addressing")
    pref("display_name", "Change the name on Dana's identity to \"Dana M. Ruiz\".", "easy",
         {"mail.identity.id1.fullName": "Dana Ruiz"}, {"mail.identity.id1.fullName": "Dana M. Ruiz"},
         "Account Settings > identity")
    pref("no_scam_detect", "Turn off Thunderbird's scam (phishing) detection for messages.", "easy",
         {"mail.phishing.detection.enabled": True}, {"mail.phishing.detection.enabled": False},
         "Settings > Privacy & Security > Scam Detection")
    pref("mark_read_delay", "Make Thunderbird mark a displayed message as read only after 10 seconds.", "hard",
         {"mailnews.mark_message_read.delay": False, "mailnews.mark_message_read.delay.interval": 5},
         {"mailnews.mark_message_read.delay": True, "mailnews.mark_message_read.delay.interval": 10},
         "Settings > General > Reading & Display")


FIN = "mailbox://nobody@Local%20Folders/"


def filt(tid, text, difficulty, name, condition, actions, existing=(), extra=None):
    context = ("The setup writes Local Folders (Inbox, Projects, Archive%s) and msgFilterRules.dat with %d filter(s), "
               "then opens Thunderbird. Ground truth: a filter %r, condition %s, actions %s. Checkpoints: name (0.2), "
               "condition (0.4), actions (0.3), enabled (0.1)." % ("".join(", " + k for k in (extra or {})),
                                                                  len(existing), name, condition, actions))
    add(tid, text, difficulty, "tb_filter", {"folders": base(extra), "existing": list(existing),
        "filter": {"name": name, "condition": condition, "actions": actions}}, context, scenario="Filters")


def filters():
    filt("filter_invoices", "Create a message filter named \"Invoices\" that moves messages whose subject contains "
         "\"invoice\" to the Archive folder.", "medium", "Invoices", "AND (subject,contains,invoice)",
         [["Move to folder", FIN + "Archive"]])
    filt("filter_newsletter", "Add a filter called \"Newsletters\" that marks mail from news@shipping-weekly.test as read.",
         "medium", "Newsletters", "AND (from,contains,news@shipping-weekly.test)", [["Mark read", ""]])
    filt("filter_maya", "Create a filter \"Maya to Projects\" that moves messages from maya@harbor.test to Projects.",
         "medium", "Maya to Projects", "AND (from,contains,maya@harbor.test)", [["Move to folder", FIN + "Projects"]],
         existing=[{"name": "Newsletters", "action": "Mark read", "condition": "AND (from,contains,news@shipping-weekly.test)"}])
    filt("filter_urgent", "Make a filter named \"Urgent\" that tags messages whose subject contains \"urgent\" as Important.",
         "medium", "Urgent", "AND (subject,contains,urgent)", [["AddTag", "$label1"]])
    filt("filter_contracts", "Create a filter \"Contracts\" that stars messages whose subject contains \"contract\".",
         "medium", "Contracts", "AND (subject,contains,contract)", [["Mark flagged", ""]])


if __name__ == "__main__":
    organise()
    drafts()
    prefs()
    filters()
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tasks.json")
    with open(out + ".tmp", "w", encoding="utf-8") as fh:
        json.dump({"tasks": TASKS}, fh, indent=1, ensure_ascii=False)
        fh.write("\n")
    os.replace(out + ".tmp", out)
    print("wrote %d tasks to %s" % (len(TASKS), out))
