# The docx helpers (load_doc, find_span, body_text, text_kept, ...) come first: crates/engine/src/apps/office/docx_reward.py.
doc = load_doc(S["doc"])
want = [[str(v) for v in row] for row in S["rows"]]
best, best_grid = 0, []
for table in (doc.tables if doc is not None else []):
    grid = [[" ".join(cell.text.split()) for cell in row.cells] for row in table.rows]
    hits = sum(1 for r, row in enumerate(want) for c, v in enumerate(row)
               if r < len(grid) and c < len(grid[r]) and grid[r][c] == v)
    if hits >= best:
        best, best_grid = hits, grid
total = sum(len(row) for row in want)
shape_ok = len(best_grid) == len(want) and all(len(r) == len(want[0]) for r in best_grid)
rubric = Rubric()
rubric.add("a %dx%d table" % (len(want), len(want[0])), 0.3, shape_ok and best > 0,
           "found %dx%d" % (len(best_grid), len(best_grid[0]) if best_grid else 0))
rubric.add("cell contents", 0.7, fraction(best, total), "%d/%d cells" % (best, total))
rubric.finish()
