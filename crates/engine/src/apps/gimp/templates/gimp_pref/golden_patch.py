stop_gimp()
update_rc(S["changes"])
print("golden: gimprc %s" % S["changes"])
