stop_geany()
for rel, text in S.get("files", {}).items():
    write_atomic(os.path.join(HOME, rel), text)
update_keyfile(os.path.join(HOME, S["file"]), {**S.get("preset", {}), **S["keep"]})
start_geany(S.get("open", []))
print("setup: wrote %s and launched geany" % S["file"])
