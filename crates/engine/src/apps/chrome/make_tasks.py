#!/usr/bin/env python3
"""Writes tasks.json of the chrome pack (the installed Chromium as a desktop application).

Run from the crate root: python3 crates/engine/src/apps/chrome/make_tasks.py
"""
import json
import os

TASKS = []
GOOGLE = {"keyword": "google.com", "short_name": "Google", "prepopulate_id": 1,
          "url": "{google:baseURL}search?q={searchTerms}"}
DSP = "default_search_provider_data.template_url_data"
BASE_KEEP = {"browser.enable_spellchecking": True, "intl.accept_languages": "en-US,en",
             "webkit.webprefs.default_fixed_font_size": 13}


def add(tid, text, context, difficulty, template, slots, scenario):
    TASKS.append({
        "task_id": "chrome_%s" % tid, "task_instruction": text, "context": context, "difficulty": difficulty,
        "domain": "chrome", "domains": ["chrome"], "platform": "desktop", "scenario": scenario,
        "task_type": "single_app", "template": template, "slots": slots,
    })


def pref(tid, text, difficulty, preset, changes, scenario="Browser Settings"):
    # A key of the same group as a change is no "other" preference: Chromium's font size control
    # also moves the fixed-width size, as it does for a person.
    groups = {c.rsplit(".", 1)[0] for c in changes if c.count(".") >= 2}
    keep = {k: v for k, v in BASE_KEEP.items()
            if k not in preset and k not in changes and k.rsplit(".", 1)[0] not in groups}
    context = ("The setup merges %s and %s into /home/user/.config/chromium/Default/Preferences and opens "
               "Chromium with that profile. Ground truth: %s in Preferences (Chromium writes it a few seconds "
               "after a change and when it exits). Checkpoints: one per key (0.8 split), other preferences "
               "preserved (0.2)." % (json.dumps(preset), json.dumps(keep), json.dumps(changes)))
    add(tid, text, context, difficulty, "chrome_prefs",
        {"preset": preset, "changes": changes, "keep": keep, "open": ["chrome://newtab/"]}, scenario)


