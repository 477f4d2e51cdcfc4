"""statistics, heapq, bisect and operator's getters in programs (probe40): each result compared
with Python's own module run on the same data here, so a step taken in another order (another
tie broken, another comparison) shows."""

from __future__ import annotations

import bisect
import heapq
import random
import statistics

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse


def out(text: str) -> str:
    return "".join(parse(text, "t.py").run(dtype="float32").output)


def test_heap_steps_leave_pythons_list() -> None:
    rng = random.Random(7)
    steps = [(rng.random(), rng.randint(0, 5), rng.randint(0, 2)) for _ in range(120)]
    prog = "import heapq\nh = []\ngot = []\n"
    h: list = []
    got: list = []
    for r, a, b in steps:
        if r < 0.5:
            prog += f"heapq.heappush(h, ({a}, {b}))\n"
            heapq.heappush(h, (a, b))
        elif r < 0.7 and h:
            prog += "got.append(heapq.heappop(h))\n"
            got.append(heapq.heappop(h))
        elif r < 0.85 and h:
            prog += f"got.append(heapq.heapreplace(h, ({a}, 9)))\n"
            got.append(heapq.heapreplace(h, (a, 9)))
        else:
            prog += f"got.append(heapq.heappushpop(h, ({a}, 8)))\n"
            got.append(heapq.heappushpop(h, (a, 8)))
    v = [rng.randint(0, 20) for _ in range(23)]
    prog += f"v = {v}\nheapq.heapify(v)\nprint(h)\nprint(got)\nprint(v)\n"
    heapq.heapify(v)
    assert out(prog) == f"{h}\n{got}\n{v}\n"


def test_heap_of_tensor_scores_compares_their_values() -> None:
    got = out(
        "import torch, heapq\nh = []\nfor v in [3.0, 1.0, 2.0]:\n"
        "    heapq.heappush(h, (torch.tensor(v), int(v)))\nprint(heapq.heappop(h)[1])\n"
        "print(heapq.nlargest(2, [4, 1, 4, 9], key=lambda x: -x))\n"
    )
    assert got == "1\n[1, 4]\n"


def test_bisect_matches_python_on_every_position() -> None:
    a = [1, 2, 2, 2, 5, 8]
    xs = [0, 1, 2, 3, 8, 9]
    prog = f"import bisect\na = {a}\n" + "".join(
        f"print(bisect.bisect_left(a, {x}), bisect.bisect_right(a, {x}), "
        f"bisect.bisect_left(a, {x}, 2, 4))\n"
        for x in xs
    )
    want = "".join(
        f"{bisect.bisect_left(a, x)} {bisect.bisect_right(a, x)} {bisect.bisect_left(a, x, 2, 4)}\n"
        for x in xs
    )
    assert out(prog) == want


def test_insort_with_a_key_calls_it_as_python_does() -> None:
    prog = (
        "import bisect\nrecs = [('a', 1), ('b', 4)]\nseen = []\n"
        "def k(r):\n    seen.append(r[0])\n    return r[1]\n"
        "bisect.insort(recs, ('c', 2), key=k)\nprint(recs, seen)\n"
    )
    seen: list = []
    recs = [("a", 1), ("b", 4)]

    def k(r):
        seen.append(r[0])
        return r[1]

    bisect.insort(recs, ("c", 2), key=k)
    assert out(prog) == f"{recs} {seen}\n"


def test_statistics_are_pythons_and_refuse_tensors() -> None:
    data = [0.9, 0.5, 0.4, 0.35, 0.33]
    got = out(
        f"import statistics\nd = {data}\nprint(statistics.mean(d), statistics.stdev(d), "
        "statistics.median(d), statistics.quantiles(d, n=4))\n"
    )
    want = (
        f"{statistics.mean(data)} {statistics.stdev(data)} {statistics.median(data)} "
        f"{statistics.quantiles(data, n=4)}\n"
    )
    assert got == want
    with pytest.raises(GradcliError, match="not supported"):
        out("import statistics, torch\nstatistics.mean([torch.tensor(1.0)])\n")


def test_getters_read_as_the_program_reads() -> None:
    got = out(
        "from operator import itemgetter, attrgetter\nimport torch\n"
        "print(sorted([('a', 2), ('b', 1)], key=itemgetter(1)), itemgetter(0, 2)('xyz'))\n"
        "print(attrgetter('weight.shape')(torch.nn.Linear(2, 3)))\n"
    )
    assert got == "[('b', 1), ('a', 2)] ('x', 'z')\ntorch.Size([3, 2])\n"
    with pytest.raises(GradcliError, match="not accessible"):
        out("import operator\nclass A:\n    pass\noperator.attrgetter('__dict__')(A())\n")
