#!/usr/bin/env python3
"""Writes tasks.json of the vlc pack. Run from the crate root: python3 crates/engine/src/apps/vlc/make_tasks.py"""
import json
import os

TASKS = []
TONES = {"Music/morning-a440.wav": 440, "Music/noon-c523.wav": 523, "Music/evening-e659.wav": 659,
         "Music/night-g392.wav": 392, "Music/chime-b494.wav": 494}
CLIPS = {"Videos/harbor-sweep.y4m": 40, "Videos/dock-pan.y4m": 90}


def media(paths):
    out = []
    for p in paths:
        if p in TONES:
            out.append({"path": p, "kind": "tone", "freq": TONES[p], "seconds": 3})
        else:
            out.append({"path": p, "kind": "video", "seconds": 3, "shade": CLIPS[p]})
    return out


def add(tid, text, difficulty, template, slots, context, scenario):
    TASKS.append({"task_id": "vlc_%s" % tid, "task_instruction": text, "context": context, "difficulty": difficulty,
                  "domain": "vlc", "domains": ["vlc"], "platform": "desktop", "scenario": scenario,
                  "task_type": "single_app", "template": template, "slots": slots})


def playlist(tid, text, difficulty, files, opened, target, fmt, entries, playlists=None, dirs=()):
    slots = {"media": media(files), "playlists": playlists or {}, "dirs": list(dirs), "open": opened,
             "target": {"path": target, "format": fmt, "entries": entries}}
    context = ("The setup generates %s (standard-library WAV tones / Y4M clips)%s and starts VLC with %s. Ground "
               "truth: ~/%s, a %s playlist of %s in this order. Checkpoints: format (0.2), every track (0.5), order "
               "(0.2), nothing else (0.1)." % (", ".join(files), "".join(", writes " + p for p in (playlists or {})),
                                              ", ".join(opened) or "nothing open", target, fmt.upper(), ", ".join(entries)))
    add(tid, text, difficulty, "vlc_playlist", slots, context, "Playlists")


