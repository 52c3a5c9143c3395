import json
import os
import signal
import subprocess
import time

PROFILE = "/home/user/.config/chromium"
DEFAULT = os.path.join(PROFILE, "Default")


def stop_chromium():
    """Chromium rewrites Preferences and Bookmarks when it exits: stop it before touching them."""
    for pid in [p for p in os.listdir("/proc") if p.isdigit()]:
        try:
            with open("/proc/%s/comm" % pid, encoding="utf-8") as fh:
                if fh.read().strip() not in ("chromium", "chrome"):
                    continue
            # Only this home's program: never a process of another home or user.
            with open("/proc/%s/environ" % pid, "rb") as fh:
                env = fh.read().split(b"\0")
            with open("/proc/%s/cmdline" % pid, "rb") as fh:
                cmd = fh.read()
            if b"HOME=/home/user" not in env and b"/home/user/" not in cmd:
                continue
            os.kill(int(pid), signal.SIGTERM)
            for _ in range(50):
                if not os.path.exists("/proc/" + pid):
                    break
                time.sleep(0.1)
        except (OSError, ValueError):
            pass
    for name in ("SingletonLock", "SingletonSocket", "SingletonCookie"):
        try:
            os.remove(os.path.join(PROFILE, name))
        except OSError:
            pass


def write_json(path, doc):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tw-tmp", "w", encoding="utf-8") as fh:
        json.dump(doc, fh, indent=3)
    os.replace(path + ".tw-tmp", path)


