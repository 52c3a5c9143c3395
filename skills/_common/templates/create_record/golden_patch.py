state = current_state(S["app"])
state.setdefault(S["collection"], []).append(S["record"])
api_post(S["app"], "set_current", state)
print("golden: appended one record to %s" % S["collection"])
