stop_gimp()
update_rc({**S["keep"], **S["preset"]})
start_app(["gimp"])
print("setup: gimprc preset %s; launched gimp" % S["preset"])
