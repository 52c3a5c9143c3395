go = api_get(S["app"], "/go")
init_records = records_of(go["initial_state"].get(S["collection"]))
cur_records = records_of(go["current_state"].get(S["collection"]))
key_field = S["key_field"]
keys = S["keys"]
changes = S["changes"]


def field_met(before, after, field, value):
    """True when the record now holds the requested value and did not before (task-introduced)."""
    if before is None or after is None:
        return False
    if field.endswith("+"):
        name = field[:-1]
        wanted = value if isinstance(value, list) else [value]
        now = after.get(name) or []
        was = before.get(name) or []
        return all(v in now for v in wanted) and not all(v in was for v in wanted)
    return after.get(field) == value and before.get(field) != value


rubric = Rubric()
share = 0.8 / len(changes)
credited = 0
for field, value in changes.items():
    hits = 0
    for key in keys:
        if field_met(by_key(init_records, key_field, key), by_key(cur_records, key_field, key), field, value):
            hits += 1
    credited += hits
    label = field[:-1] + " includes " + json.dumps(value) if field.endswith("+") else field + " = " + json.dumps(value)
    rubric.add(label, share, fraction(hits, len(keys)), "%d/%d target record(s)" % (hits, len(keys)))
others_before = {json.dumps(r.get(key_field)): r for r in init_records if r.get(key_field) not in keys}
others_after = {json.dumps(r.get(key_field)): r for r in cur_records if r.get(key_field) not in keys}
untouched = others_before == others_after
rubric.add(
    "only the target records changed",
    0.2,
    untouched and credited > 0,
    "other %s unchanged: %s; requested changes made: %d" % (S["collection"], untouched, credited),
)
rubric.finish()
