# A csvlog of two sessions of N steps each (three in four a point select, one in four BEGIN, an
# UPDATE of pgbench_tellers, COMMIT), for checking a replay's per-op round trips against
# bench/roundtrip-proxy.py: python3 bench/replay-proxy-log.py N > log.csv (database oppath, user postgres).
import sys
n = int(sys.argv[1])
def q(s): return '"' + s.replace('"', '""') + '"'
def line(ms, sid, msg):
    f = [""] * 26
    f[0] = "2024-05-01 12:%02d:%02d.%03d UTC" % (ms // 60000, (ms // 1000) % 60, ms % 1000)
    f[1] = q("postgres"); f[2] = q("oppath"); f[3] = "4242"; f[5] = sid; f[6] = "1"
    f[11] = "LOG"; f[12] = "00000"; f[13] = q(msg); f[22] = q("app"); f[23] = q("client backend")
    return ",".join(f) + "\n"
out = []
for s, sid in enumerate(["aa.1", "bb.2"]):
    t = s
    out.append((t, sid, "connection authorized: user=postgres database=oppath"))
    for i in range(n):
        t += 2
        if i % 4 == 3:
            out.append((t, sid, "statement: BEGIN")); t += 1
            out.append((t, sid, "statement: UPDATE pgbench_tellers SET tbalance = tbalance + 1 WHERE tid = %d" % (1 + s))); t += 1
            out.append((t, sid, "statement: COMMIT"))
        else:
            out.append((t, sid, "statement: SELECT abalance FROM pgbench_accounts WHERE aid = %d" % (1 + i)))
    out.append((t + 1, sid, "disconnection: session time: 0:00:01.000"))
out.sort()
sys.stdout.write("".join(line(*o) for o in out))
