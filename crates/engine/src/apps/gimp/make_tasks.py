#!/usr/bin/env python3
"""Writes tasks.json of the gimp pack. Run from the crate root: python3 crates/engine/src/apps/gimp/make_tasks.py"""
import json
import os

TASKS = []
OP_WORDS = {"flip_h": "flip it horizontally", "flip_v": "flip it vertically",
            "rot90": "rotate it 90° clockwise", "rot270": "rotate it 90° counter-clockwise",
            "rot180": "rotate it by 180°", "gray": "convert it to grayscale", "invert": "invert its colours"}
FMT_WORDS = {"jpg": "JPEG", "bmp": "BMP", "tif": "TIFF", "gif": "GIF", "webp": "WebP", "png": "PNG"}


def add(tid, text, context, difficulty, template, slots, scenario):
    TASKS.append({"task_id": "gimp_%s" % tid, "task_instruction": text, "context": context,
                  "difficulty": difficulty, "domain": "gimp", "domains": ["gimp"], "platform": "desktop",
                  "scenario": scenario, "task_type": "single_app", "template": template, "slots": slots})


def op_words(op):
    if isinstance(op, str):
        return OP_WORDS[op]
    if "resize" in op:
        return "scale it to %dx%d pixels" % tuple(op["resize"])
    if "crop" in op:
        left, top, right, bottom = op["crop"]
        return "crop it to the %dx%d area whose top-left corner is at (%d, %d)" % (right - left, bottom - top, left, top)
    return "make it brighter (about +%d %% brightness)" % round((op["brightness"] - 1) * 100)


def edit(tid, name, size, seed, ops, out=None, difficulty="easy"):
    src = "Pictures/%s.png" % name
    out = out or src
    said = " and then ".join(op_words(op) for op in ops)
    ext = out.rsplit(".", 1)[-1]
    if not ops:
        text = "Open ~/%s in GIMP and export it as a %s file, ~/%s." % (src, FMT_WORDS[ext], out)
    elif out == src:
        text = "In GIMP, %s (the picture ~/%s is open) and overwrite %s with the result." % (said, src, os.path.basename(src))
    else:
        text = "In GIMP, take ~/%s, %s, and export the result as ~/%s." % (src, said, out)
    context = ("The setup draws a %dx%d picture (Pillow, seed %d) at ~/%s and opens it in GIMP. Ground truth: "
               "Pillow applies %s to it; the reward reads ~/%s with Pillow. Checkpoints: saved in the right "
               "format (0.2), size (0.3), pixels within a mean difference of 20 of the expected ones (0.5); "
               "an overwritten file that still holds the original picture scores 0."
               % (size[0], size[1], seed, src, json.dumps(ops), out))
    slots = {"image": {"path": src, "size": list(size), "seed": seed}, "ops": ops, "out": out}
    if out != src:
        slots["remove"] = [out]
    add(tid, text, context, difficulty, "image_edit", slots, "Image Editing" if ops else "Export")


# Settings GIMP itself writes back when it saves gimprc (show-tips and single-window-mode are not:
# GIMP 2.10 drops them from gimprc), so "other settings preserved" is checkable after a real save.
KEEP = {"restore-session": "no", "check-updates": "no", "save-session-info": "no"}


def pref(tid, text, changes, preset, difficulty="easy"):
    keep = {k: v for k, v in KEEP.items() if k not in changes}
    context = ("The setup writes ~/.config/GIMP/2.10/gimprc with %s (and keeps %s) and starts GIMP. Ground truth: "
               "%s in gimprc (GIMP writes gimprc when Preferences is closed with OK; a default value is left out "
               "and read as the default). Checkpoints: one per setting (0.8 split), other settings preserved (0.2)."
               % (json.dumps(preset), json.dumps(keep), json.dumps(changes)))
    add(tid, text, context, difficulty, "gimp_pref", {"preset": preset, "changes": changes, "keep": keep},
        "Preferences")


