"""tuplewright sandbox bootstrap: runs inside the sandbox, before the agent-written script.

1. If TW_FORWARD_PORT and TW_FORWARD_SOCKET are set, listen on 127.0.0.1:<port> and relay every
   connection byte for byte to the Unix socket, where tuplewright's host-side forwarder enforces the
   role and the session id. The relay is a dumb pipe: tampering with it gains nothing.
2. Run the script as ``__main__`` (argv[1]) in this same interpreter, so no extra process start-up.
3. If the script dies of an exception that means a resource limit was hit, print one line
   ``tuplewright-sandbox: limit exceeded: <kind>`` on stderr after the traceback.

Standard library only.
"""
import errno
import os
import runpy
import selectors
import socket
import sys
import threading
import traceback

LIMIT_MARKER = "tuplewright-sandbox: limit exceeded: "


def _close_pair(sel, peers, sock):
    other = peers.pop(sock, None)
    for s in (sock, other):
        if s is None:
            continue
        peers.pop(s, None)
        try:
            sel.unregister(s)
        except (KeyError, ValueError):
            pass
        s.close()


def _relay(listener, sock_path):
    sel = selectors.DefaultSelector()
    sel.register(listener, selectors.EVENT_READ)
    peers = {}
    half_closed = set()
    while True:
        for key, _ in sel.select():
            s = key.fileobj
            if s is listener:
                try:
                    client, _ = listener.accept()
                except OSError:
                    continue
                upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                try:
                    upstream.connect(sock_path)
                except OSError:
                    client.close()
                    upstream.close()
                    continue
                peers[client] = upstream
                peers[upstream] = client
                sel.register(client, selectors.EVENT_READ)
                sel.register(upstream, selectors.EVENT_READ)
                continue
            other = peers.get(s)
            if other is None:
                continue
            try:
                data = s.recv(65536)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if not data:
                sel.unregister(s)
                half_closed.add(s)
                try:
                    other.shutdown(socket.SHUT_WR)
                except OSError:
                    pass
                if other in half_closed:
                    half_closed.discard(s)
                    half_closed.discard(other)
                    _close_pair(sel, peers, s)
                continue
            try:
                other.settimeout(30)
                other.sendall(data)
            except OSError:
                half_closed.discard(s)
                half_closed.discard(other)
                _close_pair(sel, peers, s)


def _start_relay():
    port = os.environ.pop("TW_FORWARD_PORT", "")
    sock_path = os.environ.pop("TW_FORWARD_SOCKET", "")
    if not port or not sock_path:
        return
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", int(port)))
    listener.listen(128)
    threading.Thread(target=_relay, args=(listener, sock_path), daemon=True).start()


def _limit_kind(exc):
    if isinstance(exc, MemoryError):
        return "memory"
    if isinstance(exc, OSError):
        if exc.errno == errno.EFBIG:
            return "file_size"
        if exc.errno in (errno.EMFILE, errno.ENFILE):
            return "open_files"
        if exc.errno == errno.EAGAIN and not isinstance(exc, (socket.timeout,)):
            return "processes"
    if isinstance(exc, RuntimeError) and "can't start new thread" in str(exc):
        return "processes"
    return None


def main():
    if len(sys.argv) < 2:
        print("usage: tw_boot.py SCRIPT [ARGS...]", file=sys.stderr)
        sys.exit(2)
    _start_relay()
    script = sys.argv[1]
    sys.argv = sys.argv[1:]
    sys.path[0] = os.path.dirname(os.path.abspath(script))
    main_pid = os.getpid()
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit:
        raise
    except BaseException as exc:  # noqa: BLE001 - report like the interpreter would
        try:
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
