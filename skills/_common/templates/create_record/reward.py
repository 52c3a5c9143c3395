go = api_get(S["app"], "/go")
init_records = records_of(go["initial_state"].get(S["collection"]))
cur_records = records_of(go["current_state"].get(S["collection"]))
old_ids = {json.dumps(r.get("id")) for r in init_records if isinstance(r, dict)}
added = [r for r in cur_records if isinstance(r, dict) and json.dumps(r.get("id")) not in old_ids]


def matches(record, field, value):
    if field.endswith("~"):
        return norm(value) in norm(record.get(field[:-1]))
    if field.endswith("+"):
        wanted = value if isinstance(value, list) else [value]
        return all(v in (record.get(field[:-1]) or []) for v in wanted)
    if isinstance(value, str):
        return norm(record.get(field)) == norm(value)
    return record.get(field) == value


found = [r for r in added if all(matches(r, f, v) for f, v in S["identify"].items())]
rubric = Rubric()
rubric.add(
    "new record in " + S["collection"],
    0.4,
    len(found) == 1,
    "%d new record(s) matching %s (%d added in total)" % (len(found), json.dumps(S["identify"]), len(added)),
)
target = found[0] if found else {}
share = 0.6 / len(S["expect"])
for field, value in S["expect"].items():
    met = bool(found) and matches(target, field, value)
    rubric.add("field " + field.rstrip("~+"), share, met, "expected %s, found %s" % (json.dumps(value), json.dumps(target.get(field.rstrip("~+")))))
rubric.finish()