def settings():
    pref("homepage", "In Chromium, show the Home button and make it open https://intranet.example.test/.",
         "medium", {"homepage": "https://www.example.test/", "homepage_is_newtabpage": True,
                    "browser.show_home_button": False},
         {"homepage": "https://intranet.example.test/", "homepage_is_newtabpage": False,
          "browser.show_home_button": True})
    pref("home_button", "Show the Home button in Chromium's toolbar.", "easy",
         {"browser.show_home_button": False}, {"browser.show_home_button": True})
    pref("startup_page", "Make Chromium open https://calendar.example.test/ every time it starts.", "medium",
         {"session.restore_on_startup": 5, "session.startup_urls": []},
         {"session.restore_on_startup": 4, "session.startup_urls": ["https://calendar.example.test/"]},
         "Startup and Home")
    pref("startup_two_pages", "Set Chromium to open two pages on startup: https://mail.example.test/ and "
         "https://calendar.example.test/ (in that order).", "hard",
         {"session.restore_on_startup": 5, "session.startup_urls": []},
         {"session.restore_on_startup": 4,
          "session.startup_urls": ["https://mail.example.test/", "https://calendar.example.test/"]},
         "Startup and Home")
    pref("continue_session", "Have Chromium continue where you left off when it starts.", "easy",
         {"session.restore_on_startup": 5}, {"session.restore_on_startup": 1}, "Startup and Home")
    pref("new_tab_startup", "Make Chromium open the New Tab page on startup instead of restoring pages.", "easy",
         {"session.restore_on_startup": 1}, {"session.restore_on_startup": 5}, "Startup and Home")
    pref("download_dir", "Change Chromium's download location to /home/user/Documents.", "medium",
         {"download.default_directory": "/home/user/Downloads"},
         {"download.default_directory": "/home/user/Documents"}, "Downloads")
    pref("ask_download", "Make Chromium ask where to save each file before downloading.", "easy",
         {"download.prompt_for_download": False}, {"download.prompt_for_download": True}, "Downloads")
    pref("font_size", "Set Chromium's font size to Large (20).", "easy",
         {"webkit.webprefs.default_font_size": 16}, {"webkit.webprefs.default_font_size": 20}, "Appearance")
    pref("min_font", "Set Chromium's minimum font size to 12.", "medium",
         {"webkit.webprefs.minimum_font_size": 0}, {"webkit.webprefs.minimum_font_size": 12}, "Appearance")
    pref("bookmarks_bar", "Always show the bookmarks bar in Chromium.", "easy",
         {"bookmark_bar.show_on_all_tabs": False}, {"bookmark_bar.show_on_all_tabs": True}, "Appearance")
    pref("do_not_track", "Turn on Chromium's \"Send a Do Not Track request\" setting.", "medium",
         {"enable_do_not_track": False}, {"enable_do_not_track": True}, "Privacy")
    pref("no_passwords", "Stop Chromium from offering to save passwords.", "easy",
         {"credentials_enable_service": True}, {"credentials_enable_service": False}, "Privacy")
    pref("no_address_autofill", "Turn off saving and filling addresses in Chromium.", "easy",
         {"autofill.profile_enabled": True}, {"autofill.profile_enabled": False}, "Privacy")
    pref("no_card_autofill", "Turn off saving and filling payment methods in Chromium.", "easy",
         {"autofill.credit_card_enabled": True}, {"autofill.credit_card_enabled": False}, "Privacy")
    pref("block_third_party", "Block third-party cookies in Chromium.", "medium",
         {"profile.cookie_controls_mode": 0}, {"profile.cookie_controls_mode": 1}, "Privacy")
    pref("block_notifications", "Don't let any site send notifications in Chromium.", "medium",
         {"profile.default_content_setting_values.notifications": 3},
         {"profile.default_content_setting_values.notifications": 2}, "Privacy")
    pref("allow_popups", "Allow sites to show pop-ups and use redirects in Chromium.", "medium",
         {"profile.default_content_setting_values.popups": 2},
         {"profile.default_content_setting_values.popups": 1}, "Privacy")
    pref("no_suggestions", "Turn off search and URL suggestions (autocomplete) in Chromium.", "medium",
         {"search.suggest_enabled": True}, {"search.suggest_enabled": False}, "Privacy")
    pref("no_spellcheck", "Turn spell check off in Chromium.", "easy",
         {"browser.enable_spellchecking": True}, {"browser.enable_spellchecking": False}, "Appearance")
    pref("privacy_bundle", "Harden Chromium's privacy: send Do Not Track, block third-party cookies and stop "
         "offering to save passwords.", "hard",
         {"enable_do_not_track": False, "profile.cookie_controls_mode": 0, "credentials_enable_service": True},
         {"enable_do_not_track": True, "profile.cookie_controls_mode": 1, "credentials_enable_service": False},
         "Privacy")
    pref("search_duckduckgo", "Make DuckDuckGo Chromium's default search engine.", "medium",
         {DSP: GOOGLE}, {DSP + ".short_name": "DuckDuckGo", DSP + ".keyword": "duckduckgo.com"}, "Search Engine")
    pref("search_bing", "Switch Chromium's default search engine to Bing.", "medium",
         {DSP: GOOGLE}, {DSP + ".short_name": "Microsoft Bing", DSP + ".keyword": "bing.com"}, "Search Engine")


TREE = {
    "bookmark_bar": [
        {"name": "News", "url": "https://news.example.test/"},
        {"name": "Python docs", "url": "https://docs.python.org/3/"},
        {"name": "Team chat", "url": "http://localhost:3101/"},
        {"name": "Work", "children": [
            {"name": "Issue tracker", "url": "http://localhost:3103/"},
            {"name": "Shop admin", "url": "http://localhost:3104/"},
        ]},
    ],
    "other": [
        {"name": "Recipes", "url": "https://recipes.example.test/"},
        {"name": "Old wiki", "url": "https://wiki.old.example.test/"},
    ],
}
ALL_URLS = ["https://news.example.test/", "https://docs.python.org/3/", "http://localhost:3101/",
            "http://localhost:3103/", "http://localhost:3104/", "https://recipes.example.test/",
            "https://wiki.old.example.test/"]


