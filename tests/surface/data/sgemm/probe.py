"""How the summation orders in `gradcli/ops/linalg.py` were found (needs torch): for F.linear
with all weights 1 and x holding 2**25 at inner index a, -2**25 at b and distinct small powers
of two elsewhere, a small value survives in the result exactly when it is added after a and b
have met; so each call shows which products are summed before a and b meet (the leaves under
their common node in the summation tree).

    /work/torchenv/bin/python tests/surface/data/sgemm/probe.py M K N "[(a, b), ...]"

prints, for each pair, the inner indices summed before a and b meet, as intervals.
"""

from __future__ import annotations

import sys

import numpy as np

BIG = np.float32(2.0**25)


def cluster(m: int, k: int, n: int, a: int, b: int, elem: tuple = (0, 0)) -> list[int]:
    import torch

    torch.set_num_threads(1)
    others = [c for c in range(k) if c not in (a, b)]
    survive = set()
    for g0 in range(0, len(others), 20):
        group = others[g0 : g0 + 20]
        x = np.zeros((m, k), np.float32)
        x[:, a], x[:, b] = BIG, -BIG
        for j, c in enumerate(group):
            x[:, c] = np.float32(2.0**-j)
        w = np.ones((n, k), np.float32)
        v = float(torch.nn.functional.linear(torch.from_numpy(x), torch.from_numpy(w))[elem])
        survive.update(c for j, c in enumerate(group) if np.floor(v / 2.0**-j) % 2 == 1)
    return sorted(set(range(k)) - survive)


def intervals(s: list[int]) -> list[list[int]]:
    out: list[list[int]] = []
    for v in s:
        if out and out[-1][1] == v - 1:
            out[-1][1] = v
        else:
            out.append([v, v])
    return out


if __name__ == "__main__":
    m, k, n = map(int, sys.argv[1:4])
    for a, b in eval(sys.argv[4]):  # noqa: S307 - a list of pairs typed by hand
        print((a, b), intervals(cluster(m, k, n, a, b)))
