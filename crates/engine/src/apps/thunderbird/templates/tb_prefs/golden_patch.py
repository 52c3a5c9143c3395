# Copy-then-modify: only the changed preferences' lines are replaced (or added); Thunderbird must not
# be running (it rewrites prefs.js from memory), which is true where golden patches run.
set_prefs(S["changes"])
print("golden: set %s" % ", ".join(sorted(S["changes"])))
