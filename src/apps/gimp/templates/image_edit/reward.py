import os
import random
import signal
import time

from PIL import Image, ImageDraw, ImageEnhance, ImageOps

HOME = "/home/user"


def make_image(spec):
    """The picture a setup writes, drawn again the same way from the slots (deterministic)."""
    w, h = spec["size"]
    rng = random.Random(spec["seed"])
    bg = tuple(rng.randrange(150, 230) for _ in range(3))
    im = Image.new("RGB", (w, h), bg)
    d = ImageDraw.Draw(im)
    # Four blocks of very different colour and brightness: flips and rotations move them.
    d.rectangle([0, 0, w // 2 - 1, h // 3 - 1], fill=(20, 40, 160))
    d.rectangle([w // 2, h * 2 // 3, w - 1, h - 1], fill=(240, 220, 40))
    d.ellipse([w // 8, h // 2, w // 8 + w // 4, h // 2 + h // 3], fill=(200, 30, 30))
    for i in range(6):
        x = rng.randrange(w // 2, w - 20)
        y = rng.randrange(0, h // 2)
        d.rectangle([x, y, x + 18, y + 12], fill=tuple(rng.randrange(0, 120) for _ in range(3)))
    d.line([0, h - 1, w - 1, h // 3], fill=(10, 10, 10), width=max(2, w // 80))
    return im
FORMATS = {"png": "PNG", "jpg": "JPEG", "jpeg": "JPEG", "bmp": "BMP", "tif": "TIFF", "tiff": "TIFF",
           "gif": "GIF", "webp": "WEBP"}


def apply(im, op):
    """One edit as Pillow does it (the ground truth GIMP's result is compared with)."""
    if op == "flip_h":
        return ImageOps.mirror(im)
    if op == "flip_v":
        return ImageOps.flip(im)
    if op == "rot90":  # GIMP's "Rotate 90° clockwise"
        return im.transpose(Image.Transpose.ROTATE_270)
    if op == "rot270":  # "Rotate 90° counter-clockwise"
        return im.transpose(Image.Transpose.ROTATE_90)
    if op == "rot180":
        return im.transpose(Image.Transpose.ROTATE_180)
    if op == "gray":
        return im.convert("L")
    if op == "invert":
        return ImageOps.invert(im)
    if isinstance(op, dict) and "resize" in op:
        return im.resize(tuple(op["resize"]), Image.Resampling.LANCZOS)
    if isinstance(op, dict) and "crop" in op:
        return im.crop(tuple(op["crop"]))
    if isinstance(op, dict) and "brightness" in op:
        return ImageEnhance.Brightness(im).enhance(op["brightness"])
    raise ValueError("unknown edit %r" % (op,))


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
