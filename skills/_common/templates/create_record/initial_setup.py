state = current_state(S["app"])
records = state.setdefault(S["collection"], [])
for field, value in S["identify"].items():
    clash = [r for r in records if norm(r.get(field)) == norm(value)]
    for record in clash:
        records.remove(record)
for extra in S.get("seed_records", []):
    records.append(extra)
api_post(S["app"], "set", state)
print("setup: %s ready (%d records)" % (S["collection"], len(records)))
