import json
import urllib.request

sid = open("/tmp/task_web_sid").read().strip()
state = {"channels": {"release": {"pinned": ["Blockers: Ana - login bug; Bo - flaky CI; Cy - docs"], "messages": []}}}
body = json.dumps({"action": "set", "state": state}).encode()
req = urllib.request.Request(f"http://localhost:8012/post?sid={sid}", data=body, headers={"Content-Type": "application/json"})
urllib.request.urlopen(req).read()
