state = current_state("ecommerce-admin")
for product in state["products"]:
    if product["vendor"] in S["from_vendors"]:
        product["vendor"] = S["to_vendor"]
        product["description"] = product["description"].rstrip() + " " + S["append_line"]
api_post("ecommerce-admin", "set_current", state)
print("golden: consolidated into %s" % S["to_vendor"])
