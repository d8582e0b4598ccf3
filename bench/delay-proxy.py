#!/usr/bin/env python3
"""An out-of-process TCP delay proxy, independent of wg1bench's --rtt line, to validate it.

    bench/delay-proxy.py LISTEN_PORT UPSTREAM_HOST:UPSTREAM_PORT RTT_MS

Each connection accepted on 127.0.0.1:LISTEN_PORT is joined to a new connection to the upstream.
Each direction has a reader thread and a writer thread: the reader stamps every chunk it receives
with its deadline (the instant it arrived plus the one-way delay, RTT_MS / 2) and queues it; the
writer forwards chunks in order once their deadline has passed. A chunk's deadline is fixed when it
arrives, so pipelined traffic keeps flowing and pays the delay about once, as on a real link; a
sleep per chunk would charge it once per packet.

The writer sleeps until SPIN_S before the deadline (a sleep overshoots on a busy machine) and then
spins, yielding the GIL on each turn so the reader threads can stamp arrivals on time. At RTT_MS 0
the proxy still passes every byte through both threads: that is its own cost, measured by the
bench script as a row of its own. Python 3 standard library only; stops on SIGTERM or Ctrl-C.
"""
import collections
import signal
import socket
import sys
import threading
import time

SPIN_S = 0.0002  # sleeps end this long before a deadline; the rest is spun


class Direction:
    """One way of one connection: bytes from src reach dst one-way delay after they arrived."""

    def __init__(self, src, dst, delay_s, done):
        self.src, self.dst, self.delay_s, self.done = src, dst, delay_s, done
        self.queue = collections.deque()
        self.ready = threading.Condition()
        threading.Thread(target=self.read, daemon=True).start()
        threading.Thread(target=self.write, daemon=True).start()

    def read(self):
        while True:
            try:
                chunk = self.src.recv(65536)
            except OSError:
                chunk = b""
            due = time.perf_counter() + self.delay_s
            with self.ready:
                self.queue.append((due, chunk))
                self.ready.notify()
            if not chunk:  # end of stream travels the line too, after the bytes before it
                return

    def write(self):
        while True:
            with self.ready:
                while not self.queue:
                    self.ready.wait()
                due, chunk = self.queue.popleft()
            left = due - time.perf_counter()
            if left > SPIN_S:
                time.sleep(left - SPIN_S)
            while time.perf_counter() < due:
                time.sleep(0)  # spin, letting the readers stamp what arrives meanwhile
            try:
                if not chunk:
                    self.dst.shutdown(socket.SHUT_WR)
                    break
                self.dst.sendall(chunk)
            except OSError:
                break
        self.done()


def join(client, upstream, delay_s):
    try:
        server = socket.create_connection(upstream)
    except OSError:
        client.close()
        return
    for s in (client, server):
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    ends = [2]
    lock = threading.Lock()

    def done():
        with lock:
            ends[0] -= 1
            last = ends[0] == 0
        if last:
            client.close()
            server.close()

    Direction(client, server, delay_s, done)
    Direction(server, client, delay_s, done)


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: delay-proxy.py LISTEN_PORT UPSTREAM_HOST:UPSTREAM_PORT RTT_MS")
    port = int(sys.argv[1])
    host, up_port = sys.argv[2].rsplit(":", 1)
    one_way_s = float(sys.argv[3]) / 2 / 1000
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    # a spinning writer must hand the GIL over quickly, or a reader stamps late
    sys.setswitchinterval(0.00005)
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(128)
    print("delay-proxy: 127.0.0.1:%d -> %s:%s, rtt %s ms" % (port, host, up_port, sys.argv[3]),
          flush=True)
    try:
        while True:
            client, _ = listener.accept()
            join(client, (host, int(up_port)), one_way_s)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
