# The desktop packs' shared setup helpers (skills/_common/desktop.py): joined in front of the
# setups (and golden patches) of chrome, code_editor, gimp, pdf, thunderbird and vlc at compile time,
# before the pack's own prelude, so a rendered script is still one self-contained file.
import os
import signal
import subprocess
import time

HOME = "/home/user"


def stop_app(*names, prefix=False):
    """Stops this home's running program(s) named `names` (the process name, or its start with
    `prefix`) and waits up to 5 s for each: an application rewrites its settings files from memory
    when it quits, so it must be gone before a script touches them."""
    for pid in [p for p in os.listdir("/proc") if p.isdigit()]:
        try:
            with open("/proc/%s/comm" % pid, encoding="utf-8") as fh:
                comm = fh.read().strip()
            if not any(comm.startswith(n) if prefix else comm == n for n in names):
                continue
            # Only this home's program: never a process of another home or user.
            with open("/proc/%s/environ" % pid, "rb") as fh:
                env = fh.read().split(b"\0")
            with open("/proc/%s/cmdline" % pid, "rb") as fh:
                cmd = fh.read()
            if b"HOME=/home/user" not in env and b"/home/user/" not in cmd:
                continue
            os.kill(int(pid), signal.SIGTERM)
            for _ in range(50):
                if not os.path.exists("/proc/" + pid):
                    break
                time.sleep(0.1)
        except (OSError, ValueError):
            pass


def write_atomic(path, data):
    """Writes `data` (text or bytes) to `path` through a temporary file and a rename."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tw-tmp"
    if isinstance(data, bytes):
        with open(tmp, "wb") as fh:
            fh.write(data)
    else:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(data)
    os.replace(tmp, path)


def start_app(args):
    """Starts `args` on the environment's screen, the paper's way (DISPLAY=:0, not waited for)."""
    subprocess.Popen(args, env={**os.environ, "DISPLAY": ":0"}, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL, start_new_session=True)
