import math
import struct
import wave


def tone(path, freq, seconds):
    """A mono 8 kHz 16-bit sine tone, made with the standard library (no ffmpeg)."""
    rate = 8000
    frames = b"".join(struct.pack("<h", int(9000 * math.sin(2 * math.pi * freq * i / rate)))
                      for i in range(int(rate * seconds)))
    tmp = path + ".tw-tmp"
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with wave.open(tmp, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(frames)
    os.replace(tmp, path)


def video(path, seconds, shade):
    """A 64x48 YUV4MPEG2 clip at 10 fps (VLC's rawvid demuxer plays .y4m): a bar sweeping across."""
    w, h, fps = 64, 48, 10
    out = [b"YUV4MPEG2 W64 H48 F10:1 Ip A1:1 C420jpeg\n"]
    for f in range(int(seconds * fps)):
        x = f * 4 % w
        luma = bytes(235 if abs(c - x) < 4 else shade for _ in range(h) for c in range(w))
        out.append(b"FRAME\n" + luma + bytes([128]) * (w * h // 2))
    write_atomic(path, b"".join(out))


def playlist_text(fmt, entries):
    if fmt == "xspf":
        tracks = "".join("\t\t<track><location>file://%s</location><title>%s</title></track>\n"
                         % (p.replace(" ", "%20"), os.path.splitext(os.path.basename(p))[0]) for p in entries)
        return ('<?xml version="1.0" encoding="UTF-8"?>\n<playlist xmlns="http://xspf.org/ns/0/" version="1">\n'
                "\t<title>Playlist</title>\n\t<trackList>\n%s\t</trackList>\n</playlist>\n" % tracks)
    return "#EXTM3U\n" + "".join("#EXTINF:-1,%s\n%s\n" % (os.path.splitext(os.path.basename(p))[0], p) for p in entries)


for m in S["media"]:
    path = os.path.join(HOME, m["path"])
    if m["kind"] == "tone":
        tone(path, m["freq"], m["seconds"])
    else:
        video(path, m["seconds"], m.get("shade", 60))
for rel, pl in S.get("playlists", {}).items():
    write_atomic(os.path.join(HOME, rel), playlist_text(pl["format"], [os.path.join(HOME, e) for e in pl["entries"]]).encode())
make_dirs(S.get("dirs", []))
args = start_vlc(S.get("open", []))
print("setup: made %d media file(s) and launched %s" % (len(S["media"]), " ".join(args)))
