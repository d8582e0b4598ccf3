#!/usr/bin/env python3
"""Regenerates the expected change points of HistoryOtavaAgreementTest with Apache Otava itself.

Usage:
  bench/otava-agreement.py OTAVA_CHECKOUT [CASES_JSON]

OTAVA_CHECKOUT is a checkout of https://github.com/apache/otava (its otava/ package is imported
from there; it needs only numpy and scipy). CASES_JSON defaults to
src/test/resources/history/otava-agreement.json: each case's series and settings are kept, and
its "otava" answer (the change points' indexes and p-values that otava.analysis.compute_change_points
gives) is rewritten. With --new-cases the synthetic series are generated afresh (seeded, so the
same every time) and the real series already in the file are kept.
"""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CASES = os.path.join(HERE, "..", "src", "test", "resources", "history", "otava-agreement.json")

SETTINGS = [
    {"window": 50, "p": 0.001, "magnitude": 0.0},
    {"window": 30, "p": 0.01, "magnitude": 0.0},
    {"window": 50, "p": 0.001, "magnitude": 0.05},
    {"window": 20, "p": 0.05, "magnitude": 0.0},
]


def synthetic():
    """Steps, spikes, drifts and noise of several kinds; every series seeded."""
    out = {}

    def rng(seed):
        return np.random.default_rng(seed)

    r = rng(1)
    out["clean-step-up"] = np.concatenate([r.normal(100, 2, 30), r.normal(110, 2, 30)])
    r = rng(2)
    out["small-step-down"] = np.concatenate([r.normal(100, 3, 40), r.normal(97, 3, 40)])
    r = rng(3)
    out["three-steps"] = np.concatenate(
        [r.normal(m, 4, 25) for m in (100, 120, 90, 90.5)])
    r = rng(4)
    s = r.normal(100, 2, 60)
    s[30] = 150
    out["single-spike"] = s
    r = rng(5)
    out["drift"] = np.linspace(100, 120, 100) + r.normal(0, 2, 100)
    r = rng(6)
    out["pure-noise"] = r.normal(100, 5, 120)
    r = rng(7)
    out["variance-change"] = np.concatenate([r.normal(100, 1, 50), r.normal(100, 10, 50)])
    r = rng(8)
    out["heavy-tail-step"] = np.concatenate(
        [100 * r.lognormal(0, 0.05, 40), 90 * r.lognormal(0, 0.05, 40)])
    r = rng(9)
    out["short-step"] = np.concatenate([r.normal(50, 1, 5), r.normal(60, 1, 5)])
    out["flat-ties"] = np.array([5.0] * 10 + [7.0] * 10 + [5.0] * 10)
    r = rng(11)
    out["counts"] = np.concatenate([r.poisson(2, 40), r.poisson(8, 40)]).astype(float)
    r = rng(12)
    out["long-many-steps"] = np.concatenate(
        [r.normal(m, 3, n) for m, n in ((100, 70), (108, 60), (95, 90), (103, 80))])
    r = rng(13)
    # tps-like: a few percent of noise and a 2% regression
    out["tps-2pct-regression"] = np.concatenate(
        [r.normal(1500, 30, 45), r.normal(1470, 30, 45)])
    return {k: [round(float(x), 4) for x in v] for k, v in out.items()}


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    sys.path.insert(0, os.path.abspath(args[0]))
    from otava.analysis import compute_change_points

    path = args[1] if len(args) > 1 else DEFAULT_CASES
    cases = json.load(open(path)) if os.path.exists(path) else []
    if "--new-cases" in argv:
        real = [c for c in cases if c["name"].startswith("real-")]
        names = {}
        for c in real:
            names.setdefault(c["name"], c["values"])
        series = dict(synthetic())
        series.update(names)
        cases = [
            {"name": name, "values": values, **s}
            for name, values in series.items()
            for s in SETTINGS
        ]
    for c in cases:
        cps, _ = compute_change_points(
            list(c["values"]), window_len=c["window"], max_pvalue=c["p"], min_magnitude=c["magnitude"])
        c["otava"] = [{"index": int(cp.index), "p": float(cp.stats.pvalue)} for cp in cps]
    with open(path, "w") as f:
        json.dump(cases, f, indent=1)
        f.write("\n")
    print(f"{len(cases)} cases written to {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
