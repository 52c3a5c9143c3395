go = api_get("ecommerce-admin", "/go")
init, cur = go["initial_state"], go["current_state"]
targets = [p for p in init["products"] if p.get("vendor") in S["from_vendors"]]
vendor_hits = 0
description_hits = 0
for before in targets:
    after = by_key(cur["products"], "id", before["id"]) or {}
    if after.get("vendor") == S["to_vendor"]:
        vendor_hits += 1
    text = str(after.get("description") or "")
    if text.strip().endswith(S["append_line"].strip()) and norm(before.get("description")) in norm(text):
        description_hits += 1
others_same = all(
    by_key(cur["products"], "id", p["id"]) == p for p in init["products"] if p.get("vendor") not in S["from_vendors"]
)
rubric = Rubric()
rubric.add("vendor set to " + S["to_vendor"], 0.45, fraction(vendor_hits, len(targets)), "%d/%d affected product(s)" % (vendor_hits, len(targets)))
rubric.add("marketing line appended", 0.45, fraction(description_hits, len(targets)), "%d/%d description(s) keep the original text and end with the line" % (description_hits, len(targets)))
rubric.add("other products untouched", 0.1, others_same and vendor_hits > 0, "unaffected products unchanged: %s" % others_same)
rubric.finish()
