"""Drives `tuplewright env serve --osworld` with OSWorld's own client classes (PyPI desktop-env):
PythonController for screenshots, commands, Python, files, the screen size, the directory tree and
the accessibility tree, and SetupController for uploads and config steps. Usage:

    osworld_client.py URL WORKDIR

Prints one JSON object of what it observed; exits non-zero at the first failed expectation.

desktop_env/controllers/setup.py imports playwright, pydrive and the evaluators (torch, …) at module
level; none of them is used by the methods called here (upload, execute, open, sleep), so those
modules are replaced by empty stand-ins before the import. PythonController imports only requests.
"""
import json
import os
import sys
import time
import types
from urllib.parse import urlparse


def stub(name, **attrs):
    mod = types.ModuleType(name)
    mod.__dict__.update(attrs)
    sys.modules[name] = mod
    return mod


def unused(*_a, **_k):
    raise RuntimeError("not available in this test")


for name in ["playwright", "pydrive", "desktop_env.evaluators", "desktop_env.evaluators.metrics",
             "desktop_env.providers", "desktop_env.providers.aws"]:
    stub(name)
stub("playwright.sync_api", sync_playwright=unused, TimeoutError=TimeoutError)
stub("pydrive.auth", GoogleAuth=unused)
stub("pydrive.drive", GoogleDrive=unused, GoogleDriveFile=object, GoogleDriveFileList=object)
stub("desktop_env.evaluators.metrics.utils", compare_urls=unused)
stub("desktop_env.providers.aws.proxy_pool", get_global_proxy_pool=unused,
     init_proxy_pool=lambda *_a, **_k: None, ProxyInfo=object)

from desktop_env.controllers.python import PythonController  # noqa: E402
from desktop_env.controllers.setup import SetupController  # noqa: E402


def expect(cond, what, got=None):
    if not cond:
        sys.stderr.write("EXPECTATION FAILED: %s; got %r\n" % (what, got))
        sys.exit(1)


def main():
    url, work = sys.argv[1], sys.argv[2]
    u = urlparse(url)
    c = PythonController(u.hostname, u.port)
    c.retry_interval = 0.2
    seen = {}

    png = c.get_screenshot()
    expect(png is not None and png[:8] == b"\x89PNG\r\n\x1a\n", "a PNG screenshot", png and png[:8])
    seen["screenshot_bytes"] = len(png)
    seen["screen_size"] = c.get_vm_screen_size()

    r = c.execute_python_command("print(pyautogui.size())")
    expect(r and r["returncode"] == 0 and "width=1280" in r["output"], "pyautogui sees the screen", r)
    seen["execute"] = r["output"].strip()

    r = c.run_python_script("import os\nprint(6 * 7, os.getcwd())")
    expect(r["status"] == "success" and r["output"] == "42 /home/user\n", "run_python", r)
    seen["run_python"] = r["output"].strip()

    r = c.run_bash_script("echo bash-$((20 + 1)); echo oops >&2; exit 3", timeout=20)
    expect(r["returncode"] == 3 and r["output"] == "bash-21\noops\n", "run_bash_script", r)

    # Upload with SetupController (multipart file_path + file_data), read back with get_file.
    local = os.path.join(work, "upload.bin")
    payload = bytes(range(256)) * 40 + "Grüße\n".encode()
    with open(local, "wb") as f:
        f.write(payload)
    s = SetupController(u.hostname, u.port, cache_dir=work, screen_width=1280, screen_height=800)
    s._upload_file_setup([{"local_path": local, "path": "/home/user/Desktop/in/upload.bin"}])
    back = c.get_file("/home/user/Desktop/in/upload.bin")
    expect(back == payload, "the uploaded bytes read back", back and len(back))
    seen["uploaded_bytes"] = len(back)
    c.retry_times = 1
    expect(c.get_file("/home/user/nope.txt") is None, "a missing file is None")

    # Config steps through SetupController.setup (execute, sleep, open).
    ok = s.setup([
        {"type": "execute", "parameters": {"command": ["sh", "-c", "echo from-setup > ~/Desktop/setup.txt"]}},
        {"type": "sleep", "parameters": {"seconds": 0.1}},
        {"type": "open", "parameters": {"path": "/home/user/Desktop/setup.txt"}},
    ])
    expect(ok is True, "SetupController.setup")
    expect(c.get_file("/home/user/Desktop/setup.txt") == b"from-setup\n", "the execute step ran")
    tree = c.get_accessibility_tree()
    expect(tree and "setup.txt" in tree, "the opened file's window in /accessibility", tree)
    listing = c.get_vm_directory_tree("/home/user/Desktop")
    names = [ch["name"] for ch in listing["children"]]
    expect("setup.txt" in names and "in" in names, "list_directory", names)

    # A pyautogui click that changes the desktop: focus the terminal (bottom half), type into it.
    terminal = [l for l in tree.splitlines() if 'name="Terminal"' in l]
    expect(terminal, "the terminal in the accessibility tree", tree)
    c.execute_python_command(
        "pyautogui.click(640, 620); time.sleep(0.5); "
        "pyautogui.write('echo clicked > ~/Desktop/clicked.txt', interval=0.01); "
        "pyautogui.press('enter')")
    c.retry_times = 1
    got = None
    deadline = time.time() + 60
    while time.time() < deadline:
        got = c.get_file("/home/user/Desktop/clicked.txt")
        if got == b"clicked\n":
            break
        time.sleep(0.5)
    expect(got == b"clicked\n", "the click focused the terminal and the typed command ran", got)
    seen["clicked"] = True
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
