write_folders(S["folders"])
rules = os.path.join(MAIL, "msgFilterRules.dat")
write_atomic(rules, 'version="9"\nlogging="no"\n' + "".join(
    'name="%s"\nenabled="%s"\ntype="17"\naction="%s"\n%scondition="%s"\n'
    % (f["name"], "yes" if f.get("enabled", True) else "no", f["action"],
       'actionValue="%s"\n' % f["value"] if f.get("value") else "", f["condition"])
    for f in S.get("existing", [])))
start_thunderbird()
print("setup: wrote %d folder(s), %d filter(s) and launched thunderbird" % (len(S["folders"]), len(S.get("existing", []))))