def bm(tid, text, difficulty, ops, goals, touched):
    guards = [{"name": "%s kept" % u, "kind": "present", "url": u, "guard": True}
              for u in ALL_URLS if u not in touched]
    context = ("The setup writes the profile's Bookmarks (bar: News, Python docs, Team chat, folder Work with "
               "Issue tracker and Shop admin; Other bookmarks: Recipes, Old wiki) and opens Chromium with the "
               "bookmarks bar shown. Ground truth: %s. Checkpoints: %s (0.8 split); the other bookmarks kept "
               "(0.2, once a goal passes)." % (json.dumps(ops), "; ".join(g["name"] for g in goals)))
    add(tid, text, context, difficulty, "chrome_bookmarks",
        {"tree": TREE, "ops": ops, "checks": goals + guards, "open": ["chrome://newtab/"]}, "Bookmarks")


def g_bm(folder, name, url):
    return {"name": "%s in %s named %s" % (url, folder, name), "kind": "bookmark", "folder": folder,
            "name": name, "url": url}


def bookmarks():
    bm("add_mail", "Bookmark http://localhost:3102/ on Chromium's bookmarks bar with the name Mail.", "easy",
       [{"op": "add", "folder": "bookmark_bar", "name": "Mail", "url": "http://localhost:3102/"}],
       [g_bm("bookmark_bar", "Mail", "http://localhost:3102/")], [])
    bm("rename_python", "Rename the bookmark \"Python docs\" to \"Python 3 reference\".", "easy",
       [{"op": "rename", "url": "https://docs.python.org/3/", "name": "Python 3 reference"}],
       [g_bm("bookmark_bar", "Python 3 reference", "https://docs.python.org/3/")], ["https://docs.python.org/3/"])
    bm("reading_folder", "Create a folder called Reading on the bookmarks bar and move the News bookmark into "
       "it.", "medium",
       [{"op": "mkdir", "folder": "bookmark_bar", "name": "Reading"},
        {"op": "move", "url": "https://news.example.test/", "folder": "bookmark_bar/Reading"}],
       [{"name": "folder Reading on the bar", "kind": "folder", "folder": "bookmark_bar/Reading"},
        g_bm("bookmark_bar/Reading", "News", "https://news.example.test/")], ["https://news.example.test/"])
    bm("delete_old_wiki", "Delete the Old wiki bookmark.", "easy",
       [{"op": "delete", "url": "https://wiki.old.example.test/"}],
       [{"name": "Old wiki deleted", "kind": "absent", "url": "https://wiki.old.example.test/"}],
       ["https://wiki.old.example.test/"])
    bm("recipes_to_bar", "Move the Recipes bookmark from Other bookmarks to the bookmarks bar.", "medium",
       [{"op": "move", "url": "https://recipes.example.test/", "folder": "bookmark_bar"}],
       [g_bm("bookmark_bar", "Recipes", "https://recipes.example.test/")], ["https://recipes.example.test/"])
    bm("calendar_in_work", "Add a bookmark named Calendar for https://calendar.example.test/ inside the Work "
       "folder of the bookmarks bar.", "medium",
       [{"op": "add", "folder": "bookmark_bar/Work", "name": "Calendar", "url": "https://calendar.example.test/"}],
       [g_bm("bookmark_bar/Work", "Calendar", "https://calendar.example.test/")], [])
    bm("chat_to_work", "File the Team chat bookmark into the Work folder.", "medium",
       [{"op": "move", "url": "http://localhost:3101/", "folder": "bookmark_bar/Work"}],
       [g_bm("bookmark_bar/Work", "Team chat", "http://localhost:3101/")], ["http://localhost:3101/"])
    bm("archive_folder", "In Other bookmarks, create a folder Archive and move Old wiki into it.", "medium",
       [{"op": "mkdir", "folder": "other", "name": "Archive"},
        {"op": "move", "url": "https://wiki.old.example.test/", "folder": "other/Archive"}],
       [{"name": "folder Archive in Other bookmarks", "kind": "folder", "folder": "other/Archive"},
        g_bm("other/Archive", "Old wiki", "https://wiki.old.example.test/")], ["https://wiki.old.example.test/"])
    bm("docs_folder", "Make a Docs folder on the bookmarks bar holding two bookmarks: MDN "
       "(https://developer.mozilla.org/) and Rust std (https://doc.rust-lang.org/std/).", "hard",
       [{"op": "mkdir", "folder": "bookmark_bar", "name": "Docs"},
        {"op": "add", "folder": "bookmark_bar/Docs", "name": "MDN", "url": "https://developer.mozilla.org/"},
        {"op": "add", "folder": "bookmark_bar/Docs", "name": "Rust std", "url": "https://doc.rust-lang.org/std/"}],
       [{"name": "folder Docs on the bar", "kind": "folder", "folder": "bookmark_bar/Docs"},
        g_bm("bookmark_bar/Docs", "MDN", "https://developer.mozilla.org/"),
        g_bm("bookmark_bar/Docs", "Rust std", "https://doc.rust-lang.org/std/")], [])
    bm("delete_two", "Remove the bookmarks Shop admin and Recipes.", "medium",
       [{"op": "delete", "url": "http://localhost:3104/"}, {"op": "delete", "url": "https://recipes.example.test/"}],
       [{"name": "Shop admin deleted", "kind": "absent", "url": "http://localhost:3104/"},
        {"name": "Recipes deleted", "kind": "absent", "url": "https://recipes.example.test/"}],
       ["http://localhost:3104/", "https://recipes.example.test/"])
    bm("rename_issue", "Rename the Issue tracker bookmark in the Work folder to Tickets.", "easy",
       [{"op": "rename", "url": "http://localhost:3103/", "name": "Tickets"}],
       [g_bm("bookmark_bar/Work", "Tickets", "http://localhost:3103/")], ["http://localhost:3103/"])


