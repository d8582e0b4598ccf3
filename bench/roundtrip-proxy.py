#!/usr/bin/env python3
"""An out-of-process TCP proxy that counts round trips and bytes, independent of wg1bench's counting.

    bench/roundtrip-proxy.py LISTEN_PORT UPSTREAM_HOST:UPSTREAM_PORT

It checks the tool's own per-op accounting (server/wire) from outside the client: it shares no
code with it and knows nothing of the PostgreSQL protocol. Each connection accepted on
127.0.0.1:LISTEN_PORT is joined to a new connection to the upstream, and one thread forwards both
ways with select(), so the order in which it sees the two sides' bytes is the order they crossed
it: a server's answer cannot reach the proxy before the request that caused it was forwarded.

A round trip, as the tool defines it, is a read that follows the client's writes since its last
read: here, the first bytes from the server after bytes from the client. Chunking does not change
the count (a second chunk of the same answer follows server bytes, not client bytes); a client
that wrote again while the server was still answering would be counted once per turn, as the tool
counts it. Connections' start-ups are included; the bench script takes the difference of two runs
that differ only in their op count, so every fixed cost (start-up, probes, session settings)
cancels.

The tool's server-side window reads pg_stat_activity every 10 ms for as long as the window lasts,
a cost that grows with time, not ops, so it would not cancel. Its statements carry the comment
`/* wg1bench:server-window */` (ServerWindow.MARKER) and run on connections of their own: a
connection whose client ever sent that text is counted apart, as `marked`. This is the one thing
the proxy knows of the tool, and it only moves whole connections from one total to the other.

On SIGTERM it prints one line of totals over every connection it carried, closed or not:
`connections N round_trips R bytes_to_server S bytes_to_client C marked_connections M
marked_round_trips ...`. Python 3 standard library only.
"""
import select
import signal
import socket
import sys

BUF = 1 << 16
MARK = b"wg1bench:server-window"
KEYS = ("round_trips", "bytes_to_server", "bytes_to_client")


class Pair:
    """One client connection and its upstream, with who spoke last."""

    def __init__(self, client, server):
        self.client, self.server = client, server
        self.client_spoke = False  # bytes from the client since the server's last bytes
        self.counts = dict.fromkeys(KEYS, 0)
        self.tail = b""  # the client's last bytes, so a marker split between reads is seen
        self.marked = False


def main():
    port = int(sys.argv[1])
    host, uport = sys.argv[2].rsplit(":", 1)
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(64)
    every = []  # every pair carried
    pairs = {}  # open sockets -> (pair, is_client_side)

    def report(*_):
        totals = {}
        for marked, prefix in ((False, ""), (True, "marked_")):
            carried = [p for p in every if p.marked == marked]
            totals[prefix + "connections"] = len(carried)
            for k in KEYS:
                totals[prefix + k] = sum(p.counts[k] for p in carried)
        print(" ".join(f"{k} {v}" for k, v in totals.items()), flush=True)
        sys.exit(0)

    signal.signal(signal.SIGTERM, report)
    signal.signal(signal.SIGINT, report)
    while True:
        readable, _, _ = select.select([listener, *pairs.keys()], [], [])
        for s in readable:
            if s is listener:
                client, _ = listener.accept()
                server = socket.create_connection((host, int(uport)))
                for sock in (client, server):
                    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                pair = Pair(client, server)
                pairs[client] = (pair, True)
                pairs[server] = (pair, False)
                every.append(pair)
                continue
            if s not in pairs:
                continue  # closed earlier in this turn
            pair, from_client = pairs[s]
            try:
                data = s.recv(BUF)
            except OSError:
                data = b""
            if not data:
                for sock in (pair.client, pair.server):
                    pairs.pop(sock, None)
                    sock.close()
                continue
            if from_client:
                pair.client_spoke = True
                pair.counts["bytes_to_server"] += len(data)
                seen = pair.tail + data
                pair.marked = pair.marked or MARK in seen
                pair.tail = seen[-len(MARK):]
                pair.server.sendall(data)
            else:
                if pair.client_spoke:
                    pair.counts["round_trips"] += 1
                    pair.client_spoke = False
                pair.counts["bytes_to_client"] += len(data)
                pair.client.sendall(data)


if __name__ == "__main__":
    main()
