state = current_state(S["app"])
collection = state.setdefault(S["collection"], [])
if isinstance(collection, dict):
    collection[S["record"]["id"]] = S["record"]
else:
    collection.append(S["record"])
api_post(S["app"], "set_current", state)
print("golden: appended one record to %s" % S["collection"])
