stop_gimp()
src = os.path.join(HOME, S["image"]["path"])
for rel in S.get("remove", []):
    if os.path.exists(os.path.join(HOME, rel)):
        os.remove(os.path.join(HOME, rel))
save_atomic(make_image(S["image"]), src, "PNG")
start_app(["gimp", src])
print("setup: wrote %s (%dx%d) and launched gimp" % (S["image"]["path"], *S["image"]["size"]))
