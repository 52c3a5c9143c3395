stop_gimp()
# Copy-then-modify: the picture the setup wrote, edited, saved where the task asks.
im = Image.open(os.path.join(HOME, S["image"]["path"]))
im.load()
im = im.convert("RGB")
for op in S["ops"]:
    im = apply(im, op)
out = os.path.join(HOME, S["out"])
fmt = FORMATS[out.rsplit(".", 1)[-1].lower()]
if fmt == "JPEG" and im.mode not in ("RGB", "L"):
    im = im.convert("RGB")
tmp = out + ".tw-tmp"
im.save(tmp, format=fmt)
os.replace(tmp, out)
print("golden: %s -> %s (%s)" % (S["image"]["path"], S["out"], ", ".join(map(str, S["ops"])) or "export"))
