"""tuplewright sandbox bootstrap: runs inside the sandbox, before the agent-written script.

1. If TW_FORWARD_PORT and TW_FORWARD_SOCKET are set, listen on 127.0.0.1:<port> and relay every
   connection byte for byte to the Unix socket, where tuplewright's host-side forwarder enforces the
   role and the session id. The relay is a dumb pipe: tampering with it gains nothing.
2. Run the script as ``__main__`` (argv[1]) in this same interpreter, so no extra process start-up
   (imports are kept lazy: this file sits on the start-up path of every sandboxed run).
3. If the script dies of an exception that means a resource limit was hit, print one line
   ``tuplewright-sandbox: limit exceeded: <kind>`` on stderr after the traceback.
4. Before the interpreter ends (and with it, as the namespace's pid 1, every process left), let
   the GUI launch stubs the script started (``subprocess.Popen(["libreoffice", ...])`` as its
   last line) finish recording their launch: bounded, and only while one still runs. Without
   this a setup's last launch was lost now and then, and its application opened on no document.

Standard library only.
"""
import os
import sys

LIMIT_MARKER = "tuplewright-sandbox: limit exceeded: "


def _relay(listener, sock_path):
    # C-level modules only (_socket, select, _thread): importing socket/selectors/threading costs
    # several milliseconds on every run.
    import _socket
    import select

    poll = select.poll()
    poll.register(listener.fileno(), select.POLLIN)
    socks = {listener.fileno(): listener}
    peer = {}
    eof = set()

    def close(fd):
        for f in (fd, peer.get(fd)):
            if f is None or f not in socks:
                continue
            try:
                poll.unregister(f)
            except (KeyError, ValueError):
                pass
            socks.pop(f).close()
            peer.pop(f, None)
            eof.discard(f)

    while True:
        for fd, _ev in poll.poll():
            s = socks.get(fd)
            if s is None:
                continue
            if s is listener:
                try:
                    cfd, _ = listener._accept()
                except OSError:
                    continue
                client = _socket.socket(fileno=cfd)
                up = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
                try:
                    up.connect(sock_path)
                except OSError:
                    client.close()
                    up.close()
                    continue
                for a, b in ((client, up), (up, client)):
                    socks[a.fileno()] = a
                    peer[a.fileno()] = b.fileno()
                    poll.register(a.fileno(), select.POLLIN)
                continue
            other = socks.get(peer.get(fd, -1))
            try:
                data = s.recv(65536)
            except OSError:
                data = b""
            if other is None:
                close(fd)
                continue
            if not data:
                poll.unregister(fd)
                eof.add(fd)
                try:
                    other.shutdown(_socket.SHUT_WR)
                except OSError:
                    pass
                if other.fileno() in eof:
                    close(fd)
                continue
            try:
                other.settimeout(30)
                other.sendall(data)
            except OSError:
                close(fd)


def _start_relay():
    """Start one relay per state API: the primary one (TW_FORWARD_PORT/TW_FORWARD_SOCKET) and the
    extra ones of a cross-app task (TW_FORWARD_EXTRA = "port=socket,port=socket")."""
    pairs = []
    port = os.environ.pop("TW_FORWARD_PORT", "")
    sock_path = os.environ.pop("TW_FORWARD_SOCKET", "")
    if port and sock_path:
        pairs.append((port, sock_path))
    for item in os.environ.pop("TW_FORWARD_EXTRA", "").split(","):
        if "=" in item:
            p, s = item.split("=", 1)
            pairs.append((p, s))
    if not pairs:
        return
    import _socket
    import _thread

    for port, sock_path in pairs:
        listener = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
        listener.setsockopt(_socket.SOL_SOCKET, _socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", int(port)))
        listener.listen(128)
        _thread.start_new_thread(_relay, (listener, sock_path))


def _limit_kind(exc):
    import errno

    if isinstance(exc, MemoryError):
        return "memory"
    if isinstance(exc, OSError):
        if exc.errno == errno.EFBIG:
            return "file_size"
        if exc.errno in (errno.EMFILE, errno.ENFILE):
            return "open_files"
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            return "disk_space"
        if exc.errno == errno.EAGAIN and not isinstance(exc, TimeoutError):
            return "processes"
    if isinstance(exc, RuntimeError) and "can't start new thread" in str(exc):
        return "processes"
    return None


def _on_cpu_limit(signum, _frame):
    # The script runs as its namespace's pid 1, which ignores signals it has no handler for; so
    # catch SIGXCPU (the soft CPU limit) and die the way an unhandled SIGXCPU would.
    os.write(2, (LIMIT_MARKER + "cpu\n").encode())
    os._exit(128 + signum)


GUI_STUBS = b"/tmp/.tw/bin/"


def _await_gui_stubs(limit=2.0):
    # Only as the namespace's init: then /proc lists this run's processes alone.
    if os.getpid() != 1:
        return
    import time

    end = time.monotonic() + limit
    while time.monotonic() < end and any(_is_stub(e) for e in os.listdir("/proc")):
        time.sleep(0.005)


def _is_stub(entry):
    """Whether /proc/<entry> is a GUI launch stub still running: `/bin/sh /tmp/.tw/bin/<program>
    ...` until it exits (or execs the screen's program, whose command line is then its own), or
    a process with no command line yet that is no zombie (one being started)."""
    if not entry.isdigit() or entry == "1":
        return False
    try:
        with open("/proc/%s/stat" % entry, "rb") as fh:
            state = fh.read().rsplit(b")", 1)[1].split()[0]
        with open("/proc/%s/cmdline" % entry, "rb") as fh:
            args = fh.read().split(b"\0")
    except (OSError, IndexError):
        return False
    if state == b"Z":
        return False
    return args == [b""] or (len(args) > 1 and args[1].startswith(GUI_STUBS))


def main():
    if len(sys.argv) < 2:
        print("usage: tw_boot.py SCRIPT [ARGS...]", file=sys.stderr)
        sys.exit(2)
    import _signal

    _signal.signal(_signal.SIGXCPU, _on_cpu_limit)
    _start_relay()
    script = sys.argv[1]
    sys.argv = sys.argv[1:]
    sys.path[0] = os.path.dirname(os.path.abspath(script))
    main_pid = os.getpid()
    try:
        _run(script, main_pid)
    finally:
        if os.getpid() == main_pid:
            _await_gui_stubs()


def _run(script, main_pid):
    try:
        with open(script, "rb") as fh:
            source = fh.read()
        code = compile(source, script, "exec")
        module = type(sys)("__main__")
        module.__file__ = script
        module.__builtins__ = __builtins__
        sys.modules["__main__"] = module
        exec(code, module.__dict__)
    except SystemExit:
        raise
    except BaseException as exc:  # noqa: BLE001 - report like the interpreter would
        try:
            import traceback

            traceback.print_exc()
            kind = _limit_kind(exc)
            if kind and os.getpid() == main_pid:
                sys.stderr.write(LIMIT_MARKER + kind + "\n")
            sys.stderr.flush()
        finally:
            if os.getpid() != main_pid:
                os._exit(1)
        sys.exit(1)


if __name__ == "__main__":
    main()
