import os

os.makedirs("/home/user/logs", exist_ok=True)
for name in ["app.log", "db.log", "worker.log"]:
    with open(os.path.join("/home/user/logs", name), "w") as f:
        f.write(name + " line\n" * 20)
with open("/home/user/logs/README.txt", "w") as f:
    f.write("keep me\n")