def launch(urls):
    args = ["chromium", "--user-data-dir=" + PROFILE, "--no-first-run", "--no-default-browser-check"] + list(urls)
    subprocess.Popen(args, env={**os.environ, "DISPLAY": ":0"}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
import sqlite3

# The History schema of Chromium 156 (meta version 70), so Chromium opens the file as its own.
SCHEMA = "CREATE TABLE meta(key LONGVARCHAR NOT NULL UNIQUE PRIMARY KEY, value LONGVARCHAR);\nCREATE TABLE urls(id INTEGER PRIMARY KEY AUTOINCREMENT,url LONGVARCHAR,title LONGVARCHAR,visit_count INTEGER DEFAULT 0 NOT NULL,typed_count INTEGER DEFAULT 0 NOT NULL,last_visit_time INTEGER NOT NULL,hidden INTEGER DEFAULT 0 NOT NULL);\nCREATE TABLE visits(id INTEGER PRIMARY KEY AUTOINCREMENT,url INTEGER NOT NULL,visit_time INTEGER NOT NULL,from_visit INTEGER,external_referrer_url TEXT,transition INTEGER DEFAULT 0 NOT NULL,segment_id INTEGER,visit_duration INTEGER DEFAULT 0 NOT NULL,incremented_omnibox_typed_score BOOLEAN DEFAULT FALSE NOT NULL,opener_visit INTEGER,originator_cache_guid TEXT,originator_visit_id INTEGER,originator_from_visit INTEGER,originator_opener_visit INTEGER,is_known_to_sync BOOLEAN DEFAULT FALSE NOT NULL,consider_for_ntp_most_visited BOOLEAN DEFAULT FALSE NOT NULL,visited_link_id INTEGER DEFAULT 0 NOT NULL,app_id TEXT);\nCREATE TABLE visit_source(id INTEGER PRIMARY KEY,source INTEGER NOT NULL);\nCREATE INDEX visits_url_index ON visits (url);\nCREATE INDEX visits_from_index ON visits (from_visit);\nCREATE INDEX visits_time_index ON visits (visit_time);\nCREATE INDEX visits_originator_id_index ON visits (originator_visit_id);\nCREATE TABLE keyword_search_terms (keyword_id INTEGER NOT NULL,url_id INTEGER NOT NULL,term LONGVARCHAR NOT NULL,normalized_term LONGVARCHAR NOT NULL);\nCREATE INDEX keyword_search_terms_index1 ON keyword_search_terms (keyword_id, normalized_term);\nCREATE INDEX keyword_search_terms_index2 ON keyword_search_terms (url_id);\nCREATE INDEX keyword_search_terms_index3 ON keyword_search_terms (term);\nCREATE TABLE downloads (id INTEGER PRIMARY KEY,guid VARCHAR NOT NULL,current_path LONGVARCHAR NOT NULL,target_path LONGVARCHAR NOT NULL,start_time INTEGER NOT NULL,received_bytes INTEGER NOT NULL,total_bytes INTEGER NOT NULL,state INTEGER NOT NULL,danger_type INTEGER NOT NULL,interrupt_reason INTEGER NOT NULL,hash BLOB NOT NULL,end_time INTEGER NOT NULL,opened INTEGER NOT NULL,last_access_time INTEGER NOT NULL,transient INTEGER NOT NULL,referrer VARCHAR NOT NULL,site_url VARCHAR NOT NULL,embedder_download_data VARCHAR NOT NULL,tab_url VARCHAR NOT NULL,tab_referrer_url VARCHAR NOT NULL,http_method VARCHAR NOT NULL,by_ext_id VARCHAR NOT NULL,by_ext_name VARCHAR NOT NULL,by_web_app_id VARCHAR NOT NULL,etag VARCHAR NOT NULL,last_modified VARCHAR NOT NULL,mime_type VARCHAR(255) NOT NULL,original_mime_type VARCHAR(255) NOT NULL);\nCREATE TABLE downloads_url_chains (id INTEGER NOT NULL,chain_index INTEGER NOT NULL,url LONGVARCHAR NOT NULL, PRIMARY KEY (id, chain_index) );\nCREATE TABLE downloads_slices (download_id INTEGER NOT NULL,offset INTEGER NOT NULL,received_bytes INTEGER NOT NULL,finished INTEGER NOT NULL DEFAULT 0,PRIMARY KEY (download_id, offset) );\nCREATE TABLE segments (id INTEGER PRIMARY KEY,name VARCHAR,url_id INTEGER NON NULL);\nCREATE INDEX segments_name ON segments(name);\nCREATE INDEX segments_url_id ON segments(url_id);\nCREATE TABLE segment_usage (id INTEGER PRIMARY KEY,segment_id INTEGER NOT NULL,time_slot INTEGER NOT NULL,visit_count INTEGER DEFAULT 0 NOT NULL);\nCREATE INDEX segment_usage_time_slot_segment_id ON segment_usage(time_slot, segment_id);\nCREATE INDEX segments_usage_seg_id ON segment_usage(segment_id);\nCREATE TABLE content_annotations(visit_id INTEGER PRIMARY KEY,visibility_score NUMERIC,floc_protected_score NUMERIC,categories VARCHAR,page_topics_model_version INTEGER,annotation_flags INTEGER NOT NULL,entities VARCHAR,related_searches VARCHAR,search_normalized_url VARCHAR,search_terms LONGVARCHAR,alternative_title VARCHAR,page_language VARCHAR,password_state INTEGER DEFAULT 0 NOT NULL,has_url_keyed_image BOOLEAN NOT NULL);\nCREATE TABLE context_annotations(visit_id INTEGER PRIMARY KEY,context_annotation_flags INTEGER NOT NULL,duration_since_last_visit INTEGER,page_end_reason INTEGER,total_foreground_duration INTEGER,browser_type INTEGER DEFAULT 0 NOT NULL,window_id INTEGER DEFAULT -1 NOT NULL,tab_id INTEGER DEFAULT -1 NOT NULL,task_id INTEGER DEFAULT -1 NOT NULL,root_task_id INTEGER DEFAULT -1 NOT NULL,parent_task_id INTEGER DEFAULT -1 NOT NULL,response_code INTEGER DEFAULT 0 NOT NULL);\nCREATE TABLE clusters(cluster_id INTEGER PRIMARY KEY AUTOINCREMENT,should_show_on_prominent_ui_surfaces BOOLEAN NOT NULL,label VARCHAR NOT NULL,raw_label VARCHAR NOT NULL,triggerability_calculated BOOLEAN NOT NULL,originator_cache_guid TEXT NOT NULL,originator_cluster_id INTEGER NOT NULL);\nCREATE TABLE clusters_and_visits(cluster_id INTEGER NOT NULL,visit_id INTEGER NOT NULL,score NUMERIC DEFAULT 0 NOT NULL,engagement_score NUMERIC DEFAULT 0 NOT NULL,url_for_deduping LONGVARCHAR NOT NULL,normalized_url LONGVARCHAR NOT NULL,url_for_display LONGVARCHAR NOT NULL,interaction_state INTEGER DEFAULT 0 NOT NULL,PRIMARY KEY(cluster_id,visit_id))WITHOUT ROWID;\nCREATE INDEX clusters_for_visit ON clusters_and_visits(visit_id);\nCREATE TABLE cluster_keywords(cluster_id INTEGER NOT NULL,keyword VARCHAR NOT NULL,type INTEGER NOT NULL,score NUMERIC NOT NULL,collections VARCHAR NOT NULL);\nCREATE INDEX cluster_keywords_cluster_id_index ON cluster_keywords(cluster_id);\nCREATE TABLE cluster_visit_duplicates(visit_id INTEGER NOT NULL,duplicate_visit_id INTEGER NOT NULL,PRIMARY KEY(visit_id,duplicate_visit_id))WITHOUT ROWID;\nCREATE TABLE visited_links(id INTEGER PRIMARY KEY AUTOINCREMENT,link_url_id INTEGER NOT NULL,top_level_url LONGVARCHAR NOT NULL,frame_url LONGVARCHAR NOT NULL,visit_count INTEGER DEFAULT 0 NOT NULL);\nCREATE INDEX visited_links_index ON visited_links (link_url_id, top_level_url, frame_url);\nCREATE TABLE history_sync_metadata (storage_key INTEGER PRIMARY KEY NOT NULL, value BLOB);\nCREATE TABLE journeys (journey_id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL, emoji TEXT, overview TEXT, short_overview TEXT, creation_time_micros INTEGER NOT NULL);\nCREATE INDEX journeys_creation_time_idx ON journeys (creation_time_micros);\nCREATE TABLE journey_history_entries (journey_id TEXT NOT NULL, visit_timestamp_micros INTEGER NOT NULL, PRIMARY KEY (journey_id, visit_timestamp_micros)) WITHOUT ROWID;\nCREATE INDEX journey_history_entries_timestamp_idx ON journey_history_entries (visit_timestamp_micros);\nCREATE TABLE journey_continuation_queries (id INTEGER PRIMARY KEY, journey_id TEXT NOT NULL, title TEXT NOT NULL, prompt TEXT NOT NULL);\nCREATE INDEX journey_continuation_queries_journey_id_idx ON journey_continuation_queries (journey_id);\nCREATE TABLE journey_sync_metadata (storage_key TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL);\nCREATE INDEX urls_url_index ON urls (url);\n"


def chrome_time(seconds_ago):
    """Chromium time: microseconds since 1601-01-01 UTC."""
    return int((time.time() - seconds_ago + 11644473600) * 1000000)


stop_chromium()
path = os.path.join(DEFAULT, "History")
os.makedirs(DEFAULT, exist_ok=True)
for suffix in ("", "-journal", "-wal"):
    if os.path.exists(path + suffix):
        os.remove(path + suffix)
db = sqlite3.connect(path + ".tw-tmp")
db.executescript(SCHEMA)
db.executemany("INSERT INTO meta(key, value) VALUES (?, ?)", [("mmap_status", "-1"), ("version", "70"), ("last_compatible_version", "16")])
for entry in S["history"]:
    ago = entry.get("minutes_ago", 60 * 24 * entry.get("days_ago", 1)) * 60
    n = entry.get("visits", 1)
    cur = db.execute("INSERT INTO urls(url, title, visit_count, typed_count, last_visit_time, hidden) VALUES (?, ?, ?, 0, ?, 0)",
                     (entry["url"], entry["title"], n, chrome_time(ago)))
    for k in range(n):
        db.execute("INSERT INTO visits(url, visit_time, from_visit, transition, segment_id, visit_duration) VALUES (?, ?, 0, 805306368, 0, 0)",
                   (cur.lastrowid, chrome_time(ago + 600 * k)))
db.commit()
db.close()
os.replace(path + ".tw-tmp", path)
launch(S.get("open", []))
print("setup: wrote %d history entries and launched chromium" % len(S["history"]))
