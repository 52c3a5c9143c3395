# --- tuplewright scripted prelude: state-API access and a partial-credit rubric (stdlib only) ---
import json
import os
import urllib.parse
import urllib.request

APP_PORTS = {"team-chat": 3101, "mail": 3102, "issue-tracker": 3103, "ecommerce-admin": 3104}  # written from the packs' manifests at render time


def web_sid():
    """The task's web session id (TW_SID, else /tmp/task_web_sid)."""
    value = os.environ.get("TW_SID", "").strip()
    if value:
        return value
    with open("/tmp/task_web_sid", encoding="utf-8") as fh:
        return fh.read().strip()


def app_url(app):
    """Base URL of an app's state API: TW_URL_<APP> override, TW_STATE_URL for the sandbox's own
    app, else http://localhost:<conventional port>."""
    override = os.environ.get("TW_URL_" + app.upper().replace("-", "_"), "").strip()
    if override:
        return override.rstrip("/")
    if os.environ.get("TW_APP") == app and os.environ.get("TW_STATE_URL"):
        return os.environ["TW_STATE_URL"].rstrip("/")
    return "http://localhost:%d" % APP_PORTS[app]


def api_get(app, path):
    url = app_url(app) + path + "?" + urllib.parse.urlencode({"sid": web_sid()})
    with urllib.request.urlopen(url, timeout=30) as resp:
        return json.loads(resp.read().decode("utf-8"))


def api_post(app, action, state):
    url = app_url(app) + "/post?" + urllib.parse.urlencode({"sid": web_sid()})
    body = json.dumps({"action": action, "state": state}).encode("utf-8")
    req = urllib.request.Request(url, data=body, method="POST", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        answer = json.loads(resp.read().decode("utf-8"))
    if not answer.get("success"):
        raise RuntimeError("state API refused %s: %r" % (action, answer))
    return answer


def current_state(app):
    """The app's current snapshot (GET /go)."""
    return api_get(app, "/go")["current_state"]


def records_of(collection):
    """The records of a collection: a list as it is, a map (records keyed by id) as its values."""
    if isinstance(collection, dict):
        return list(collection.values())
    return list(collection or [])


def by_key(items, key, value):
    """The first record of a list or map whose `key` equals `value`, else None."""
    for item in records_of(items):
        if isinstance(item, dict) and item.get(key) == value:
            return item
    return None


def norm(text):
    return " ".join(str(text or "").lower().split())


def fraction(hits, total):
    """hits/total as a float in [0, 1]; an empty check list scores nothing."""
    return min(1.0, hits / total) if total > 0 else 0.0


class Rubric:
    """Weighted partial-credit components printed as COMPONENT/PASS/FAIL lines, then REWARD."""

    def __init__(self):
        self.items = []

    def add(self, name, weight, score, detail=""):
        score = float(score)
        self.items.append((name, float(weight), max(0.0, min(1.0, score)), str(detail)))

    def finish(self):
        total = sum(w * s for _, w, s, _ in self.items)
        for name, weight, score, detail in self.items:
            line = {"name": name, "weight": weight, "score": score, "detail": detail}
            print("COMPONENT: " + json.dumps(line, ensure_ascii=False))
        for name, weight, score, detail in self.items:
            print("%s: %s (%s)" % ("PASS" if score >= 1.0 else "FAIL", name, detail))
        total = round(max(0.0, min(1.0, total)), 6)
        print("Score: %.4f/1.0" % total)
        print("REWARD: %s" % total)


# --- end of prelude ---
