#!/usr/bin/env python3
"""Regenerates the default seeds of the built-in apps, deterministically (fixed RNG seed).

Run from anywhere: python3 crates/engine/src/apps/generate_seeds.py
Writes <app>/seed.json for the four state-API apps and the files/home/ tree.
"""
import csv
import io
import json
import os
import random
import re
from datetime import datetime, timedelta

HERE = os.path.dirname(os.path.abspath(__file__))
R = random.Random(20260301)
BASE = datetime(2026, 3, 2, 9, 0, 0)

FIRST = ["Alice", "Ben", "Chloe", "Daniel", "Elena", "Farid", "Grace", "Hiro", "Isabel", "James",
         "Kavya", "Liam", "Maya", "Noah", "Olivia", "Pedro", "Quinn", "Rosa", "Samir", "Tara",
         "Umar", "Vera", "Wei", "Ximena", "Yusuf", "Zoe", "Aaron", "Bianca", "Carlos", "Dana"]
LAST = ["Nguyen", "Okafor", "Schmidt", "Rossi", "Kowalski", "Haddad", "Tanaka", "Silva", "Moreau",
        "Johansson", "Patel", "O'Brien", "Garcia", "Kim", "Novak", "Fischer", "Mensah", "Larsen",
        "Dubois", "Costa", "Ahmed", "Petrov", "Walsh", "Lopez", "Chen", "Brooks", "Ivanova", "Reyes"]
TITLES = ["Product Manager", "Backend Engineer", "Frontend Engineer", "Designer", "Data Analyst",
          "QA Engineer", "Engineering Manager", "Support Lead", "Marketing Manager", "Sales Director"]


def iso(dt):
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ")


def people(n):
    seen, out = set(), []
    while len(out) < n:
        f, l = R.choice(FIRST), R.choice(LAST)
        if (f, l) in seen:
            continue
        seen.add((f, l))
        out.append((f, l))
    return out


def pack_path(rel):
    """`team-chat/seed.json` -> `<packs>/team_chat/seed.json` (a pack folder is its app's name
    with underscores)."""
    app, _, rest = rel.partition("/")
    return os.path.join(HERE, app.replace("-", "_"), rest)


