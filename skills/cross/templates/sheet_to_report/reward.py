score_report(S["doc"], S["paragraphs"], S["fills"])
