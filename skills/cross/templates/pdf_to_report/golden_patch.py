print("golden: filled %d placeholder(s)" % fill_report(S["doc"], S["fills"]))
