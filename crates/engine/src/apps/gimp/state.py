#!/usr/bin/env python3
"""State reader of the gimp pack: argv[1] is the environment's home on the host.

Prints one JSON object: images (every picture under the home outside dot-directories: format, mode,
size, per-channel means, a few pixel samples; .xcf files: size, base type and layer count from the
header) and gimprc (GIMP's settings, top-level key -> value text). At most 40 images.
"""
import json
import os
import re
import struct
import sys

from PIL import Image

EXTS = {".png", ".jpg", ".jpeg", ".bmp", ".gif", ".tif", ".tiff", ".webp", ".xcf"}
MAX_IMAGES = 40
XCF_BASE = {0: "RGB", 1: "grayscale", 2: "indexed"}


def pixels(im):
    """The pixel values (Pillow 12+ names it get_flattened_data)."""
    get = getattr(im, "get_flattened_data", None) or im.getdata
    return list(get())


def forms(text):
    """Top-level S-expressions of a gimprc as {key: value text}; comments skipped."""
    out, depth, start = {}, 0, 0
    for tok in re.finditer(r'"(?:\\.|[^"\\])*"|#[^\n]*|[()]|[^\s()"#]+', text):
        t = tok.group()
        if t == "(":
            start = tok.start() if depth == 0 else start
            depth += 1
        elif t == ")" and depth > 0:
            depth -= 1
            if depth == 0:
                key, _, value = text[start + 1:tok.start()].strip().partition(" ")
                out[key] = " ".join(value.split())
    return out


def xcf(path):
    """Header of a GIMP .xcf: version, size, base type and the number of layers."""
    with open(path, "rb") as fh:
        data = fh.read(1 << 20)
    if not data.startswith(b"gimp xcf "):
        return {"error": "not an XCF file"}
    version = data[9:13].decode("ascii", "replace")
    num = int(version[1:]) if version.startswith("v") and version[1:].isdigit() else 0
    w, h, base = struct.unpack(">III", data[14:26])
    pos = 26 + (4 if num >= 4 else 0)
    while pos + 8 <= len(data):  # image properties: (type, length, payload) until PROP_END
        ptype, plen = struct.unpack(">II", data[pos:pos + 8])
        pos += 8 + plen
        if ptype == 0:
            break
    size = 8 if num >= 11 else 4
    layers = 0
    while pos + size <= len(data):
        ptr = int.from_bytes(data[pos:pos + size], "big")
        pos += size
        if ptr == 0:
            break
        layers += 1
    return {"format": "XCF", "version": version, "size": [w, h], "mode": XCF_BASE.get(base, base),
            "layers": layers}


def picture(path):
    if path.lower().endswith(".xcf"):
        return xcf(path)
    with Image.open(path) as im:
        im.load()
        info = {"format": im.format, "mode": im.mode, "size": list(im.size),
                "frames": getattr(im, "n_frames", 1)}
        rgb = im.convert("RGB")
    w, h = rgb.size
    small = rgb.resize((64, 64))
    data = pixels(small)
    info["mean"] = [round(sum(p[c] for p in data) / len(data), 1) for c in range(3)]
    info["gray"] = max(max(p) - min(p) for p in data) <= 6
    spots = {"top_left": (0, 0), "top_right": (w - 1, 0), "center": (w // 2, h // 2),
             "bottom_left": (0, h - 1), "bottom_right": (w - 1, h - 1)}
    info["pixels"] = {k: "%02X%02X%02X" % rgb.getpixel(xy) for k, xy in spots.items()}
    return info


def main(home):
    images, skipped = {}, 0
    for dirpath, dirnames, filenames in os.walk(home):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if os.path.splitext(name)[1].lower() not in EXTS or name.endswith(".tw-tmp"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, name), home)
            if len(images) >= MAX_IMAGES:
                skipped += 1
                continue
            try:
                images[rel] = picture(os.path.join(dirpath, name))
            except (OSError, ValueError, struct.error, Image.DecompressionBombError) as err:
                images[rel] = {"error": str(err)}
    rc = os.path.join(home, ".config", "GIMP", "2.10", "gimprc")
    try:
        with open(rc, encoding="utf-8") as fh:
            gimprc = forms(fh.read())
    except FileNotFoundError:
        gimprc = {}
    except (OSError, UnicodeDecodeError) as err:
        gimprc = {"error": str(err)}
    out = {"images": images, "gimprc": gimprc}
    if skipped:
        out["images_truncated"] = skipped
    json.dump(out, sys.stdout, sort_keys=True)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: state.py HOME")
    main(sys.argv[1])