def write_json(rel, value):
    path = pack_path(rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        json.dump(value, fh, indent=1, ensure_ascii=False)
        fh.write("\n")


def write_text(rel, text):
    path = pack_path(rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write(text)


# ---------------------------------------------------------------- team-chat
def team_chat():
    users = []
    for i, (f, l) in enumerate(people(18)):
        uid = f"U{i + 1:02d}"
        users.append({"id": uid, "name": f"{f.lower()}.{l.lower().replace(chr(39), '')}",
                      "displayName": f"{f} {l}", "email": f"{f.lower()}.{l.lower().replace(chr(39), '')}@northwind.io",
                      "title": R.choice(TITLES), "timezone": R.choice(["Europe/Berlin", "America/New_York", "Asia/Tokyo", "Europe/London"]),
                      "isBot": False, "avatarColor": R.choice(["#4a90d9", "#d94a4a", "#4ad97a", "#d9a84a", "#8a4ad9"])})
    users.append({"id": "U99", "name": "deploybot", "displayName": "Deploy Bot", "email": "deploybot@northwind.io",
                  "title": "Bot", "timezone": "UTC", "isBot": True, "avatarColor": "#777777"})
    chans = [("general", "Company-wide announcements and chatter", False),
             ("random", "Non-work banter", False),
             ("engineering", "Engineering discussion", False),
             ("design", "Design reviews and critiques", False),
             ("product-launch", "Spring launch coordination", False),
             ("support-escalations", "Customer issues needing engineering", False),
             ("deploys", "Deploy notifications", False),
             ("leadership", "Leadership team", True),
             ("hiring-backend", "Backend hiring loop", True),
             ("old-website", "Legacy website (archived)", False)]
    channels, messages = [], {}
    # Every channel has at least as many distinct lines as it can get messages (at most 14), so no
    # top-level message has a twin an instruction could be mistaken for. The first lines are the
    # ones shipped tasks point at (by message id); #deploys and #support-escalations have a second,
    # differently worded message on the same subject at index 3 on purpose (tasks name both).
    lines = {
        "general": ["Reminder: all-hands is Thursday at 4pm in the big room.", "Welcome Bianca to the support team!",
                    "The office will be closed on Monday for the public holiday.", "Coffee machine on 3rd floor is fixed.",
                    "Please submit your Q1 expense reports by Friday.", "The parking garage gate needs the new badges from March 9.",
                    "Fire drill tomorrow at 11am, please leave by the east stairs.", "Lost and found: a blue umbrella and a laptop charger at reception.",
                    "The wifi password for guests changed, it is on the whiteboard by the kitchen.",
                    "Benefits enrolment closes on March 31, questions to People Ops.", "Yoga in meeting room 2 every Wednesday at 8am.",
                    "The new hire lunch is on Friday, all welcome.", "Printer on the 2nd floor is out of toner, a refill is ordered.",
                    "Town hall slides are in the shared drive under /company/2026."],
        "engineering": ["The staging database migration is done, please re-run your seeds.",
                        "Who owns the flaky checkout test? It failed 3 times today.",
                        "PR #4821 needs a second reviewer, it touches the auth middleware.",
                        "Heads up: we're bumping the Node version to 22 next sprint.",
                        "Latency on /api/search went up after yesterday's deploy, looking into it.",
                        "The CI cache was cleared, first builds will be slow.", "Reminder: rotate your personal API tokens before the 15th.",
                        "Redis on staging is back after the memory bump.", "I'm refactoring the cart service, expect a big PR on Thursday.",
                        "Postmortem for the search outage is up for comments.", "Can someone pair with me on the webhook retry logic this afternoon?",
                        "Dependabot opened 12 PRs overnight, I'll batch the minor ones.", "The feature flag for new checkout is at 20% in production.",
                        "Load test results for the orders API are in the perf channel doc."],
        "design": ["New onboarding mockups are in Figma, feedback welcome.", "Can we use the darker blue for primary buttons?",
                   "Icon set v3 is exported to the shared drive.", "Usability test recordings from Tuesday are uploaded.",
                   "I updated the type scale, headings are one step smaller.", "Empty states for the orders page are ready for review.",
                   "Design crit moves to Thursday this week.", "Accessibility audit found low contrast on the footer links.",
                   "Illustrations for the pricing page arrive next Monday.", "Who has the source file for the old logo?",
                   "Dark mode palette draft is in the Tokens page.", "The checkout flow prototype now works on mobile.",
                   "Please use the shared component library instead of detached copies.", "Photo shoot for the spring campaign is booked for March 18."],
        "product-launch": ["Launch date is confirmed for April 14.", "Press kit draft is ready for review.",
                           "We still need the pricing page copy from marketing.", "Beta feedback summary is posted in the doc.",
                           "Launch checklist has 9 open items, owners please update.", "Support macros for the new plans are drafted.",
                           "The webinar registration page is live.", "Sales enablement deck is final, v3 in the folder.",
                           "Legal signed off on the new terms of service.", "Email campaign is scheduled for the morning of launch day.",
                           "Partner announcement embargo lifts at 9am PT.", "The status page gets a banner during the migration window.",
                           "Demo video voice-over is recorded.", "Analytics dashboard for the launch is shared with everyone."],
        "support-escalations": ["Customer Acme Corp reports CSV exports are empty since Tuesday.",
                                "Ticket 10442: invoice totals off by one cent for EUR accounts.",
                                "Two customers cannot reset their password, emails bounce.",
                                "Acme Corp again: their CSV exports are still empty, now for the EU workspace too.",
                                "Hooli's SSO login loops back to the sign-in page.", "Ticket 10517: order search ignores accented names.",
                                "Vandelay Imports sees shipping labels printed in the wrong language.",
                                "Ticket 10533: a refund was issued twice for order 1187.",
                                "Umbrella Health asks for the audit log of last month's admin changes.",
                                "Stark Logistics reports webhooks arriving out of order.", "Ticket 10560: timezone shown as UTC on receipts.",
                                "Wayne Foods cannot add a fourth admin seat.", "Ticket 10571: the mobile app crashes when opening an empty cart.",
                                "Ticket 10588: two-factor codes arrive late for some users."],
        "deploys": ["Deployed api v2.14.0 to production.", "Deployed web v5.3.1 to staging.", "Rollback of api v2.13.2 completed.",
                    "Deployed api v2.14.0 to production again after the config fix.", "Deployed worker v1.8.2 to staging.",
                    "Deployed web v5.3.1 to production.", "Deployed search v0.9.4 to staging.", "Rollback of worker v1.8.2 completed.",
                    "Deployed worker v1.8.3 to production.", "Deployed api v2.14.1 to staging.", "Deployed mobile-bff v3.2.0 to production.",
                    "Deployed search v0.9.4 to production.", "Deployed web v5.3.2 to staging.", "Deployed admin v4.0.7 to production."],
        "random": ["Anyone up for lunch at the new ramen place?", "My cat walked on the keyboard during standup.",
                   "Book club: next pick is 'The Mythical Man-Month'.", "Who left the sourdough starter in the fridge? It is thriving.",
                   "Five-a-side football on Saturday, we need two more.", "Photo of the sunset from the roof terrace.",
                   "Board game night on Friday, I bring Catan.", "Recommendations for a podcast on the commute?",
                   "The plant on my desk survived the holidays.", "Bake-off entries close on Wednesday.",
                   "Found a great taco truck two blocks down.", "Is anyone else doing the 10k in April?",
                   "Team playlist has 300 songs now, add yours.", "Happy birthday Tara!"],
        "leadership": ["Q2 headcount plan draft is in the leadership folder.", "Board meeting moved to the 21st."],
        "hiring-backend": ["Candidate for Senior Backend has an onsite on Wednesday.", "Please submit scorecards within 24h."],
        "old-website": ["This channel is archived; use #engineering."],
    }
    human = [u["id"] for u in users if not u["isBot"]]
    t = BASE - timedelta(days=6)
    for i, (name, purpose, private) in enumerate(chans):
        cid = f"C{i + 1:02d}"
        members = human if name in ("general", "random") else sorted(R.sample(human, R.randint(4, 10)))
        if "U01" not in members and name not in ("hiring-backend",):
            members = sorted(set(members) | {"U01"})
        channels.append({"id": cid, "name": name, "topic": purpose, "purpose": purpose, "isPrivate": private,
                         "isArchived": name == "old-website", "createdBy": members[0], "createdAt": iso(BASE - timedelta(days=400 - i * 20)),
                         "members": members, "lastViewedAt": iso(BASE)})
        msgs = []
        pool = lines[name]
        count = R.randint(6, 14) if name not in ("old-website", "leadership", "hiring-backend") else len(pool)
        for j in range(count):
            t += timedelta(minutes=R.randint(3, 90))
            ts = f"{int(t.timestamp())}.{j:06d}"
            uid = "U99" if name == "deploys" else R.choice(members)
            msg = {"id": f"M{cid[1:]}{j + 1:03d}", "userId": uid, "text": pool[j % len(pool)], "ts": ts,
                   "threadTs": None, "replyCount": 0, "edited": False, "reactions": [], "attachments": []}
            if R.random() < 0.3:
                msg["reactions"].append({"emoji": R.choice(["thumbsup", "eyes", "tada", "white_check_mark", "heart"]),
                                         "users": sorted(R.sample(members, min(len(members), R.randint(1, 3))))})
            if R.random() < 0.1:
                msg["edited"] = True
            if name == "design" and j == 0:
                msg["attachments"].append({"name": "onboarding-v2.png", "size": 482113, "contentType": "image/png", "url": None})
            msgs.append(msg)
            if R.random() < 0.2 and j > 0:
                parent = msgs[R.randrange(len(msgs) - 1)]
                t += timedelta(minutes=2)
                reply = {"id": f"M{cid[1:]}{j + 1:03d}r", "userId": R.choice(members), "text": R.choice(
                    ["On it.", "Thanks, looking now.", "Agreed.", "Can you share more details?", "Fixed in the latest build."]),
                    "ts": f"{int(t.timestamp())}.{j:06d}", "threadTs": parent["ts"], "replyCount": 0, "edited": False,
                    "reactions": [], "attachments": []}
                parent["replyCount"] += 1
                msgs.append(reply)
        messages[cid] = msgs
    dms = []
    for k, other in enumerate(["U02", "U05", "U07"]):
        did = f"D{k + 1:02d}"
        dms.append({"id": did, "members": ["U01", other]})
        opener = ["Hey, do you have a minute to sync today?", "Can you look at my comments on the launch doc?",
                  "Are we still on for the 1:1 tomorrow?"][k]
        messages[did] = [{"id": f"MD{k + 1}01", "userId": other, "text": opener,
                          "ts": f"{int((BASE - timedelta(hours=5 - k)).timestamp())}.000001", "threadTs": None,
                          "replyCount": 0, "edited": False, "reactions": [], "attachments": []}]
    return {"workspace": {"name": "Northwind", "domain": "northwind.chat"}, "currentUser": "U01", "users": users,
            "channels": channels, "dms": dms, "messages": messages, "ui": {"activeConversation": "C01", "draft": ""}}


# ---------------------------------------------------------------- mail
def shipped_mail_ids():
    """Ids of seed mail messages the shipped tasks name (each pack's tasks.json and the cross-app
    assets/tasks/*.json): they keep the wording the tasks describe."""
    ids = set()
    cross = os.path.join(HERE, "..", "..", "..", "..", "assets", "tasks")
    files = [os.path.join(HERE, p, "tasks.json") for p in sorted(os.listdir(HERE))]
    files += [os.path.join(cross, n) for n in sorted(os.listdir(cross)) if n.endswith(".json")]
    for path in files:
        if os.path.isfile(path):
            with open(path) as fh:
                ids.update(re.findall(r"\bm\d{3}\b", fh.read()))
    return ids


def mail():
    contacts = []
    companies = ["Acme Corp", "Globex", "Initech", "Umbrella Health", "Stark Logistics", "Wayne Foods", "Hooli", "Vandelay Imports"]
    for i, (f, l) in enumerate(people(24)):
        co = R.choice(companies)
        dom = co.lower().split()[0] + ".com"
        contacts.append({"id": f"ct{i + 1:03d}", "name": f"{f} {l}", "email": f"{f.lower()}.{l.lower().replace(chr(39), '')}@{dom}",
                         "company": co, "phone": f"+1-555-{R.randint(100, 999)}-{R.randint(1000, 9999)}", "starred": R.random() < 0.2})
    labels = [{"id": "lb1", "name": "Work", "color": "#4a90d9"}, {"id": "lb2", "name": "Finance", "color": "#4ad97a"},
              {"id": "lb3", "name": "Travel", "color": "#d9a84a"}, {"id": "lb4", "name": "Urgent", "color": "#d94a4a"},
              {"id": "lb5", "name": "Newsletters", "color": "#999999"}]
    folders = [{"id": f, "name": f.capitalize(), "system": True} for f in ["inbox", "sent", "drafts", "archive", "spam", "trash"]]
    folders.append({"id": "f-receipts", "name": "Receipts", "system": False})
    # (subject, body, labels) templates; the draw below picks one per message. Each template has
    # several wordings: the first use of a template and every message a shipped task names keep the
    # first wording (the tasks' instructions describe it), the others rotate through the rest, so the
    # mailbox does not repeat the same few subjects. `{n}` is the message's number (filled in).
    subjects = [("Invoice #{n} for March services", "Please find attached the invoice for March. Payment is due within 30 days.", ["lb2"]),
                ("Re: Contract renewal", "Thanks for the call. We are fine with the 12-month renewal at the same rate.", ["lb1"]),
                ("Flight confirmation LH{n}", "Your flight to Berlin on April 3 is confirmed. Seat 14C.", ["lb3"]),
                ("Quarterly review agenda", "Attached is the agenda for next week's quarterly review.", ["lb1"]),
                ("URGENT: server certificate expires Friday", "The TLS certificate for api.example.com expires this Friday.", ["lb4", "lb1"]),
                ("Your weekly digest", "Here are the top stories from this week in product management.", ["lb5"]),
                ("Lunch next week?", "Would Tuesday or Wednesday work for you?", []),
                ("Expense report approved", "Your expense report ER-{n} was approved and will be paid on the next cycle.", ["lb2"]),
                ("Hotel booking #{n}", "Your reservation at Hotel Adlon is confirmed for 2 nights.", ["lb3"]),
                ("Design feedback", "I left comments on the onboarding mockups, mostly about spacing.", ["lb1"])]
    wordings = {
        "Invoice #{n} for March services": [("Invoice #{n}: annual support plan", "The invoice for the annual support plan is attached; terms are net 45.")],
        "Re: Contract renewal": [("Re: Pricing for the 2027 term", "We can hold the current unit price if we sign before June."),
                                 ("Re: Amendment to the master agreement", "Legal is fine with clause 7; clause 9 needs another look."),
                                 ("Re: Renewal paperwork", "The signed renewal is attached, countersigned copy to follow.")],
        "Flight confirmation LH{n}": [("Train tickets Berlin-Hamburg #{n}", "Your ICE tickets for March 14 are attached, coach 7."),
                                      ("Boarding pass AF{n}", "Check-in is open for your flight to Lyon on March 22, gate closes 20 minutes before departure.")],
        "Quarterly review agenda": [("Slides for the board deck", "Can you send me your two slides for the board deck by Wednesday?"),
                                    ("Notes from the ops review", "Notes from today's ops review are below; three action items for us."),
                                    ("Planning offsite: draft agenda", "Draft agenda for the planning offsite, comments welcome before Friday.")],
        "URGENT: server certificate expires Friday": [
            ("URGENT: disk usage at 93% on db-02", "db-02 will run out of disk in about two days at the current growth rate."),
            ("URGENT: payroll file rejected by the bank", "The bank rejected this month's payroll file; the IBAN of one employee is invalid."),
            ("URGENT: nightly backups failed twice", "The nightly backup of the orders database failed on Monday and Tuesday."),
            ("URGENT: customer data request due today", "A customer's data export request is due today under our 30-day policy."),
            ("URGENT: office alarm code changes tonight", "Facilities changes the alarm code at 6pm; the new code is in the safe."),
            ("URGENT: vendor invoice past due", "CloudCo's invoice is 15 days past due and they threaten to suspend the account.")],
        "Your weekly digest": [("Product newsletter: March edition", "This month: pricing experiments, a new onboarding flow and three customer stories."),
                               ("Industry roundup", "The week in logistics software: funding, launches and a big acquisition.")],
        "Lunch next week?": [("Coffee on Thursday?", "I'm near your office on Thursday afternoon, coffee?"),
                             ("Team dinner on the 19th", "Booking a table for the team dinner, reply if you can come.")],
        "Expense report approved": [("Expense report needs a receipt", "Your expense report ER-{n} is missing the hotel receipt; please attach it."),
                                    ("Reimbursement sent", "The reimbursement for ER-{n} was sent to your account today.")],
        "Hotel booking #{n}": [("Car rental confirmation #{n}", "Your car is reserved at Berlin Brandenburg, pick-up at 10:00."),
                               ("Conference pass #{n}", "Your pass for the Logistics Summit is attached, badge pick-up at hall B.")],
        "Design feedback": [("Feedback on the landing page", "The hero reads well; the pricing table needs more contrast."),
                            ("Brand guidelines v2", "Here is the updated brand guide with the new colour palette.")],
    }
    pinned = shipped_mail_ids()
    uses = {}
    me = {"email": "jordan.lee@northwind.io", "name": "Jordan Lee", "signature": "Best,\nJordan Lee\nOperations, Northwind"}
    messages = []
    t = BASE - timedelta(days=20)
    for i in range(60):
        t += timedelta(hours=R.randint(1, 9))
        c = R.choice(contacts)
        subj, body, lbs = R.choice(subjects)
        n = R.randint(1000, 9999)
        k = uses.get(subj, 0)
        uses[subj] = k + 1
        mid = f"m{i + 1:03d}"
        if k > 0 and mid not in pinned and subj in wordings:
            options = wordings[subj]
            subj, body = options[(k - 1) % len(options)]
        folder = R.choices(["inbox", "archive", "sent", "spam", "trash", "f-receipts"], [60, 20, 10, 3, 3, 4])[0]
        sender = {"name": me["name"], "email": me["email"]} if folder == "sent" else {"name": c["name"], "email": c["email"]}
        to = [c["email"]] if folder == "sent" else [me["email"]]
        att = []
        if "Invoice" in subj:
            att = [{"name": f"invoice-{n}.pdf", "size": R.randint(40000, 120000), "contentType": "application/pdf"}]
        messages.append({"id": f"m{i + 1:03d}", "threadId": f"t{i + 1:03d}", "folder": folder, "from": sender, "to": to, "cc": [],
                         "subject": subj.format(n=n), "body": body.format(n=n), "date": iso(t), "isRead": folder != "inbox" or R.random() < 0.6,
                         "isStarred": R.random() < 0.12, "labels": list(lbs), "attachments": att})
    drafts = [{"id": "d001", "to": [contacts[0]["email"]], "cc": [], "subject": "Follow-up on the proposal",
               "body": "Hi,\n\nJust following up on the proposal we sent last week.", "updatedAt": iso(BASE - timedelta(hours=3)), "inReplyTo": None},
              {"id": "d002", "to": [], "cc": [], "subject": "Team offsite ideas", "body": "Draft list of venues:\n- ",
               "updatedAt": iso(BASE - timedelta(days=1)), "inReplyTo": None}]
    filters = [{"id": "fl1", "match": {"subjectContains": "digest"}, "action": {"label": "lb5", "markRead": True}}]
    return {"account": me, "folders": folders, "labels": labels, "messages": messages, "drafts": drafts,
            "contacts": contacts, "filters": filters, "ui": {"selectedFolder": "inbox", "selectedMessage": None}}


# ---------------------------------------------------------------- issue-tracker
def issue_tracker():
    users = [{"id": f"u{i + 1}", "name": f"{f} {l}", "email": f"{f.lower()}@northwind.io",
              "role": R.choice(["developer", "developer", "qa", "designer", "manager"])} for i, (f, l) in enumerate(people(12))]
    projects = [{"id": "p1", "key": "WEB", "name": "Web Storefront", "lead": "u1", "description": "Customer-facing web shop"},
                {"id": "p2", "key": "API", "name": "Platform API", "lead": "u2", "description": "Public and internal APIs"},
                {"id": "p3", "key": "MOB", "name": "Mobile App", "lead": "u3", "description": "iOS and Android apps"}]
    sprints, boards = [], []
    for p in projects:
        for k, state in enumerate(["closed", "active", "future"]):
            start = BASE + timedelta(days=14 * (k - 1))
            sprints.append({"id": f"s{p['id'][1:]}{k + 1}", "projectId": p["id"], "name": f"{p['key']} Sprint {22 + k}", "state": state,
                            "startDate": start.strftime("%Y-%m-%d"), "endDate": (start + timedelta(days=13)).strftime("%Y-%m-%d"),
                            "goal": R.choice(["Checkout stability", "Search relevance", "Release 5.4", "Onboarding polish", "Performance"])})
        boards.append({"id": f"b{p['id'][1:]}", "projectId": p["id"], "name": f"{p['key']} board",
                       "columns": [{"name": s, "statuses": [s]} for s in ["To Do", "In Progress", "In Review", "Done"]]})
    summaries = {"bug": ["Checkout button unresponsive on Safari", "Search returns duplicates for quoted terms",
                         "Crash when uploading a profile photo", "Wrong currency symbol on invoices", "Session expires too early",
                         "Pagination skips the last page", "Push notifications arrive twice", "Timeout on bulk export"],
                 "story": ["As a shopper I can save items for later", "As an admin I can export orders to CSV",
                           "As a user I can sign in with a passkey", "As a shopper I can filter by size",
                           "As a user I can change my email address", "Dark mode for settings screens"],
                 "task": ["Upgrade Node to 22", "Rotate API signing keys", "Add metrics for cache hit rate",
                          "Document the rate limits", "Clean up feature flags", "Migrate CI to new runners"],
                 "epic": ["Spring launch", "Payments v2"]}
    issues = []
    n_by_project = {}
    for i in range(90):
        p = R.choice(projects)
        typ = R.choices(["bug", "story", "task", "epic"], [35, 35, 27, 3])[0]
        n_by_project[p["key"]] = n_by_project.get(p["key"], 0) + 1
        psprints = [s for s in sprints if s["projectId"] == p["id"]]
        sprint = R.choice(psprints + [None])
        if sprint is None:
            status = "To Do"
        elif sprint["state"] == "closed":
            status = "Done"
        elif sprint["state"] == "future":
            status = "To Do"
        else:
            status = R.choice(["To Do", "In Progress", "In Review", "Done"])
        created = BASE - timedelta(days=R.randint(5, 60))
        issue = {"id": f"i{i + 1:03d}", "key": f"{p['key']}-{100 + n_by_project[p['key']]}", "projectId": p["id"], "type": typ,
                 "summary": R.choice(summaries[typ]), "description": "Steps and acceptance criteria are in the linked doc.",
                 "status": status, "priority": R.choice(["Highest", "High", "Medium", "Medium", "Low", "Lowest"]),
                 "assignee": R.choice([u["id"] for u in users] + [None, None]), "reporter": R.choice(users)["id"],
                 "sprintId": sprint["id"] if sprint else None, "storyPoints": R.choice([1, 2, 3, 5, 8, None]),
                 "labels": R.sample(["frontend", "backend", "regression", "customer", "tech-debt"], R.randint(0, 2)),
                 "comments": [], "created": iso(created), "updated": iso(created + timedelta(days=R.randint(0, 4)))}
        if R.random() < 0.25:
            issue["comments"].append({"id": f"c{i + 1:03d}", "author": R.choice(users)["id"], "body": "Reproduced on staging.",
                                      "created": iso(created + timedelta(days=1))})
        issues.append(issue)
    workflow = {"statuses": ["To Do", "In Progress", "In Review", "Done"],
                "transitions": {"To Do": ["In Progress"], "In Progress": ["To Do", "In Review"],
                                "In Review": ["In Progress", "Done"], "Done": ["In Progress"]}}
    return {"currentUser": "u1", "users": users, "projects": projects, "sprints": sprints, "boards": boards,
            "workflow": workflow, "issues": issues, "ui": {"selectedProject": "p1", "selectedIssue": None}}


# ---------------------------------------------------------------- ecommerce-admin
def ecommerce():
    vendors = [("BasicWear", "US"), ("HomeGoods", "US"), ("LeatherCo", "IT"), ("SportStep", "DE"), ("GreenLeaf Organics", "NL"),
               ("Nordic Living", "SE"), ("UrbanTech", "US"), ("SunPeak Outdoor", "CA")]
    vendor_rows = [{"id": f"v{i + 1}", "name": n, "contactEmail": f"sales@{n.lower().replace(' ', '')}.example", "country": c}
                   for i, (n, c) in enumerate(vendors)]
    catalog = {"BasicWear": [("Classic T-Shirt", "Apparel", 19.0), ("Crewneck Sweatshirt", "Apparel", 45.0), ("Chino Shorts", "Apparel", 35.0),
                             ("Everyday Hoodie", "Apparel", 55.0), ("Cotton Socks 3-Pack", "Apparel", 12.0)],
               "HomeGoods": [("Ceramic Mug", "Kitchen", 14.0), ("Linen Tea Towel", "Kitchen", 9.5), ("Oak Cutting Board", "Kitchen", 38.0),
                             ("Glass Storage Jar", "Kitchen", 16.0)],
               "LeatherCo": [("Leather Wallet", "Accessories", 59.0), ("Leather Belt", "Accessories", 49.0), ("Card Holder", "Accessories", 29.0)],
               "SportStep": [("Running Shoes", "Footwear", 120.0), ("Trail Runners", "Footwear", 135.0), ("Training Socks", "Footwear", 15.0)],
               "GreenLeaf Organics": [("Green Tea Sampler", "Grocery", 22.0), ("Organic Honey 500g", "Grocery", 11.0), ("Oat Granola", "Grocery", 8.5)],
               "Nordic Living": [("Wool Throw Blanket", "Home", 89.0), ("Scented Candle", "Home", 24.0), ("Linen Pillow Cover", "Home", 32.0)],
               "UrbanTech": [("Wireless Earbuds", "Electronics", 79.0), ("USB-C Charger 65W", "Electronics", 39.0), ("Phone Stand", "Electronics", 19.0),
                             ("Laptop Sleeve 14in", "Electronics", 34.0)],
               "SunPeak Outdoor": [("Insulated Water Bottle", "Outdoor", 29.0), ("Daypack 20L", "Outdoor", 69.0), ("Camping Lantern", "Outdoor", 44.0)]}
    collections = [{"id": "col1", "title": "Summer Essentials", "handle": "summer-essentials", "description": "Light and bright picks."},
                   {"id": "col2", "title": "Gifts under $30", "handle": "gifts-under-30", "description": "Small gifts, big smiles."},
                   {"id": "col3", "title": "New Arrivals", "handle": "new-arrivals", "description": "Just landed."}]
    products = []
    k = 0
    for vendor, items in catalog.items():
        for title, ptype, price in items:
            k += 1
            handle = title.lower().replace(" ", "-").replace("/", "")
            cols = [c["id"] for c in collections if (c["id"] == "col2" and price < 30) or (c["id"] != "col2" and R.random() < 0.2)]
            products.append({"id": f"prod{k:03d}", "title": title, "handle": handle, "vendor": vendor, "productType": ptype,
                             "status": R.choices(["active", "draft", "archived"], [85, 10, 5])[0],
                             "description": f"The {title.lower()} from {vendor}. Made to last, designed for everyday use.",
                             "tags": R.sample(["bestseller", "eco", "limited", "gift", "new"], R.randint(0, 2)),
                             "price": price, "compareAtPrice": round(price * 1.25, 2) if R.random() < 0.2 else None,
                             "sku": f"{vendor[:3].upper()}-{k:04d}", "inventory": R.randint(0, 240), "collections": cols,
                             "createdAt": iso(BASE - timedelta(days=R.randint(30, 400))), "updatedAt": iso(BASE - timedelta(days=R.randint(1, 29)))})
    customers = []
    cities = [("Portland", "US"), ("Austin", "US"), ("Toronto", "CA"), ("Berlin", "DE"), ("Lyon", "FR"), ("Leeds", "GB"), ("Osaka", "JP")]
    for i, (f, l) in enumerate(people(40)):
        city, country = R.choice(cities)
        customers.append({"id": f"cust{i + 1:03d}", "firstName": f, "lastName": l,
                          "email": f"{f.lower()}.{l.lower().replace(chr(39), '')}@mailbox.example", "phone": f"+1-555-{R.randint(1000, 9999)}",
                          "city": city, "country": country, "tags": R.sample(["vip", "wholesale", "newsletter"], R.randint(0, 1)),
                          "acceptsMarketing": R.random() < 0.5, "ordersCount": 0, "totalSpent": 0.0})
    orders = []
    t = BASE - timedelta(days=45)
    for i in range(80):
        t += timedelta(hours=R.randint(2, 16))
        c = R.choice(customers)
        items = R.sample(products, R.randint(1, 3))
        lines = [{"productId": p["id"], "sku": p["sku"], "quantity": R.randint(1, 3), "price": p["price"]} for p in items]
        subtotal = round(sum(x["quantity"] * x["price"] for x in lines), 2)
        total = round(subtotal + (0 if subtotal >= 75 else 6.5), 2)
        fin = R.choices(["paid", "pending", "refunded"], [85, 10, 5])[0]
        orders.append({"id": f"ord{i + 1:04d}", "number": 1001 + i, "customerId": c["id"], "createdAt": iso(t), "lineItems": lines,
                       "subtotal": subtotal, "total": total, "financialStatus": fin,
                       "fulfillmentStatus": "fulfilled" if fin == "paid" and R.random() < 0.7 else "unfulfilled", "note": "", "tags": []})
        c["ordersCount"] += 1
        c["totalSpent"] = round(c["totalSpent"] + (total if fin != "refunded" else 0), 2)
    discounts = [{"id": "disc1", "code": "SPRING10", "type": "percentage", "value": 10, "active": True, "usageCount": 42, "endsAt": "2026-04-30"},
                 {"id": "disc2", "code": "WELCOME5", "type": "fixed", "value": 5, "active": True, "usageCount": 130, "endsAt": None},
                 {"id": "disc3", "code": "BFCM25", "type": "percentage", "value": 25, "active": False, "usageCount": 911, "endsAt": "2025-12-01"}]
    return {"store": {"name": "Northwind Goods", "currency": "USD", "timezone": "America/Los_Angeles", "email": "hello@northwindgoods.example"},
            "vendors": vendor_rows, "products": products, "collections": collections, "customers": customers, "orders": orders,
            "discounts": discounts, "analytics": {"sessionsToday": 1284, "conversionRate": 2.4}, "ui": {"page": "dashboard"}}


# ---------------------------------------------------------------- files
def files_home():
    h = "files/home/"
    write_text(h + "Documents/meeting-notes-2026-03-02.md", """# Weekly sync — 2026-03-02

Attendees: Jordan Lee, Maya Chen, Samir Haddad, Rosa Costa

## Decisions
- Launch date stays on **April 14**.
- Pricing page copy is owned by Rosa; draft due March 9.

## Action items
- [ ] Jordan: send the vendor contract renewal to Legal
- [ ] Maya: fix the flaky checkout test
- [x] Samir: share beta feedback summary
""")
    write_text(h + "Documents/project-plan.md", """# Spring launch — project plan

| Phase | Owner | Start | End |
|---|---|---|---|
| Beta feedback | Samir Haddad | 2026-02-16 | 2026-03-06 |
| Pricing page | Rosa Costa | 2026-03-02 | 2026-03-13 |
| Load testing | Maya Chen | 2026-03-16 | 2026-03-27 |
| Launch | Jordan Lee | 2026-04-14 | 2026-04-14 |

## Risks
1. Payment provider migration may slip.
2. Support staffing during launch week.
""")
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["category", "january", "february", "march", "owner"])
    for cat, owner in [("Salaries", "Finance"), ("Cloud hosting", "Engineering"), ("Marketing", "Marketing"), ("Travel", "Operations"),
                       ("Software licenses", "IT"), ("Office rent", "Operations"), ("Contractors", "Engineering"), ("Events", "Marketing")]:
        base = R.randint(2000, 60000)
        w.writerow([cat, base, base + R.randint(-1500, 2500), base + R.randint(-1500, 3000), owner])
    write_text(h + "Documents/budget-q1.csv", buf.getvalue())
    write_json(h + "Documents/vendors.json", {"vendors": [{"name": n, "category": c, "contractEnds": d, "annualSpend": s}
                                                         for n, c, d, s in [("CloudCo", "hosting", "2026-09-30", 184000), ("MailJet", "email", "2026-05-31", 12000),
                                                                            ("DeskSpace", "office", "2027-01-31", 96000), ("PayFlow", "payments", "2026-06-30", 41000),
                                                                            ("PrintHub", "print", "2026-04-15", 3500)]]})
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["month", "region", "units", "revenue"])
    for m in range(1, 13):
        for region in ["North", "South", "East", "West"]:
            units = R.randint(80, 600)
            w.writerow([f"2025-{m:02d}", region, units, units * R.choice([19, 24, 29])])
    write_text(h + "Documents/reports/sales-2025.csv", buf.getvalue())
    write_text(h + "Documents/reports/summary.md", "# 2025 sales summary\n\nDraft. Totals per region to be filled in from sales-2025.csv.\n")
    write_text(h + "Downloads/invoice-10442.txt", """INVOICE 10442
Bill to: Acme Corp, 500 Market St, Portland OR
Date: 2026-02-27     Due: 2026-03-29

Item                          Qty   Unit      Total
Consulting (February)          32   150.00   4800.00
Support plan (monthly)          1   499.00    499.00
                                   Subtotal  5299.00
                                   Tax 8%     423.92
                                   TOTAL     5722.92
""")
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["id", "name", "email", "country", "signup_date", "plan"])
    for i, (f, l) in enumerate(people(30)):
        w.writerow([i + 1, f"{f} {l}", f"{f.lower()}.{l.lower().replace(chr(39), '')}@mailbox.example",
                    R.choice(["US", "CA", "DE", "FR", "GB", "JP"]), (BASE - timedelta(days=R.randint(1, 700))).strftime("%Y-%m-%d"),
                    R.choice(["free", "pro", "team"])])
    write_text(h + "Downloads/customers-export.csv", buf.getvalue())
    write_text(h + "Desktop/todo.md", "# To do\n\n- [ ] Renew the PrintHub contract\n- [ ] Book flights for the Berlin offsite\n"
                                      "- [ ] Review Q1 budget variances\n- [x] Send invoice 10442\n")
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["name", "company", "email", "phone"])
    for f, l in people(12):
        w.writerow([f"{f} {l}", R.choice(["Acme Corp", "Globex", "Initech", "Hooli"]), f"{f.lower()}@example.com", f"+1-555-{R.randint(1000, 9999)}"])
    write_text(h + "Desktop/contacts.csv", buf.getvalue())
    write_text(h + "Pictures/README.md", "Screenshots and photos go here.\n")
    write_json(h + "Projects/website/config.json", {"site": "northwindgoods.example", "theme": "light", "features": {"search": True, "wishlist": False},
                                                    "analytics": {"provider": "plausible", "enabled": True}})
    write_text(h + "Projects/website/CHANGELOG.md", "# Changelog\n\n## 5.3.1\n- Fix checkout on Safari\n\n## 5.3.0\n- Add size filter\n")
    write_json(h + "Projects/analytics/events.json", [{"event": e, "count": R.randint(100, 9000), "date": "2026-03-01"}
                                                      for e in ["page_view", "add_to_cart", "checkout_start", "purchase", "signup"]])
    write_json(h + ".config/app-settings.json", {"editor": {"fontSize": 13, "theme": "dark"}, "autosave": True})


if __name__ == "__main__":
    write_json("team-chat/seed.json", team_chat())
    write_json("mail/seed.json", mail())
    write_json("issue-tracker/seed.json", issue_tracker())
    write_json("ecommerce-admin/seed.json", ecommerce())
    files_home()
    print("seeds written under", HERE)
