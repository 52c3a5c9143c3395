state = current_state(S["app"])
records = state[S["collection"]]
for extra in S.get("seed_records", []):
    records.append(extra)
for key in S["keys"]:
    record = by_key(records, S["key_field"], key)
    if record is None:
        raise KeyError("no %s with %s=%r in the default state" % (S["collection"], S["key_field"], key))
    for field, value in S.get("preset", {}).items():
        record[field] = value
api_post(S["app"], "set", state)
print("setup: %d target record(s) prepared in %s" % (len(S["keys"]), S["collection"]))