def edits():
    edit("flip_h", "harbor", (320, 200), 11, ["flip_h"])
    edit("flip_v", "sunset", (300, 220), 12, ["flip_v"])
    edit("rotate_cw", "poster", (240, 320), 13, ["rot90"])
    edit("rotate_ccw", "garden", (360, 240), 14, ["rot270"])
    edit("rotate_180", "logo", (256, 256), 15, ["rot180"])
    edit("grayscale", "street", (320, 240), 16, ["gray"])
    edit("invert", "diagram", (280, 200), 17, ["invert"])
    edit("export_jpeg", "beach", (320, 200), 21, [], "Pictures/beach.jpg")
    edit("export_bmp", "icon", (128, 128), 22, [], "Pictures/icon.bmp")
    edit("export_tiff", "scan", (300, 400), 23, [], "Pictures/scan.tif")
    edit("export_gif", "badge", (160, 160), 24, [], "Pictures/badge.gif")
    edit("export_webp", "banner", (400, 150), 25, [], "Pictures/banner.webp")
    edit("mirror_copy", "portrait", (240, 300), 31, ["flip_h"], "Pictures/portrait-mirrored.png", "medium")
    edit("gray_jpeg", "bridge", (320, 240), 32, ["gray"], "Pictures/bridge-bw.jpg", "medium")
    edit("rotated_copy", "chart", (300, 200), 33, ["rot90"], "Pictures/chart-rotated.png", "medium")
    edit("negative_bmp", "xray", (200, 200), 34, ["invert"], "Pictures/xray-negative.bmp", "medium")
    edit("upside_down_copy", "tower", (200, 300), 35, ["rot180"], "Pictures/tower-flipped.png", "medium")
    edit("scale_half", "meadow", (400, 300), 41, [{"resize": [200, 150]}], None, "medium")
    edit("scale_thumb", "cabin", (320, 240), 42, [{"resize": [160, 120]}], "Pictures/cabin-thumb.png", "medium")
    edit("scale_width", "skyline", (480, 200), 43, [{"resize": [240, 100]}], None, "medium")
    edit("crop_left", "desk", (320, 240), 44, [{"crop": [0, 0, 160, 120]}], "Pictures/desk-corner.png", "medium")
    edit("crop_center", "tiles", (300, 300), 45, [{"crop": [50, 50, 250, 250]}], None, "medium")
    edit("brighten", "cellar", (320, 240), 46, [{"brightness": 1.3}], None, "medium")
    edit("brighten_copy", "forest", (300, 200), 47, [{"brightness": 1.25}], "Pictures/forest-bright.png", "medium")
    edit("rotate_gray", "receipt", (240, 320), 51, ["rot90", "gray"], None, "hard")
    edit("flip_invert", "stencil", (256, 192), 52, ["flip_v", "invert"], "Pictures/stencil-print.png", "hard")
    edit("mirror_rotate_jpeg", "mural", (320, 240), 53, ["flip_h", "rot180"], "Pictures/mural-final.jpg", "hard")
    edit("gray_scale", "archive", (400, 300), 54, ["gray", {"resize": [200, 150]}], "Pictures/archive-small.png", "hard")


def prefs():
    pref("undo_levels", "Raise GIMP's minimal number of undo levels to 20.", {"undo-levels": "20"}, {"undo-levels": "5"})
    pref("no_tooltips", "Turn off tooltips in GIMP's interface.", {"show-tooltips": "no"}, {"show-tooltips": "yes"})
    pref("no_layer_previews", "Disable layer and channel previews in GIMP.", {"layer-previews": "no"},
         {"layer-previews": "yes"})
    pref("interp_linear", "Make Linear the default interpolation for GIMP's transform tools.",
         {"interpolation-type": "linear"}, {"interpolation-type": "cubic"})
    # GIMP 2.10.x's Preferences has no default threshold or zoom quality control: those tasks could not
    # be done through the screen and were replaced by settings the dialog shows.
    pref("no_help_buttons", "Hide the help buttons in GIMP's dialogs.", {"show-help-button": "no"},
         {"show-help-button": "yes"})
    pref("no_doc_history", "Stop GIMP from keeping a document history.", {"save-document-history": "no"},
         {"save-document-history": "yes"})
    pref("resize_on_zoom", "Make GIMP resize the image window when zooming.", {"resize-windows-on-zoom": "yes"},
         {"resize-windows-on-zoom": "no"})
    pref("no_export_profile", "Stop GIMP from embedding the colour profile when it exports images.",
         {"export-color-profile": "no"}, {"export-color-profile": "yes"})
    pref("no_exif_export", "Stop GIMP from exporting Exif metadata by default.", {"export-metadata-exif": "no"},
         {"export-metadata-exif": "yes"})
    pref("light_theme", "Switch GIMP to its Light theme.", {"theme": '"Light"'}, {"theme": '"Dark"'})
    pref("quiet_ui", "In GIMP's preferences, turn tooltips off and disable layer previews.",
         {"show-tooltips": "no", "layer-previews": "no"}, {"show-tooltips": "yes", "layer-previews": "yes"}, "medium")
    pref("undo_and_help_buttons", "Set GIMP's undo levels to 30 and hide the help buttons in its dialogs.",
         {"undo-levels": "30", "show-help-button": "no"}, {"undo-levels": "5", "show-help-button": "yes"}, "medium")


edits()
prefs()
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "tasks.json"), "w", encoding="utf-8") as fh:
    json.dump({"tasks": TASKS}, fh, indent=1, ensure_ascii=False)
    fh.write("\n")
print("%d tasks" % len(TASKS))
