#!/usr/bin/env python3
"""Compares two dumps of bench/count-dump.sh (before and after a change to how counts travel).

Figures differ run to run, so what is compared is what must not differ: every JSON field's path
and type (list items folded), the console's lines with their numbers and times masked, the CSV
files' headers, and identities between the counts that hold in any run (per-script ops add up to
the headline's, per-command failures to the script's, failures by kind to failedOps, a step's
whole-trial count at least its windows'). Prints each difference; exits 1 if there is one.

  bench/count-dump-compare.py BEFORE_DIR AFTER_DIR
"""
import json, os, re, sys

def paths(v, at="", out=None):
    out = set() if out is None else out
    if isinstance(v, dict):
        for k, x in v.items():
            # the measured ops' failures by kind and the point's knobs are keyed by data
            key = "{}" if at.endswith((".failures", ".point", ".settings", ".pinSites")) else k
            paths(x, f"{at}.{key}", out)
    elif isinstance(v, list):
        for x in v:
            paths(x, at + "[]", out)
    else:
        out.add(f"{at}: {type(v).__name__ if v is not None else 'null'}")
    return out

def masked(text):
    text = re.sub(r"\d{4}-\d\d-\d\dT[\d:.]+Z?", "TIME", text)
    text = re.sub(r"\b\d\d:\d\d:\d\d(\.\d+)?\b", "TIME", text)
    text = re.sub(r"/tmp/[^\s]+", "PATH", text)
    text = re.sub(r"\d+(\.\d+)?", "N", text)
    # a column's width follows its figures
    return re.sub(r"[ \t]+", " ", text)

def identities(name, r):
    bad = []
    for t in r.get("trials", []):
        m = t["measurement"]
        if sum((m.get("failures") or {}).values()) != m["failedOps"]:
            bad.append(f"{name}: failures by kind {m.get('failures')} != failedOps {m['failedOps']}")
        if m["totalOps"] < m["ops"]:
            bad.append(f"{name}: totalOps {m['totalOps']} < ops {m['ops']}")
        scripts = m.get("scripts") or []
        if scripts and not any(c.get("step") for s in scripts for c in (s.get("commands") or [])):
            if sum(s["ops"] for s in scripts) != m["ops"]:
                bad.append(f"{name}: scripts' ops {[s['ops'] for s in scripts]} != ops {m['ops']}")
            if sum(s["failedOps"] for s in scripts) != m["failedOps"]:
                bad.append(f"{name}: scripts' failedOps != failedOps {m['failedOps']}")
            for s in scripts:
                cmds = s.get("commands") or []
                if cmds and sum(c["failures"] for c in cmds) != s["failedOps"]:
                    bad.append(f"{name}: {s['name']}'s commands' failures != its failedOps")
                if cmds and sum(c["retries"] for c in cmds) != s["retries"]:
                    bad.append(f"{name}: {s['name']}'s commands' retries != its retries")
        for s in scripts:
            for c in s.get("commands") or []:
                w = c.get("wholeTrial")
                if w and w["count"] < c["count"]:
                    bad.append(f"{name}: step {c['text']} whole count < its windows'")
    return bad

def main(before, after):
    diffs = []
    names = sorted(f for f in os.listdir(before) if f.endswith(".json"))
    for f in names:
        a = os.path.join(after, f)
        if not os.path.exists(a):
            diffs.append(f"{f}: missing after"); continue
        rb, ra = json.load(open(os.path.join(before, f))), json.load(open(a))
        pb, pa = paths(rb), paths(ra)
        for p in sorted(pb - pa):
            diffs.append(f"{f}: only before: {p}")
        for p in sorted(pa - pb):
            diffs.append(f"{f}: only after: {p}")
        for r, side in ((rb, "before"), (ra, "after")):
            diffs += [f"{side} {x}" for x in identities(f, r)]
        cb = masked(open(os.path.join(before, f[:-5] + ".console.txt")).read()).splitlines()
        ca = masked(open(os.path.join(after, f[:-5] + ".console.txt")).read()).splitlines()
        # lines whose masked text is the same are the same line; the set differs only where a
        # line appears or vanishes (counts of errors differ run to run, so not their number)
        for l in sorted(set(cb) - set(ca)):
            diffs.append(f"{f[:-5]} console, only before: {l}")
        for l in sorted(set(ca) - set(cb)):
            diffs.append(f"{f[:-5]} console, only after: {l}")
    for f in sorted(x for x in os.listdir(before) if x.endswith(".csv")):
        hb = open(os.path.join(before, f)).readline()
        ha = open(os.path.join(after, f)).readline() if os.path.exists(os.path.join(after, f)) else None
        if hb != ha:
            diffs.append(f"{f}: header before {hb.strip()!r}, after {ha!r}")
    print(f"compared {len(names)} runs: {', '.join(n[:-5] for n in names)}")
    for d in diffs:
        print(d)
    print("no difference" if not diffs else f"{len(diffs)} differences")
    return 1 if diffs else 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
