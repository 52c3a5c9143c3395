# The pptx helpers (load_prs, titles, notes_text, deck_kept, ...) come first: crates/engine/src/apps/office/pptx_reward.py.
import pymupdf as fitz  # the `fitz` alias prints a deprecation warning on stdout

pages = []
try:
    with fitz.open(os.path.join(HOME, S["pdf"])) as pdf:
        pages = [clean(page.get_text()) for page in pdf]
except Exception:
    pages = []
want = [clean(s["title"]) for s in S["slides"]]
hits = len([1 for i, t in enumerate(want) if i < len(pages) and t in pages[i]])
rubric = Rubric()
rubric.add("PDF with %d pages" % len(want), 0.4, len(pages) == len(want), "%d page(s)" % len(pages))
rubric.add("each page shows its slide's title", 0.6, fraction(hits, len(want)), "%d/%d pages" % (hits, len(want)))
rubric.finish()
