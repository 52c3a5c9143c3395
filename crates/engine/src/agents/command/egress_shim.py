"""In-sandbox half of the command agents' egress proxy (tuplewright).

Usage: egress_shim.py SOCKET PORT PROGRAM [ARGS...]
Listens on 127.0.0.1:PORT inside the sandbox's private network namespace, forwards every
connection to the host-side HTTP CONNECT proxy at the Unix socket SOCKET (which allows only the
configured hosts), runs PROGRAM, and exits with its status.
"""
import os
import socket
import sys
import threading


def pump(src, dst):
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            dst.sendall(data)
    except OSError:
        pass
    for s in (src, dst):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def serve(srv, path):
    while True:
        conn, _ = srv.accept()
        up = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            up.connect(path)
        except OSError:
            conn.close()
            continue
        threading.Thread(target=pump, args=(conn, up), daemon=True).start()
        threading.Thread(target=pump, args=(up, conn), daemon=True).start()


def main():
    path, port, cmd = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", port))
    srv.listen(64)
    pid = os.fork()
    if pid == 0:
        srv.close()
        try:
            os.execvp(cmd[0], cmd)
        except OSError as e:
            print("tuplewright egress shim: cannot run %s: %s" % (cmd[0], e), file=sys.stderr)
            os._exit(127)
    threading.Thread(target=serve, args=(srv, path), daemon=True).start()
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    sys.exit(code if code >= 0 else 128 - code)


main()
