#!/usr/bin/python3
"""A state-API test client using only the Python standard library.

Usage: state_api_client.py BASE_URL
Exercises the whole contract of `tuplewright env serve --app team-chat` the way reward and
setup scripts do (urllib + json), and prints one `ok <check>` line per check, then `ALL OK`.
Exits non-zero at the first failed check.
"""
import json
import sys
import urllib.error
import urllib.request
import uuid

BASE = sys.argv[1].rstrip("/")
CHECKS = 0


def request(method, path, body=None, headers=None, raw=None):
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    req = urllib.request.Request(BASE + path, data=data, method=method, headers=headers or {})
    if body is not None and raw is None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, resp.headers, resp.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers, err.read()


def jreq(method, path, body=None, headers=None, raw=None):
    status, hdrs, data = request(method, path, body, headers, raw)
    try:
        return status, json.loads(data)
    except ValueError:
        raise AssertionError(f"{method} {path}: non-JSON body {data[:200]!r}")


def check(name, cond, detail=""):
    global CHECKS
    if not cond:
        print(f"FAIL {name} {detail}")
        sys.exit(1)
    CHECKS += 1
    print(f"ok {name}")


def expect_error(name, result, status, code):
    got_status, body = result
    check(name, got_status == status and body.get("error") == code and body.get("detail"),
          f"got {got_status} {body}")


def multipart(files):
    boundary = "----pyclient" + uuid.uuid4().hex
    out = b""
    for field, name, ctype, data in files:
        out += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{name}\"\r\n"
                f"Content-Type: {ctype}\r\n\r\n").encode() + data + b"\r\n"
    out += f"--{boundary}--\r\n".encode()
    return {"Content-Type": f"multipart/form-data; boundary={boundary}"}, out


