import ast
import os
import re

HOME = "/home/user"
texts = {}


def read(rel):
    if rel not in texts:
        try:
            with open(os.path.join(HOME, rel), encoding="utf-8") as fh:
                texts[rel] = fh.read()
        except (OSError, UnicodeDecodeError):
            texts[rel] = None
    return texts[rel]


def tree(rel):
    text = read(rel)
    if text is None:
        return None
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError):
        return None


def function(rel, name):
    node = tree(rel)
    for item in ast.walk(node) if node is not None else []:
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name == name:
            return item
    return None


def evaluate(check):
    """(passed, detail) for one check on the file it names."""
    kind, rel = check["kind"], check["path"]
    text = read(rel)
    if text is None:
        return False, "%s is missing or unreadable" % rel
    if kind == "contains":
        return check["text"] in text, "%r %s in %s" % (check["text"], "found" if check["text"] in text else "not found", rel)
    if kind == "absent":
        n = text.count(check["text"])
        return n == 0, "%d occurrence(s) of %r left in %s" % (n, check["text"], rel)
    if kind == "absent_word":
        n = len(re.findall(r"\b%s\b" % re.escape(check["word"]), text))
        return n == 0, "%d use(s) of %s left in %s" % (n, check["word"], rel)
    if kind == "count":
        n = text.count(check["text"])
        return n == check["n"], "%d occurrence(s) of %r in %s (want %d)" % (n, check["text"], rel, check["n"])
    if kind == "python_ok":
        return tree(rel) is not None, "%s %s" % (rel, "parses" if tree(rel) is not None else "has a syntax error")
    if kind == "docstring":
        fn = function(rel, check["func"])
        doc = ast.get_docstring(fn) if fn is not None else None
        ok = doc is not None and check["text"].lower() in doc.lower()
        return ok, "docstring of %s: %r" % (check["func"], doc)
    if kind == "defines":
        fn = function(rel, check["func"])
        return fn is not None, "%s %s in %s" % (check["func"], "defined" if fn is not None else "not defined", rel)
    if kind == "imports":
        node = tree(rel)
        names = set()
        for item in node.body if node is not None else []:
            if isinstance(item, ast.Import):
                names.update(a.name for a in item.names)
            elif isinstance(item, ast.ImportFrom) and item.module:
                names.add(item.module)
                names.update("%s.%s" % (item.module, a.name) for a in item.names)
        return check["module"] in names, "top-level imports of %s: %s" % (rel, sorted(names))
    if kind == "no_tabs":
        n = text.count("\t")
        return n == 0, "%d tab character(s) in %s" % (n, rel)
    if kind == "lines_kept":
        lines = set(text.splitlines())
        missing = [line for line in check["lines"] if line not in lines]
        return not missing, "missing lines: %r" % missing[:3]
    return False, "unknown check kind %r" % kind


rubric = Rubric()
goals = [c for c in S["checks"] if not c.get("guard")]
guards = [c for c in S["checks"] if c.get("guard")]
total = sum(c.get("weight", 1.0) for c in goals)
passed = 0
for check in goals:
    ok, detail = evaluate(check)
    passed += ok
    rubric.add(check["name"], 0.8 * check.get("weight", 1.0) / total, ok, detail)
results = [evaluate(check) for check in guards]
kept = all(ok for ok, _ in results)
rubric.add("rest of the project intact", 0.2, kept and passed > 0, "; ".join(d for _, d in results) + "; goal checks passed: %d" % passed)
rubric.finish()
