"""Python's `random` and NumPy's legacy `np.random` in programs: the real generators, so a
seeded program gets what Python and NumPy give; unseeded, both start from the run's --seed,
every run alike."""

from __future__ import annotations

import random

import numpy as np

from gradcli.lang.program import parse


def out(text: str, seed: int = 0) -> list[str]:
    return "".join(parse(text, "t.py").run(dtype="float32", seed=seed).output).splitlines()


def test_python_random_is_pythons_generator() -> None:
    got = out(
        "import random\nrandom.seed(7)\n"
        "print(repr(random.random()), random.randint(1, 100), random.randrange(3, 50, 4))\n"
        "xs = list(range(12))\nrandom.shuffle(xs)\nprint(xs)\n"
        "print(random.sample(range(1000), 6), random.choice('abcdef'))\n"
        "print(random.choices([1, 2, 3], weights=[1, 5, 2], k=5), repr(random.gauss(1, 2)))\n"
    )
    r = random.Random(7)
    first = f"{r.random()!r} {r.randint(1, 100)} {r.randrange(3, 50, 4)}"
    xs = list(range(12))
    r.shuffle(xs)
    third = f"{r.sample(range(1000), 6)} {r.choice('abcdef')}"
    fourth = f"{r.choices([1, 2, 3], weights=[1, 5, 2], k=5)} {r.gauss(1, 2)!r}"
    assert got == [first, str(xs), third, fourth]


def test_numpy_random_is_numpys_legacy_generator() -> None:
    got = out(
        "import numpy as np\nnp.random.seed(3)\n"
        "print(np.random.randn(4))\n"
        "print(np.random.randint(0, 100, size=5), np.random.permutation(5))\n"
    )
    r = np.random.RandomState(3)
    assert got == [str(r.randn(4)), f"{r.randint(0, 100, size=5)} {r.permutation(5)}"]


def test_unseeded_draws_follow_the_run_seed_and_every_run_starts_afresh() -> None:
    prog = (
        "import random\nimport numpy as np\nprint(repr(random.random()), repr(np.random.rand()))\n"
    )
    assert out(prog, seed=5) == out(prog, seed=5)  # a second run is not the first run's sequel
    assert out(prog, seed=5) != out(prog, seed=6)
    r = random.Random(5)
    assert out(prog, seed=5) == [f"{r.random()!r} {np.random.RandomState(5).rand()!r}"]


def test_rand_and_randn_take_integers_and_refuse_others_in_numpys_words() -> None:
    # (a shape tuple is np.random.normal's size=, not randn's: users pass it and NumPy says so)
    got = out(
        "import numpy as np\n"
        "for args in [((5, 5),), (2.0,), ([2, 3],), ('a',), (2, (3,)), (True,)]:\n"
        "    for fn in (np.random.randn, np.random.rand):\n"
        "        try:\n"
        "            fn(*args)\n"
        "        except TypeError as e:\n"
        "            print(e)\n"
        "np.random.seed(1)\nprint(np.random.randn(np.int64(2), 3).shape)\n"
    )
    expected = []
    for args in [((5, 5),), (2.0,), ([2, 3],), ("a",), (2, (3,)), (True,)]:
        for fn in (np.random.randn, np.random.rand):
            try:
                fn(*args)
            except TypeError as e:
                expected.append(str(e))
    assert got == [*expected, "(2, 3)"]


def test_numpys_other_distributions_are_numpys_draws() -> None:
    """Every distribution of the table, from the global state, a RandomState and a Generator
    (positional and keyword parameters, a size): NumPy's own numbers for the seed."""
    import contextlib
    import io

    from gradcli.lang.pyrandom import _REQUIRED, DISTRIBUTIONS

    lines = ["import numpy as np", "np.random.seed(3)", "rs = np.random.RandomState(5)"]
    lines.append("g = np.random.default_rng(11)")
    for name, (params, defaults) in DISTRIBUTIONS.items():
        values = [0.3 if p in ("p",) else 2.0 if p != "mode" else 2.5 for p in params]
        if name == "triangular":
            values = [1.0, 2.5, 4.0]
        args = ", ".join(map(repr, values))
        keywords = ", ".join(f"{p}={v!r}" for p, v in zip(params, values, strict=True))
        sep = ", " if args else ""
        lines.append(f"print('{name}', np.random.{name}({args}{sep}size=3))")
        lines.append(f"print(rs.{name}({keywords}{sep}size=(2, 2)), g.{name}({args}))")
        required = [p for p, d in zip(params, defaults, strict=True) if d is _REQUIRED]
        if not required:
            lines.append(f"print(np.random.{name}(), g.{name}(size=2))")
    program = "\n".join(lines) + "\n"
    want = io.StringIO()
    with contextlib.redirect_stdout(want):
        exec(program, {})
    assert "".join(parse(program, "t.py").run(dtype="float32").output) == want.getvalue()
