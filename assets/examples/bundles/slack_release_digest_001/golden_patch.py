import json
import urllib.request

sid = open("/tmp/task_web_sid").read().strip()
digest = "Ana: login bug\nBo: flaky CI\nCy: docs"
merge = {"channels": {"release": {"messages": [{"user": "me", "text": digest}]}}}
body = json.dumps({"action": "merge", "state": merge}).encode()
req = urllib.request.Request(f"http://localhost:8012/post?sid={sid}", data=body, headers={"Content-Type": "application/json"})
urllib.request.urlopen(req).read()
