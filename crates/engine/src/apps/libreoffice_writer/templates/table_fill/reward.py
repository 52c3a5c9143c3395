# The docx helpers (load_doc, find_span, body_text, text_kept, ...) come first: crates/engine/src/apps/office/docx_reward.py.
doc = load_doc(S["doc"])
grid = []
if doc is not None and doc.tables:
    grid = [[" ".join(cell.text.split()) for cell in row.cells] for row in doc.tables[0].rows]


def at(r, c):
    return grid[r][c] if r < len(grid) and c < len(grid[r]) else None


targets = {(int(c["row"]), int(c["col"])): str(c["value"]) for c in S["cells"]}
hits = [k for k, v in targets.items() if at(*k) == v]
others = [(r, c) for r, row in enumerate(S["table"]) for c, _ in enumerate(row) if (r, c) not in targets]
kept = [k for k in others if at(*k) == str(S["table"][k[0]][k[1]])]
rubric = Rubric()
rubric.add("requested cells filled", 0.8, fraction(len(hits), len(targets)), "%d/%d cells" % (len(hits), len(targets)))
rubric.add("other cells unchanged", 0.2, len(hits) > 0 and len(kept) == len(others), "%d/%d kept" % (len(kept), len(others)))
rubric.finish()