def playlists():
    a, c, e, g, b = list(TONES)
    v1, v2 = list(CLIPS)
    playlist("save_xspf_three", "Save VLC's current playlist as an XSPF file at ~/Music/day.xspf.", "easy",
             [a, c, e], [a, c, e], "Music/day.xspf", "xspf", [a, c, e])
    playlist("save_m3u_three", "Save the playlist open in VLC as ~/Music/day.m3u (M3U format).", "easy",
             [a, c, e], [a, c, e], "Music/day.m3u", "m3u", [a, c, e])
    playlist("save_xspf_two", "Export the current VLC playlist to ~/Music/pair.xspf.", "easy",
             [g, b], [g, b], "Music/pair.xspf", "xspf", [g, b])
    playlist("save_m3u_four", "Save the four tracks playing in VLC as the playlist ~/Music/all-tones.m3u.", "easy",
             [a, c, e, g], [a, c, e, g], "Music/all-tones.m3u", "m3u", [a, c, e, g])
    playlist("save_videos_xspf", "Save the video playlist open in VLC as ~/Videos/clips.xspf.", "easy",
             [v1, v2], [v1, v2], "Videos/clips.xspf", "xspf", [v1, v2])
    playlist("save_videos_m3u", "Store VLC's current playlist of clips as ~/Videos/clips.m3u.", "easy",
             [v1, v2], [v1, v2], "Videos/clips.m3u", "m3u", [v1, v2])
    playlist("save_mixed_xspf", "Save the mixed audio/video playlist VLC has open to ~/Music/mixed.xspf.", "medium",
             [a, v1, c], [a, v1, c], "Music/mixed.xspf", "xspf", [a, v1, c])
    playlist("save_to_folder", "Save VLC's playlist as an M3U file named evening.m3u in ~/Playlists.", "medium",
             [e, g], [e, g], "Playlists/evening.m3u", "m3u", [e, g], dirs=["Playlists"])
    playlist("convert_m3u_to_xspf", "VLC has ~/Music/mix.m3u open. Save the same playlist in XSPF format as "
             "~/Music/mix.xspf.", "medium", [a, c, b], ["Music/mix.m3u"], "Music/mix.xspf", "xspf", [a, c, b],
             playlists={"Music/mix.m3u": {"format": "m3u", "entries": [a, c, b]}})
    playlist("convert_xspf_to_m3u", "Convert the playlist ~/Music/focus.xspf (open in VLC) to an M3U playlist at "
             "~/Music/focus.m3u.", "medium", [g, e], ["Music/focus.xspf"], "Music/focus.m3u", "m3u", [g, e],
             playlists={"Music/focus.xspf": {"format": "xspf", "entries": [g, e]}})
    playlist("save_single", "Save a playlist containing just the track VLC is playing as ~/Music/chime.xspf.", "easy",
             [b], [b], "Music/chime.xspf", "xspf", [b])
    playlist("save_five_m3u", "Save all five tones open in VLC, in their current order, as ~/Music/scale.m3u.", "medium",
             [a, c, e, g, b], [a, c, e, g, b], "Music/scale.m3u", "m3u", [a, c, e, g, b])
    playlist("build_two", "In VLC, open ~/Music/morning-a440.wav and ~/Music/evening-e659.wav and save them as the "
             "playlist ~/Music/bookends.xspf.", "medium", [a, c, e], [], "Music/bookends.xspf", "xspf", [a, e])
    playlist("build_videos", "Open both clips in ~/Videos with VLC and save them as ~/Videos/reel.m3u.", "medium",
             [v1, v2], [], "Videos/reel.m3u", "m3u", [v1, v2])
    playlist("drop_one", "VLC is playing four tones. Remove night-g392 from the playlist and save the rest, in order, "
             "as ~/Music/no-night.xspf.", "hard", [a, c, e, g], [a, c, e, g], "Music/no-night.xspf", "xspf", [a, c, e])
    playlist("reverse_two", "Make a playlist in VLC that plays noon-c523 first and then morning-a440, and save it as "
             "~/Music/reversed.m3u.", "hard", [a, c], [a, c], "Music/reversed.m3u", "m3u", [c, a])
    playlist("add_clip", "Add ~/Videos/dock-pan.y4m to the end of VLC's current playlist and save the playlist as "
             "~/Music/with-clip.xspf.", "hard", [a, c, v2], [a, c], "Music/with-clip.xspf", "xspf", [a, c, v2])
    playlist("merge_m3u", "VLC has ~/Music/mix.m3u open. Add ~/Music/night-g392.wav at the end and save the result as "
             "~/Music/mix-plus.m3u.", "hard", [a, c, g], ["Music/mix.m3u"], "Music/mix-plus.m3u", "m3u", [a, c, g],
             playlists={"Music/mix.m3u": {"format": "m3u", "entries": [a, c]}})


KEEP = {"qt-privacy-ask": "0", "metadata-network-access": "0"}
DEFAULTS = {"snapshot-format": "png", "snapshot-prefix": "vlcsnap-", "snapshot-path": "", "loop": "0", "random": "0",
            "repeat": "0", "video-title-show": "1", "qt-recentplay": "1", "one-instance": "0", "fullscreen": "0",
            "audio-language": "", "sub-language": "", "qt-continue": "1", "volume-save": "1", "qt-max-volume": "125",
            "start-paused": "0", "play-and-exit": "0", "qt-name-in-title": "1", "preferred-resolution": "-1",
            "video-on-top": "0", "audio-replay-gain-mode": "none", "qt-privacy-ask": "1",
            "metadata-network-access": "0", "qt-pause-minimized": "0"}


