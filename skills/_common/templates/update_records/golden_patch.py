state = current_state(S["app"])
records = state[S["collection"]]
for key in S["keys"]:
    record = by_key(records, S["key_field"], key)
    for field, value in S["changes"].items():
        if field.endswith("+"):
            name = field[:-1]
            wanted = value if isinstance(value, list) else [value]
            current = list(record.get(name) or [])
            record[name] = current + [v for v in wanted if v not in current]
        else:
            record[field] = value
api_post(S["app"], "set_current", state)
print("golden: updated %d record(s)" % len(S["keys"]))
