write_folders(S["folders"])
start_thunderbird()
print("setup: wrote %d folder(s) (%d messages) and launched thunderbird"
      % (len(S["folders"]), sum(len(v) for v in S["folders"].values())))