HISTORY = [
    {"url": "https://news.example.test/", "title": "Example News - Front page", "days_ago": 2, "visits": 3},
    {"url": "https://news.example.test/world/storm", "title": "Storm hits the coast - Example News", "days_ago": 1},
    {"url": "https://shop.example.test/cart", "title": "Cart - Example Shop", "days_ago": 3},
    {"url": "https://shop.example.test/checkout", "title": "Checkout - Example Shop", "days_ago": 3},
    {"url": "https://docs.python.org/3/library/json.html", "title": "json - Python docs", "days_ago": 4, "visits": 2},
    {"url": "https://recipes.example.test/bread", "title": "Sourdough bread - Recipes", "days_ago": 6},
    {"url": "https://social.example.test/feed", "title": "Feed - Social", "minutes_ago": 20, "visits": 4},
    {"url": "https://social.example.test/messages", "title": "Messages - Social", "minutes_ago": 35},
]


def hist(tid, text, difficulty, delete):
    keep = [h["url"] for h in HISTORY if h["url"] not in delete]
    context = ("The setup writes the profile's History (SQLite, Chromium 156 schema) with %d pages: %s, and opens "
               "Chromium. Ground truth: no urls/visits rows left for %s; the rest kept. Checkpoints: one per "
               "deleted page (0.8 split), others kept (0.2)." % (len(HISTORY), ", ".join(h["url"] for h in HISTORY),
                                                                   ", ".join(delete)))
    add(tid, text, context, difficulty, "chrome_history",
        {"history": HISTORY, "delete": delete, "keep": keep, "open": ["chrome://history/"]}, "History")


def history():
    hist("forget_news", "Delete every page of news.example.test from Chromium's history.", "medium",
         ["https://news.example.test/", "https://news.example.test/world/storm"])
    hist("forget_checkout", "Remove the \"Checkout - Example Shop\" entry from the browsing history.", "easy",
         ["https://shop.example.test/checkout"])
    hist("last_hour", "Clear the browsing history of the last hour in Chromium (keep older history).", "medium",
         ["https://social.example.test/feed", "https://social.example.test/messages"])
    hist("clear_all", "Clear Chromium's entire browsing history.", "medium", [h["url"] for h in HISTORY])
    hist("forget_shop", "Remove all visits to shop.example.test from the history.", "medium",
         ["https://shop.example.test/cart", "https://shop.example.test/checkout"])
    hist("forget_recipe", "Delete the sourdough bread recipe page from Chromium's history.", "easy",
         ["https://recipes.example.test/bread"])


settings()
bookmarks()
history()
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tasks.json")
with open(out + ".tmp", "w", encoding="utf-8") as fh:
    json.dump({"tasks": TASKS}, fh, indent=2, ensure_ascii=False)
    fh.write("\n")
os.replace(out + ".tmp", out)
print("%d tasks -> %s" % (len(TASKS), out))
