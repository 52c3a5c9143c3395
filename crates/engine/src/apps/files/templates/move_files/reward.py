import os


def read(path):
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except OSError:
        return None


placed = 0
moved = 0
for item in S["files"]:
    landed = read(os.path.join("/home/user", item["to"], item["name"])) == item["content"]
    placed += landed
    gone = read(os.path.join("/home/user", item["from"], item["name"])) is None
    moved += landed and gone
total = len(S["files"])
rubric = Rubric()
rubric.add("files in their target folders with intact content", 0.6, fraction(placed, total), "%d/%d placed" % (placed, total))
rubric.add("files removed from the source folder (moved, not copied)", 0.4, fraction(moved, total), "%d/%d moved" % (moved, total))
rubric.finish()
