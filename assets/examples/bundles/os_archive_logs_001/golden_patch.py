import glob
import os
import tarfile

logs = sorted(glob.glob("/home/user/logs/*.log"))
with tarfile.open("/home/user/logs.tar.gz", "w:gz") as tar:
    for path in logs:
        tar.add(path, arcname=os.path.basename(path))
for path in logs:
    os.remove(path)
