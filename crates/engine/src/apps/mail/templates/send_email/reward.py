go = api_get("mail", "/go")
init, cur = go["initial_state"], go["current_state"]
old_ids = {m.get("id") for m in init.get("messages", [])}
sent = [m for m in cur.get("messages", []) if m.get("id") not in old_ids and m.get("folder") == "sent"]
wanted = sorted(norm(a) for a in S["to"])
to_ok = [m for m in sent if sorted(norm(a) for a in m.get("to") or []) == wanted]
rubric = Rubric()
rubric.add("sent to " + ", ".join(S["to"]), 0.3, len(to_ok) >= 1, "%d new sent message(s), %d to exactly the requested recipients" % (len(sent), len(to_ok)))
subject_ok = [m for m in to_ok if norm(S["subject"]) in norm(m.get("subject"))]
rubric.add("subject", 0.3, len(subject_ok) >= 1, "wanted a subject containing %r" % S["subject"])
best = 0
for message in to_ok:
    body = norm(message.get("body"))
    best = max(best, len([p for p in S["must_include"] if norm(p) in body]))
rubric.add("body content", 0.4, fraction(best, len(S["must_include"])), "body mentions %d/%d of %s" % (best, len(S["must_include"]), json.dumps(S["must_include"])))
rubric.finish()
