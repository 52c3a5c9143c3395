def expected():
    im = make_image(S["image"])
    for op in S["ops"]:
        im = apply(im, op)
    return im


def pixels(im):
    """The pixel values (Pillow 12+ names it get_flattened_data)."""
    get = getattr(im, "get_flattened_data", None) or im.getdata
    return list(get())


def small(im, mode):
    return pixels(im.convert(mode).resize((48, 48), Image.Resampling.BILINEAR))


def diff(a, b, mode):
    """Mean absolute difference per channel (0-255) of two pictures scaled to 48x48."""
    pa, pb = small(a, mode), small(b, mode)
    if mode == "L":
        return sum(abs(x - y) for x, y in zip(pa, pb)) / len(pa)
    return sum(abs(c - d) for x, y in zip(pa, pb) for c, d in zip(x, y)) / (3 * len(pa))


def is_gray(im):
    if im.mode in ("L", "LA", "I", "I;16", "1"):
        return True
    rgb = im.convert("RGB").resize((48, 48))
    return max(max(p) - min(p) for p in pixels(rgb)) <= 6


def mean_l(im):
    data = pixels(im.convert("L").resize((64, 64)))
    return sum(data) / len(data)


rubric = Rubric()
out_path = os.path.join(HOME, S["out"])
want = expected()
fmt = FORMATS[S["out"].rsplit(".", 1)[-1].lower()]
got, problem = None, ""
try:
    got = Image.open(out_path)
    got.load()
except (OSError, ValueError) as err:
    problem = "cannot read %s: %s" % (S["out"], err)
untouched = False
if got is not None and S["out"] == S["image"]["path"]:
    original = make_image(S["image"])
    untouched = got.size == original.size and diff(got, original, "RGB") < 1.0
if untouched:
    problem = "%s is still the picture the setup wrote" % S["out"]
ok = got is not None and not untouched
rubric.add("saved as %s (%s)" % (S["out"], fmt), 0.2, ok and got.format == fmt,
           problem or "format %s" % got.format)
size_ok = ok and abs(got.size[0] - want.size[0]) <= 1 and abs(got.size[1] - want.size[1]) <= 1
rubric.add("size %dx%d" % want.size, 0.3, size_ok, problem or "size %dx%d" % got.size)
gray = "gray" in S["ops"]
bright = [op["brightness"] for op in S["ops"] if isinstance(op, dict) and "brightness" in op]
content = 0.0
detail = problem
if ok and size_ok and bright:
    base = make_image(S["image"])
    for op in S["ops"]:
        if not (isinstance(op, dict) and "brightness" in op):
            base = apply(base, op)
    ratio = mean_l(got) / max(1.0, mean_l(base))
    # GIMP's Brightness-Contrast is not Pillow's: brighter by at least 40 % of the asked amount,
    # and the same picture once the brightness is matched.
    brighter = ratio >= 1 + (bright[0] - 1) * 0.4
    same = diff(ImageEnhance.Brightness(got.convert("RGB")).enhance(1 / ratio), base, "RGB") < 30
    content = 0.5 * brighter + 0.5 * same
    detail = "brightness ratio %.2f (asked %.2f), %s" % (ratio, bright[0], "same layout" if same else "layout differs")
elif ok and size_ok:
    d = diff(got, want, "L" if gray else "RGB")
    gray_ok = is_gray(got) if gray else True
    content = 1.0 if d < 20 and gray_ok else 0.0
    detail = "mean difference %.1f%s" % (d, "" if gray_ok else ", not grayscale")
rubric.add("pixels as asked (%s)" % (", ".join(map(str, S["ops"])) or "unchanged picture"), 0.5, content, detail)
rubric.finish()
