# The docx helpers (load_doc, find_span, body_text, text_kept, ...) come first: crates/engine/src/apps/office/docx_reward.py.
def part_text(part):
    return " ".join(" ".join(p.text for p in part.paragraphs).split()) if part is not None else ""


def has_page_field(part):
    if part is None:
        return False
    xml = part._element.xml
    return ('w:instr=" PAGE' in xml or 'w:instr="PAGE' in xml
            or any("PAGE" in (el.text or "").split() for el in part._element.iter()
                   if el.tag.endswith("}instrText")))


doc = load_doc(S["doc"])
section = doc.sections[0] if doc is not None and doc.sections else None
header = section.header if section is not None and not section.header.is_linked_to_previous else None
footer = section.footer if section is not None and not section.footer.is_linked_to_previous else None
checks = []
if S.get("header_text"):
    checks.append(("header reads %r" % S["header_text"], norm(S["header_text"]) in norm(part_text(header)), part_text(header)))
if S.get("footer_text"):
    checks.append(("footer reads %r" % S["footer_text"], norm(S["footer_text"]) in norm(part_text(footer)), part_text(footer)))
if S.get("page_number"):
    checks.append(("page number field in the footer", has_page_field(footer), "footer %r" % part_text(footer)))
rubric = Rubric()
for name, ok, seen in checks:
    rubric.add(name, 0.8 / len(checks), ok, "found %r" % seen)
text_kept(rubric, doc)
rubric.finish()
