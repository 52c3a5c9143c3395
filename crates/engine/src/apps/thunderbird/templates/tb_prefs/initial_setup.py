# Thunderbird is not running yet (the setup launches it last): prefs.js can be edited safely.
set_prefs(S["preset"])
start_thunderbird()
print("setup: preset %d preference(s) and launched thunderbird" % len(S["preset"]))