def pref(tid, text, difficulty, changes, where, dirs=()):
    defaults = {k: DEFAULTS[k] for k in list(changes) + list(KEEP)}
    context = ("The setup writes ~/.config/vlc/vlcrc (first-run question off, VLC's defaults elsewhere: %s) and starts "
               "VLC. Ground truth: %s in vlcrc (%s; VLC writes vlcrc when Preferences are saved). Checkpoints: one per "
               "key (0.8 split), first-run and privacy settings kept (0.2)."
               % (json.dumps({k: DEFAULTS[k] for k in changes}), json.dumps(changes), where))
    slots = {"seed": dict(KEEP), "defaults": defaults, "changes": changes, "keep": dict(KEEP), "dirs": list(dirs)}
    add(tid, text, difficulty, "vlc_prefs", slots, context, "Preferences")


def prefs():
    pref("snapshot_jpg", "Set VLC to save video snapshots as JPG.", "easy", {"snapshot-format": "jpg"},
         "Preferences > Video > Video snapshots > Format")
    pref("snapshot_dir", "Make VLC save its video snapshots into ~/Pictures/snaps.", "medium",
         {"snapshot-path": "/home/user/Pictures/snaps"}, "Preferences > Video > Video snapshots > Directory",
         dirs=["Pictures/snaps"])
    pref("snapshot_prefix", "Change VLC's snapshot file prefix to frame-.", "easy", {"snapshot-prefix": "frame-"},
         "Preferences > Video > Video snapshots > Prefix")
    pref("snapshot_all", "Configure VLC's video snapshots: folder ~/Pictures/vlc, prefix shot-, format JPG.", "hard",
         {"snapshot-path": "/home/user/Pictures/vlc", "snapshot-prefix": "shot-", "snapshot-format": "jpg"},
         "Preferences > Video > Video snapshots", dirs=["Pictures/vlc"])
    pref("loop_all", "Make VLC loop the whole playlist by default.", "easy", {"loop": "1"},
         "Preferences (All) > Playlist > Repeat all")
    pref("random_on", "Make VLC play playlist items in random order by default.", "easy", {"random": "1"},
         "Preferences (All) > Playlist > Play files randomly forever")
    pref("no_title", "Stop VLC from showing the media title on the video when playback starts.", "easy",
         {"video-title-show": "0"}, "Preferences > Subtitles / OSD > Show media title on video start")
    pref("no_recent", "Turn off VLC's list of recently played media.", "easy", {"qt-recentplay": "0"},
         "Preferences > Interface > Save recently played items")
    pref("one_instance", "Allow only one instance of VLC to run at a time.", "easy", {"one-instance": "1"},
         "Preferences > Interface > Allow only one instance")
    pref("fullscreen", "Make VLC start videos in fullscreen.", "easy", {"fullscreen": "1"},
         "Preferences > Video > Fullscreen")
    pref("audio_french", "Set VLC's preferred audio language to French (fr).", "medium", {"audio-language": "fr"},
         "Preferences > Input / Codecs / Audio > Preferred audio language")
    pref("continue_always", "Make VLC always continue playback where it stopped, without asking.", "easy",
         {"qt-continue": "2"}, "Preferences > Interface > Continue playback?")
    pref("no_volume_save", "Stop VLC from remembering the audio volume between sessions.", "medium",
         {"volume-save": "0"}, "Preferences > Audio > Always reset audio start level")
    pref("max_volume_200", "Let VLC's volume slider go up to 200%.", "medium", {"qt-max-volume": "200"},
         "Preferences (All) > Interface > Qt > Maximum volume displayed")
    pref("start_paused", "Make VLC start every media paused.", "medium", {"start-paused": "1"},
         "Preferences (All) > Playlist > Start paused")
    pref("loop_random", "Set VLC to loop the playlist and shuffle it by default.", "medium",
         {"loop": "1", "random": "1"}, "Preferences (All) > Playlist")


if __name__ == "__main__":
    playlists()
    prefs()
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tasks.json")
    with open(out + ".tmp", "w", encoding="utf-8") as fh:
        json.dump({"tasks": TASKS}, fh, indent=1, ensure_ascii=False)
        fh.write("\n")
    os.replace(out + ".tmp", out)
    print("wrote %d tasks to %s" % (len(TASKS), out))
