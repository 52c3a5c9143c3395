stop_vlc()
# Copy-then-modify: only the changed keys' lines are replaced.
update_rc(S["changes"])
print("golden: set %s in vlcrc" % ", ".join(sorted(S["changes"])))
