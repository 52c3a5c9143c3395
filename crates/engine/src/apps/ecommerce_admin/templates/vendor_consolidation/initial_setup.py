state = current_state("ecommerce-admin")
names = {v["name"] for v in state["vendors"]}
if S["to_vendor"] not in names:
    state["vendors"].append({"id": "v_new", "name": S["to_vendor"], "contactEmail": "hello@unified.example", "country": "US"})
affected = [p for p in state["products"] if p["vendor"] in S["from_vendors"]]
if not affected:
    raise KeyError("no product from %r" % S["from_vendors"])
api_post("ecommerce-admin", "set", state)
print("setup: %d product(s) to consolidate" % len(affected))
