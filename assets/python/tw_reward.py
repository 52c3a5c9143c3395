"""Helpers for reward scripts run by tuplewright (standard library only).

Import it inside the sandbox (it is on PYTHONPATH)::

    import tw_reward as tw
    state = tw.go()                         # GET /go for this environment's session
    r = tw.Rubric()
    r.add("title renamed", 0.6, state["current_state"].get("title") == "Q3 plan", "title check")
    r.add("owner kept", 0.4, 1.0 if ... else 0.0)
    r.finish()                              # prints COMPONENT, PASS/FAIL, Score and the final REWARD line

Protocol (what tuplewright parses): ``COMPONENT: {"name","weight","score","detail"}`` lines give the
breakdown; the LAST stdout line must be ``REWARD: <float in [0,1]>``. A missing or malformed REWARD line
is a reward error, never a zero score.
"""
import json
import math
import os
import urllib.parse
import urllib.request

SID_FILE = "/tmp/task_web_sid"


def sid():
    """The environment's session id (TW_SID, else /tmp/task_web_sid)."""
    value = os.environ.get("TW_SID", "").strip()
    if value:
        return value
    with open(SID_FILE, encoding="utf-8") as fh:
        return fh.read().strip()


def state_url():
    """Base URL of this environment's state API (no trailing slash)."""
    return os.environ.get("TW_STATE_URL", "http://localhost:8000").rstrip("/")


def get_json(path, timeout=30, **params):
    """GET <state_url><path>?sid=<sid>&params and decode the JSON answer."""
    query = {"sid": sid()}
    query.update(params)
    url = state_url() + path + "?" + urllib.parse.urlencode(query)
    with urllib.request.urlopen(url, timeout=timeout) as resp:
        return json.loads(resp.read().decode("utf-8"))


def go():
    """GET /go: {"initial_state", "current_state", "state_diff", "changes"}."""
    return get_json("/go")


def state():
    """GET /state: {"stored_state", "has_custom_state", "sid"}."""
    return get_json("/state")


def _check_unit(value, what):
    value = float(value)
    if math.isnan(value) or value < 0.0 or value > 1.0:
        raise ValueError(f"{what} must be a number in [0, 1], got {value!r}")
    return value


def component(name, weight, score, detail=""):
    """Print one ``COMPONENT: {json}`` line (score and weight in [0, 1])."""
    line = {
        "name": str(name),
        "weight": _check_unit(weight, "weight"),
        "score": _check_unit(score, "score"),
        "detail": str(detail),
    }
    print("COMPONENT: " + json.dumps(line, ensure_ascii=False), flush=True)


def reward(value):
    """Print the final ``REWARD: <float>`` line; call it last."""
    print(f"REWARD: {_check_unit(value, 'reward')!r}", flush=True)


class Rubric:
    """Weighted partial-credit components; ``finish()`` prints them and the final REWARD line."""

    def __init__(self):
        self.items = []

    def add(self, name, weight, score, detail=""):
        """Add a component; ``score`` may be a bool (pass/fail) or a number in [0, 1]."""
        if isinstance(score, bool):
            score = 1.0 if score else 0.0
        self.items.append((str(name), _check_unit(weight, "weight"), _check_unit(score, "score"), str(detail)))
        return score

    def total(self):
        """Weighted sum of the component scores, clamped to [0, 1]."""
        value = sum(w * s for _, w, s, _ in self.items)
        return min(1.0, max(0.0, value))

    def finish(self):
        """Print COMPONENT and PASS/FAIL lines, ``Score: x/1.0`` and ``REWARD: x``; return the total."""
        for name, weight, score, detail in self.items:
            component(name, weight, score, detail)
        for name, _weight, score, detail in self.items:
            tag = "PASS" if score >= 1.0 else "FAIL"
            print(f"{tag}: {name}" + (f" ({detail})" if detail else ""), flush=True)
        total = self.total()
        print(f"Score: {total:.4f}/1.0", flush=True)
        reward(total)
        return total
