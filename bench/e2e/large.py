"""Large-value cases: small GETs' latency while another client reads 10 MiB values (does one
big reply stall the others?), the server memory 100 clients' unread 1 MiB replies cost
(copied into buffers, or held by reference), and large GETs from a reader that costs less than
the server (so the rate is the server's, not redis-benchmark's). Each function returns rows like
cases.py's."""

import json
import socket
import subprocess
import threading
import time

import resp
from cases import row
from servers import pin

MIB = 1 << 20


def _read_bulk(sock, buf):
    """Reads one bulk reply into the bytearray buf (grown as needed); returns its length."""
    header = b""
    while not header.endswith(b"\r\n"):
        c = sock.recv(1)
        if not c:
            raise ConnectionError("connection closed by the server")
        header += c
    if not header.startswith(b"$"):
        raise RuntimeError("not a bulk reply: %r" % header[:40])
    n = int(header[1:-2]) + 2
    if len(buf) < n:
        buf.extend(bytes(n - len(buf)))
    view, got = memoryview(buf), 0
    while got < n:
        k = sock.recv_into(view[got:n])
        if not k:
            raise ConnectionError("connection closed by the server")
        got += k
    return n - 2


def mixed_load(tools, server, log, duration=5.0, rate=20000, big_rate=10, big=10 * MIB):
    """1 KiB GETs at a fixed rate over 50 connections (plinth-loadgen) while one more
    connection GETs a 10 MiB value big_rate times a second: the small GETs' latency."""
    resp.load_keys(server.port, 0, 1, b"m" * big, key_format="mixbig:%d", batch=1)
    stop, done, failure = threading.Event(), [0], []

    def big_reader():
        try:
            with socket.create_connection(("127.0.0.1", server.port)) as s:
                buf, request = bytearray(), resp.encode("GET", "mixbig:0")
                next_at = time.monotonic()
                while not stop.is_set():
                    s.sendall(request)
                    if _read_bulk(s, buf) != big:
                        raise RuntimeError("short big reply")
                    done[0] += 1
                    next_at += 1.0 / big_rate
                    time.sleep(max(0.0, next_at - time.monotonic()))
        except Exception as e:  # reported after the run
            failure.append(e)

    reader = threading.Thread(target=big_reader, daemon=True)
    reader.start()
    argv = pin(tools.client_cpu, [tools.loadgen, "--port", str(server.port), "--rate", str(rate),
                                  "--conns", "50", "--duration", str(duration), "--warmup", "1",
                                  "--keys", "1000", "--preload", "1024", "--server-pid",
                                  str(server.pid)])
    log.write("$ %s\n" % " ".join(argv))
    t0 = time.monotonic()
    out = subprocess.run(argv, capture_output=True, text=True, timeout=tools.case_timeout)
    elapsed = time.monotonic() - t0
    stop.set()
    reader.join(timeout=30)
    log.write(out.stdout + out.stderr)
    if out.returncode != 0:
        raise RuntimeError("plinth-loadgen failed: %s" % out.stderr.strip())
    if failure:
        raise RuntimeError("the 10 MiB reader failed: %s" % failure[0])
    r = json.loads(out.stdout)
    name = "GET 1KiB %dk/s + GET 10MiB %d/s" % (rate // 1000, big_rate)
    return [row(name, "p50 latency", "us", "lower", r["p50_us"]),
            row(name, "p99 latency", "us", "lower", r["p99_us"]),
            row(name, "p99.9 latency", "us", "lower", r["p999_us"]),
            row(name, "max latency", "us", "lower", r["max_us"]),
            row(name, "rate held", "1 = within 2%", "higher", 1.0 if r["held"] else 0.0),
            row(name, "10MiB replies", "per s", "higher", done[0] / elapsed),
            row(name, "server CPU", "% of a core", "lower", r["server_cpu_pct"])]


def pending_memory(server, clients=100, size=MIB):
    """Server RSS growth while clients clients each have one unread size-byte GET reply (a
    4 KiB receive buffer keeps the reply in the server, not in the kernel)."""
    resp.load_keys(server.port, 0, 1, b"p" * size, key_format="pending:%d", batch=1)
    time.sleep(0.3)
    before = server.rss_bytes()
    socks = []
    try:
        for _ in range(clients):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.connect(("127.0.0.1", server.port))
            s.sendall(resp.encode("GET", "pending:0"))
            socks.append(s)
        time.sleep(1.0)
        after = server.rss_bytes()
    finally:
        for s in socks:
            s.close()
    name = "%d clients x 1MiB reply unread" % clients
    return [row(name, "reply memory", "MiB", "lower", (after - before) / MIB)]


# (label, value bytes, keys): the large GETs of the throughput phase, read by plinth-loadgen.
SATURATE = (("64KiB", 64 << 10, 1000), ("1MiB", MIB, 100))


def saturate(tools, server, log, duration=5.0, conns=10):
    """GETs of 64 KiB and 1 MiB values over conns connections, each with one request
    outstanding, by two readers: one that copies every payload byte into a buffer (what a
    client does) and one that drops payloads in the kernel (recv MSG_TRUNC), whose rate is
    bounded by the server alone. Rows: the rate and the server's CPU per request."""
    rows = []
    for label, size, keys in SATURATE:
        for reader, flags in (("copying reader", []), ("discarding reader", ["--discard"])):
            argv = pin(tools.client_cpu, [
                tools.loadgen, "--port", str(server.port), "--closed", "1", "--conns",
                str(conns), "--duration", str(duration), "--warmup", "1", "--keys", str(keys),
                "--preload", str(size), "--server-pid", str(server.pid)] + flags)
            log.write("$ %s\n" % " ".join(argv))
            out = subprocess.run(argv, capture_output=True, text=True,
                                 timeout=tools.case_timeout)
            log.write(out.stdout + out.stderr)
            if out.returncode != 0:
                raise RuntimeError("plinth-loadgen failed: %s" % out.stderr.strip())
            r = json.loads(out.stdout)
            if r["errors"]:
                raise RuntimeError("%d error replies to GET %s" % (r["errors"], label))
            name = "GET %s, %s" % (label, reader)
            rows.append(row(name, "throughput", "req/s", "higher", r["reply_rate"]))
            if r["server_cpu_pct"] >= 0 and r["reply_rate"] > 0:
                per_req = r["server_cpu_pct"] / 100.0 / r["reply_rate"] * 1e6
                rows.append(row(name, "server CPU per request", "us", "lower", per_req))
    return rows
