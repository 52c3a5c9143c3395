for rel, text in S["files"].items():
    write_atomic(os.path.join(HOME, rel), text)
for rel in S.get("remove", []):
    path = os.path.join(HOME, rel)
    if os.path.exists(path):
        os.remove(path)
start_geany(S.get("open", []))
print("setup: wrote %d file(s) and launched geany" % len(S["files"]))
