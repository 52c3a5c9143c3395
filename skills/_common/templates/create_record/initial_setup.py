state = current_state(S["app"])
records = state.setdefault(S["collection"], [])
for field, value in S["identify"].items():
    clash = [r for r in records_of(records) if norm(r.get(field)) == norm(value)]
    for record in clash:
        if isinstance(records, dict):
            del records[record["id"]]
        else:
            records.remove(record)
for extra in S.get("seed_records", []):
    if isinstance(records, dict):
        records[extra["id"]] = extra
    else:
        records.append(extra)
api_post(S["app"], "set", state)
print("setup: %s ready (%d records)" % (S["collection"], len(records)))
