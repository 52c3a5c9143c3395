import json
import urllib.request

sid = open("/tmp/task_web_sid").read().strip()
diff = json.loads(urllib.request.urlopen(f"http://localhost:8012/go?sid={sid}").read())["state_diff"]
new = [v["new"] for k, v in diff.items() if k.startswith("channels.release.messages")]
texts = [m.get("text", "") for m in new if isinstance(m, dict)]
score = 0.0
posted = bool(texts)
print(("PASS" if posted else "FAIL") + ": a new message in #release (0.3)")
score += 0.3 if posted else 0.0
lines = texts[-1].splitlines() if posted else []
three = len(lines) == 3
print(("PASS" if three else "FAIL") + ": three lines (0.3)")
score += 0.3 if three else 0.0
owners = three and [l.split(":")[0].strip() for l in lines] == ["Ana", "Bo", "Cy"]
print(("PASS" if owners else "FAIL") + ": owners as prefixes (0.4)")
score += 0.4 if owners else 0.0
print(f"Score: {score:.2f}/1.0")
print(f"REWARD: {score:.2f}")