def main():
    sid = "py-" + uuid.uuid4().hex[:12]
    status, health = jreq("GET", "/health")
    check("health", status == 200 and health["ok"] is True and health["app"] == "team-chat", health)

    status, st = jreq("GET", f"/state?sid={sid}")
    seed = st["stored_state"]
    check("fresh session has defaults", status == 200 and st["has_custom_state"] is False and len(seed["users"]) >= 10)

    # initial_setup.py pattern: set a partial state; defaults fill the rest.
    status, r = jreq("POST", f"/post?sid={sid}", {"action": "set", "state": {"currentUser": "U02"}},
                     {"X-Tuplewright-Role": "setup"})
    check("set", status == 200 and r["success"] is True and r["sid"] == sid and len(r["state_id"]) == 32, r)
    status, go = jreq("GET", f"/go?sid={sid}")
    check("go after set", go["state_diff"] == {} and go["changes"] == [] and go["initial_state"]["currentUser"] == "U02"
          and go["initial_state"]["channels"] == seed["channels"])

    # golden_patch.py pattern: merge a posted message and a rename.
    msgs = go["current_state"]["messages"]["C01"] + [{
        "id": "Mpy1", "userId": "U02", "text": "Standup moved to 10:30", "ts": "9999.000001", "threadTs": None,
        "replyCount": 0, "edited": False, "reactions": [], "attachments": []}]
    status, r = jreq("POST", f"/post?sid={sid}", {"action": "merge", "state": {
        "messages": {"C01": msgs}, "workspace": {"name": "Northwind Labs"}}}, {"X-Tuplewright-Role": "golden"})
    check("merge as golden", status == 200, r)
    status, go = jreq("GET", f"/go?sid={sid}", headers={"X-Tuplewright-Role": "reader"})
    diff = go["state_diff"]
    check("diff flat paths", set(diff) == {"messages.C01", "workspace.name"}, sorted(diff))
    check("diff old/new", diff["workspace.name"] == {"old": "Northwind", "new": "Northwind Labs"})
    check("array reported whole", len(diff["messages.C01"]["new"]) == len(diff["messages.C01"]["old"]) + 1)
    added = [c for c in go["changes"] if c["op"] == "added"]
    check("changes names the added message", len(added) == 1 and added[0]["key"] == "Mpy1" and added[0]["path"] == "messages.C01")

    # Reward pattern: partial credit from /go.
    score = 0.0
    if any(m["text"] == "Standup moved to 10:30" for m in diff["messages.C01"]["new"]):
        score += 0.6
    if diff.get("workspace.name", {}).get("new") == "Northwind Labs":
        score += 0.4
    check("reward pattern scores 1.0", abs(score - 1.0) < 1e-9, score)

    # lastViewedAt is volatile.
    chans = go["current_state"]["channels"]
    chans[0]["lastViewedAt"] = "2031-01-01T00:00:00Z"
    jreq("POST", f"/post?sid={sid}", {"action": "merge", "state": {"channels": chans}})
    status, go = jreq("GET", f"/go?sid={sid}")
    check("lastViewedAt masked", "channels" not in go["state_diff"], sorted(go["state_diff"]))

    # set_current replaces; removals flagged.
    cur = go["current_state"]
    del cur["dms"]
    jreq("POST", f"/post?sid={sid}", {"action": "set_current", "state": cur})
    status, go = jreq("GET", f"/go?sid={sid}")
    check("removed flag", go["state_diff"]["dms"]["removed"] is True and go["state_diff"]["dms"]["new"] is None)

    # Uploads.
    hdrs, body = multipart([("file", "../../etc/passwd", "text/plain", b"not really"),
                            ("file", "q1 report.csv", "text/csv", b"a,b\n1,2\n")])
    status, up = jreq("POST", f"/upload?sid={sid}", raw=body, headers=hdrs)
    check("upload", status == 200 and up["success"] is True and len(up["files"]) == 2, up)
    f0, f1 = up["files"]
    check("stored name is safe", "/" not in f0["stored_name"] and not f0["stored_name"].startswith(".")
          and f0["original_name"] == "../../etc/passwd")
    status, _, data = request("GET", f1["url"])
    check("upload served back", status == 200 and data == b"a,b\n1,2\n" and f1["size"] == 8 and f1["content_type"] == "text/csv")

    # Roles: a role header sent by a network client is ignored (issue #35); only the sandbox's
    # forwarder, which adds the server process's own secret, acts in a role. So a client claiming
    # to be a reader or the golden side is not refused, and the server counts each header it
    # dropped. A session of its own, so the writes below leave the one above as it was.
    rsid = sid + "-roles"
    status, _ = jreq("POST", f"/post?sid={rsid}", {"action": "set", "state": {}}, {"X-Tuplewright-Role": "reader"})
    check("a client's reader role is ignored", status == 200)
    status, _ = jreq("POST", f"/post?sid={rsid}", {"action": "reset"}, {"X-Tuplewright-Role": "golden"})
    check("a client's golden role is ignored", status == 200)
    status, health = jreq("GET", "/health")
    check("dropped role headers counted", health["access"]["ignored_role_headers"] >= 2, health)

    # Errors.
    expect_error("missing sid", jreq("GET", "/go"), 400, "missing_sid")
    expect_error("bad sid", jreq("GET", "/go?sid=../x"), 400, "invalid_sid")
    expect_error("malformed json", jreq("POST", f"/post?sid={sid}", raw=b"{nope", headers={"Content-Type": "application/json"}),
                 400, "malformed_json")
    expect_error("unknown action", jreq("POST", f"/post?sid={sid}", {"action": "explode", "state": {}}), 400, "unknown_action")
    expect_error("state not object", jreq("POST", f"/post?sid={sid}", {"action": "set", "state": [1, 2]}), 400, "state_not_object")
    big = json.dumps({"action": "set", "state": {"blob": "x" * (17 * 1024 * 1024)}}).encode()
    expect_error("body over 16 MiB", jreq("POST", f"/post?sid={sid}", raw=big, headers={"Content-Type": "application/json"}),
                 413, "payload_too_large")
    expect_error("unknown path", jreq("GET", "/nothing-here"), 404, "not_found")

    # Reset, then delete.
    status, r = jreq("POST", f"/post?sid={sid}", {"action": "reset"})
    status, st = jreq("GET", f"/state?sid={sid}")
    check("reset restores defaults", st["has_custom_state"] is False and st["stored_state"] == seed)
    status, _, _ = request("GET", f1["url"])
    check("reset deletes uploads", status == 404)
    jreq("POST", f"/post?sid={sid}", {"action": "set", "state": {"currentUser": "U09"}})
    status, r = jreq("DELETE", f"/session?sid={sid}")
    check("delete session", status == 200 and r["existed"] is True, r)
    status, st = jreq("GET", f"/state?sid={sid}")
    check("deleted session reads defaults", st["has_custom_state"] is False)

    # Isolation between sessions.
    other = sid + "-b"
    jreq("POST", f"/post?sid={other}", {"action": "set", "state": {"currentUser": "U07"}})
    status, st = jreq("GET", f"/state?sid={sid}")
    check("sessions are isolated", st["stored_state"]["currentUser"] == seed["currentUser"])
    print(f"ALL OK ({CHECKS} checks)")


if __name__ == "__main__":
    main()
