import os

HOME = "/home/user"
# VLC's own export formats (Media > Save Playlist to File, Ctrl+Y): XSPF with file:// locations,
# or M3U with #EXTINF lines and absolute paths.
t = S["target"]
entries = [os.path.join(HOME, e) for e in t["entries"]]
title = lambda p: os.path.splitext(os.path.basename(p))[0]
if t["format"] == "xspf":
    tracks = "".join("\t\t<track>\n\t\t\t<location>file://%s</location>\n\t\t\t<title>%s</title>\n\t\t</track>\n"
                     % (p.replace(" ", "%20"), title(p)) for p in entries)
    text = ('<?xml version="1.0" encoding="UTF-8"?>\n<playlist xmlns="http://xspf.org/ns/0/" '
            'xmlns:vlc="http://www.videolan.org/vlc/playlist/ns/0/" version="1">\n\t<title>Playlist</title>\n'
            "\t<trackList>\n%s\t</trackList>\n</playlist>\n" % tracks)
else:
    text = "#EXTM3U\n" + "".join("#EXTINF:3,%s\n%s\n" % (title(p), p) for p in entries)
path = os.path.join(HOME, t["path"])
os.makedirs(os.path.dirname(path), exist_ok=True)
with open(path + ".tw-tmp", "w", encoding="utf-8") as fh:
    fh.write(text)
os.replace(path + ".tw-tmp", path)
print("golden: wrote %s with %d entries" % (t["path"], len(entries)))
