stop_geany()
update_keyfile(os.path.join(HOME, S["file"]), S["changes"])
print("golden: set %d key(s) in %s" % (len(S["changes"]), S["file"]))
