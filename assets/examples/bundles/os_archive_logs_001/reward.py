import os
import tarfile

score = 0.0
archive = "/home/user/logs.tar.gz"
names = []
if os.path.exists(archive):
    with tarfile.open(archive) as tar:
        names = sorted(os.path.basename(n) for n in tar.getnames())
ok = names == ["app.log", "db.log", "worker.log"]
print(("PASS" if ok else "FAIL") + ": archive holds the three logs (0.6)")
score += 0.6 if ok else 0.0
left = [n for n in os.listdir("/home/user/logs") if n.endswith(".log")]
gone = ok and not left
print(("PASS" if gone else "FAIL") + ": originals deleted (0.4)")
score += 0.4 if gone else 0.0
print(f"Score: {score:.2f}/1.0")
print(f"REWARD: {score:.2f}")
