"""Reference values for tuplewright's smart_resize (crates/engine/src/rollout/vlm/coords.rs).

The function below is qwen_vl_utils.vision_process.smart_resize (Qwen2.5-VL / Qwen3-VL), copied
verbatim apart from the constants being arguments. Run `python3 reference.py > cases.json` to
regenerate cases.json; the Rust unit test compares against that file.
"""
import json
import math


def round_by_factor(number, factor):
    return round(number / factor) * factor


def ceil_by_factor(number, factor):
    return math.ceil(number / factor) * factor


def floor_by_factor(number, factor):
    return math.floor(number / factor) * factor


def smart_resize(height, width, factor, min_pixels, max_pixels):
    if max(height, width) / min(height, width) > 200:
        raise ValueError("absolute aspect ratio must be smaller than 200")
    h_bar = max(factor, round_by_factor(height, factor))
    w_bar = max(factor, round_by_factor(width, factor))
    if h_bar * w_bar > max_pixels:
        beta = math.sqrt((height * width) / max_pixels)
        h_bar = max(factor, floor_by_factor(height / beta, factor))
        w_bar = max(factor, floor_by_factor(width / beta, factor))
    elif h_bar * w_bar < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h_bar = ceil_by_factor(height * beta, factor)
        w_bar = ceil_by_factor(width * beta, factor)
    return h_bar, w_bar


BUDGETS = [
    (28, 4 * 28 * 28, 16384 * 28 * 28),  # Qwen2.5-VL defaults
    (28, 3136, 1003520),  # a common vLLM serving budget (1280 * 28 * 28)
    (32, 64 * 32 * 32, 2048 * 32 * 32),  # the paper's budget (C.1.1)
    (14, 56 * 56, 28 * 28 * 1280),
]
SIZES = [
    (800, 1280), (1080, 1920), (1000, 1000), (768, 1024), (900, 1440), (1440, 2560),
    (2160, 3840), (42, 70), (14, 2800), (720, 1280), (1050, 1680), (1200, 1920),
    (64, 64), (98, 126), (630, 1134), (37, 1111), (3000, 4000), (1601, 2561),
]

cases = []
for factor, lo, hi in BUDGETS:
    for h, w in SIZES:
        try:
            out = list(smart_resize(h, w, factor, lo, hi))
        except ValueError:
            out = None
        cases.append({"height": h, "width": w, "factor": factor, "min_pixels": lo,
                      "max_pixels": hi, "resized": out})
print(json.dumps(cases, indent=1))
