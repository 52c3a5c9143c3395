"""tuplewright: route the addresses public scripts hard-code to this environment's apps.

Imported by every Python started in the sandbox (it sits on PYTHONPATH). Active only when
TW_NETMAP is set: "host:port=local;..." where host may be "*" (any host) and port a range "lo-hi".
Name resolution (socket.getaddrinfo, which requests, urllib3, urllib and http.client all use) of a
mapped (host, port) answers 127.0.0.1:<local>, where the bootstrap relays to tuplewright's
forwarder; TLS to a Hub host is answered there with a certificate signed by the run's CA
(SSL_CERT_FILE / REQUESTS_CA_BUNDLE). The URL, the Host header and the TLS server name stay those
the script wrote. Standard library only.
"""
import os

_SPEC = os.environ.get("TW_NETMAP", "")


def _install(spec):
    import socket

    exact = {}
    ranges = []
    for item in spec.split(";"):
        key, _, local = item.rpartition("=")
        host, _, ports = key.rpartition(":")
        lo, _, hi = ports.partition("-")
        try:
            lo_p, hi_p, local_p = int(lo), int(hi or lo), int(local)
        except ValueError:
            continue
        if lo_p == hi_p:
            exact[(host.lower(), lo_p)] = local_p
        else:
            ranges.append((host.lower(), lo_p, hi_p, local_p))
    default_ports = {"http": 80, "https": 443}
    original = socket.getaddrinfo

    def local_port(host, port):
        if isinstance(host, bytes):
            host = host.decode("ascii", "replace")
        h = (host or "").lower().rstrip(".")
        if isinstance(port, bytes):
            port = port.decode("ascii", "replace")
        if isinstance(port, str) and not port.isdigit():
            p = default_ports.get(port)
        else:
            try:
                p = int(port)
            except (TypeError, ValueError):
                return None
        for key in ((h, p), ("*", p)):
            if key in exact:
                return exact[key]
        for rh, lo_p, hi_p, local_p in ranges:
            if rh in (h, "*") and lo_p <= (p or 0) <= hi_p:
                return local_p
        return None

    def getaddrinfo(host, port, family=0, type=0, proto=0, flags=0):
        local = local_port(host, port)
        if local is None:
            return original(host, port, family, type, proto, flags)
        return original("127.0.0.1", local, socket.AF_INET, type, proto, flags)

    socket.getaddrinfo = getaddrinfo


if _SPEC:
    _install(_SPEC)
