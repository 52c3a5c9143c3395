# The gimp pack's common prelude (crates/engine/src/apps/gimp/common.py): joined in front of every gimp
# template's initial_setup.py, golden_patch.py and reward.py at compile time, so a rendered script
# is still one self-contained file. The gimprc reader and the picture a setup draws (and the
# edits as Pillow does them), the same for the setup, the golden patch and the reward.
import os
import random
import re

from PIL import Image, ImageDraw, ImageEnhance, ImageOps

HOME = "/home/user"
RC = os.path.join(HOME, ".config/GIMP/2.10/gimprc")


def forms(text):
    """Top-level S-expressions of a gimprc as [(key, value text, start, end)]; comments skipped."""
    out, depth, start = [], 0, 0
    for tok in re.finditer(r'"(?:\\.|[^"\\])*"|#[^\n]*|[()]|[^\s()"#]+', text):
        t = tok.group()
        if t == "(":
            start = tok.start() if depth == 0 else start
            depth += 1
        elif t == ")" and depth > 0:
            depth -= 1
            if depth == 0:
                key, _, value = text[start + 1:tok.start()].strip().partition(" ")
                out.append((key, " ".join(value.split()), start, tok.end()))
    return out


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
