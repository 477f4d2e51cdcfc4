"""torch.set_printoptions: the options change the text exactly as PyTorch's do, they are checked
when set, a run starts with the defaults, and no option makes a text larger than a program may
print before that is refused.

The pinned strings were recorded with PyTorch 2.13; the last test compares against torch itself
(skipped without it).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from gradcli.base.errors import GradcliError, LimitError
from gradcli.surface import printing as P
from gradcli.surface.printing import format_array, reset_printoptions, set_printoptions


@pytest.fixture(autouse=True)
def _defaults():
    reset_printoptions()
    yield
    reset_printoptions()


F32 = np.float32

PINNED = [
    ({"precision": 2}, np.array([1.23456, -2.5], F32), "tensor([ 1.23, -2.50])"),
    ({"precision": 0}, np.array([1.5, 2.25], F32), "tensor([2, 2])"),
    ({"threshold": 5, "edgeitems": 1}, np.arange(10.0, dtype=F32), "tensor([0.,  ..., 9.])"),
    (
        {"threshold": 5, "edgeitems": 1},
        np.arange(12.0, dtype=F32).reshape(3, 4),
        "tensor([[ 0.,  ...,  3.],\n        ...,\n        [ 8.,  ..., 11.]])",
    ),
    ({"threshold": 5, "edgeitems": 0}, np.arange(10.0, dtype=F32), "tensor([...], size=(10,))"),
    (
        {"threshold": 5, "edgeitems": 0},
        np.arange(12).reshape(3, 4),
        "tensor([...], size=(3, 4))",
    ),
    ({"edgeitems": 0}, np.array([1.0, 2.0], F32), "tensor([1., 2.], size=(2,))"),
    (
        {"linewidth": 20},
        np.arange(8.0, dtype=F32) / F32(3),
        "tensor([0.0000,\n        0.3333,\n        0.6667,\n        1.0000,\n        1.3333,\n"
        "        1.6667,\n        2.0000,\n        2.3333])",
    ),
    ({"sci_mode": True}, np.array([1.0, 2.0], F32), "tensor([1.0000e+00, 2.0000e+00])"),
    ({"sci_mode": False}, np.array([1e-8, 1.0], F32), "tensor([0.0000, 1.0000])"),
    ({"profile": "short"}, np.array([1.23456, 2.0], F32), "tensor([1.23, 2.00])"),
    ({"profile": "full"}, np.arange(1002)[-4:], "tensor([ 998,  999, 1000, 1001])"),
    ({"profile": "nonsense", "precision": 1}, np.array([1.25], F32), "tensor([1.2])"),
]


@pytest.mark.parametrize("opts, arr, text", PINNED)
def test_pinned(opts, arr, text):
    set_printoptions(**opts)
    assert format_array(arr, default_dtype=np.dtype(F32)) == text


def test_a_call_without_sci_mode_sets_it_back_to_automatic():
    set_printoptions(sci_mode=False)
    assert format_array(np.array([1e-8, 1.0])) == "tensor([0.0000, 1.0000])"
    set_printoptions(precision=4)  # sci_mode left out: chosen per tensor again, as PyTorch
    assert format_array(np.array([1e-8, 1.0])) == "tensor([1.0000e-08, 1.0000e+00])"


def test_profile_first_then_the_options_given():
    set_printoptions(precision=7)
    set_printoptions(profile="short", edgeitems=1, threshold=3)
    assert (P.OPTIONS.precision, P.OPTIONS.edgeitems, P.OPTIONS.threshold) == (2, 1, 3)
    set_printoptions(profile="full")
    assert P.OPTIONS.threshold == math.inf and P.OPTIONS.edgeitems == 3


@pytest.mark.parametrize(
    "kwargs",
    [
        {"precision": -1},
        {"precision": "5"},  # (a string of digits would format: refused, not followed)
        {"precision": True},
        {"edgeitems": -2},
        {"linewidth": "80"},
        {"threshold": "x"},
        {"threshold": math.nan},
        {"sci_mode": "yes"},
    ],
)
def test_bad_values_are_refused_where_they_are_set(kwargs):
    before = (P.OPTIONS.precision, P.OPTIONS.edgeitems, P.OPTIONS.linewidth)
    with pytest.raises(GradcliError) as e:
        set_printoptions(**kwargs)
    assert "set_printoptions()" in e.value.message
    assert (P.OPTIONS.precision, P.OPTIONS.edgeitems, P.OPTIONS.linewidth) == before


@pytest.mark.parametrize(
    "precision, message",
    [
        (1.5, "Invalid format specifier '.1.5f' for object of type 'float'"),
        ("a", "Format specifier missing precision"),
    ],
)
def test_a_float_or_text_precision_fails_when_a_float_prints_as_pytorchs(precision, message):
    # PyTorch keeps it and fails where its formatter builds '{:.1.5f}' (integers and
    # integral floats print without the precision)
    set_printoptions(precision=precision)
    try:
        assert P._Formatter(np.array([1.0, 2.0], dtype=np.float32)).width() == 2
        with pytest.raises(GradcliError) as e:
            P._Formatter(np.array([1.5, 2.0], dtype=np.float32))
        assert e.value.message == message
    finally:
        set_printoptions(profile="default")


def test_a_huge_precision_is_refused_before_the_string_is_made():
    set_printoptions(precision=10**12)
    with pytest.raises(LimitError):
        format_array(np.array([1.0 / 3]))
    # ints and float tensors of integers print no digits after the point: still fine.
    assert format_array(np.array([1, 2])) == "tensor([1, 2])"
    assert format_array(np.array([1.0, 2.0])) == "tensor([1., 2.])"


def test_every_element_of_a_large_tensor_is_refused_before_it_is_formatted(monkeypatch):
    monkeypatch.setenv("GRADCLI_OUTPUT_BYTES", "1000")
    set_printoptions(threshold=math.inf)
    with pytest.raises(LimitError):
        format_array(np.zeros(10**6) + 0.5)
    set_printoptions(profile="default", edgeitems=10**9, threshold=0)
    with pytest.raises(LimitError):
        format_array(np.zeros((1000, 1000)))
    set_printoptions(profile="default")
    assert len(format_array(np.zeros((1000, 1000)))) < 400  # summarized: small


def test_the_width_from_the_extremes_is_the_width_of_every_element():
    """`_extremes` picks the values whose text is the longest: the formatter's width is the
    width a loop over every value finds, in every notation."""
    rng = np.random.default_rng(3)
    for k in range(300):
        exp = rng.uniform(-120, 120, size=50)
        vals = rng.choice([-1.0, 1.0], size=50) * 10.0**exp
        if k % 3 == 0:
            vals = np.round(vals * 1000) / 1000
        if k % 5 == 0:
            vals = vals.astype(F32)
        vals = vals[np.isfinite(vals) & (vals != 0)]
        for spec in (".4f", ".4e", ".0f", ".2e", ".9f"):
            full = max(len(format(v, spec)) for v in vals.tolist())
            short = max(len(format(v, spec)) for v in P._extremes(vals))
            assert full == short, (spec, vals)
    ints = rng.integers(-(10**12), 10**12, size=100)
    assert max(len(str(v)) for v in ints.tolist()) == max(len(str(v)) for v in P._extremes(ints))
    bools = np.array([True] * 20)
    assert max(len(str(v)) for v in P._extremes(bools)) == 4


def test_a_run_starts_with_the_defaults(monkeypatch):
    from gradcli.core.tensor import Settings
    from gradcli.lang.program import parse

    # A run sets the process's defaults: put them back afterwards.
    for name in ("default_dtype", "draw_dtype", "seed"):
        monkeypatch.setattr(Settings, name, getattr(Settings, name))

    text = "import torch\ntorch.set_printoptions(precision=1)\nprint(torch.tensor([1.25]))\n"
    out1 = parse(text).run(dtype=np.float32).output
    assert P.OPTIONS.precision == 1  # the run's option is left set ...
    out2 = parse("import torch\nprint(torch.tensor([1.25]))\n").run(dtype=np.float32).output
    assert P.OPTIONS.precision == 4  # ... until the next run starts
    assert "".join(out1).strip() == "tensor([1.2])"
    assert "".join(out2).strip() == "tensor([1.2500])"


OPTION_GRID = [
    {"precision": 2},
    {"precision": 9},
    {"threshold": 5},
    {"threshold": 7, "edgeitems": 1},
    {"threshold": 7, "edgeitems": 0},
    {"linewidth": 30},
    {"linewidth": 3},
    {"sci_mode": True, "precision": 3},
    {"sci_mode": False},
    {"profile": "short"},
]


@pytest.mark.parametrize("opts", OPTION_GRID)
def test_matches_torch(opts):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    arrays = [
        rng.normal(size=(4, 5)).astype(F32) * 10.0 ** rng.integers(-6, 6, size=(4, 5)),
        np.arange(24.0).reshape(2, 3, 4) - 7,
        np.array([0.0, math.nan, math.inf, -2.5]),
        np.arange(17),
        np.array([True, False]),
        np.array(2.5),
    ]
    try:
        for arr in arrays:
            torch.set_printoptions(profile="default")
            torch.set_printoptions(**opts)
            reset_printoptions()
            set_printoptions(**opts)
            t = torch.from_numpy(np.array(arr))
            dt = torch.float64 if arr.dtype == np.float64 else torch.float32
            torch.set_default_dtype(dt)
            want = repr(t)
            assert (
                format_array(arr, default_dtype=arr.dtype if arr.dtype.kind == "f" else None)
                == want
            )
    finally:
        torch.set_default_dtype(torch.float32)
        torch.set_printoptions(profile="default")


TEXT_SHAPES = [(1,), (5,), (100,), (3, 4), (2, 3, 4), (1, 1, 7), (2,) * 8, (1, 50), (7, 1, 3, 1)]


@pytest.mark.parametrize("shape", TEXT_SHAPES, ids=str)
def test_the_length_of_a_tensors_text_is_known_before_it_is_made(shape):
    """`_text_length` is the exact length of the text, in every layout: one number a line
    (linewidth 1), summarized or not, no edge items, deep tensors' blank lines."""
    rng = np.random.default_rng(0)
    arrays = (rng.standard_normal(shape), np.ones(shape), (rng.standard_normal(shape) * 1e6))
    try:
        for threshold, linewidth, edge, precision in [
            (1000, 80, 3, 4),
            (5, 1, 1, 10),
            (math.inf, 10, 0, 4),
            (math.inf, 200, 3, 4),
            (2, 80, 0, 4),
        ]:
            set_printoptions(
                threshold=threshold, linewidth=linewidth, edgeitems=edge, precision=precision
            )
            for arr in arrays:
                summarize = arr.size > P.OPTIONS.threshold
                shown = P._summarized_data(arr) if summarize else arr
                if not shown.size:
                    continue
                f1 = P._Formatter(shown)
                for indent in (7, 0):
                    text = P._tensor_str_with_formatter(arr, indent, summarize, f1, None)
                    assert P._text_length(arr.shape, indent, summarize, f1.width()) == len(text)
    finally:
        reset_printoptions()


def test_a_deep_or_narrow_text_is_refused_at_its_real_length(monkeypatch):
    """Line breaks and indentation count: 2**21 ones in 21 dimensions are 40 MB of text
    (4 characters a number would say 8 MB); one number a line, 28 MB for 2.4 million."""
    try:
        set_printoptions(threshold=math.inf)
        with pytest.raises(LimitError, match="40,894,433"):
            format_array(np.ones((2,) * 21))
        set_printoptions(threshold=math.inf, linewidth=1)
        with pytest.raises(LimitError, match="28,799,992"):
            format_array(np.ones(2_400_000))
        # At the boundary: the text of exactly the limit is made, one more is refused.
        set_printoptions(profile="default", threshold=math.inf)
        size = len(format_array(np.ones((2,) * 6))) - len("tensor()")
        monkeypatch.setenv("GRADCLI_OUTPUT_BYTES", str(size))
        format_array(np.ones((2,) * 6))
        monkeypatch.setenv("GRADCLI_OUTPUT_BYTES", str(size - 1))
        with pytest.raises(LimitError):
            format_array(np.ones((2,) * 6))
    finally:
        reset_printoptions()


def test_a_text_made_for_a_string_is_measured_against_the_string_limit(monkeypatch):
    """`str(x)` (a string value): a tensor's text over the string limit is refused before it
    is made, and a list's texts are charged one after the other."""
    from gradcli.analysis import api

    monkeypatch.setenv("GRADCLI_STRING_CHARS", "1000")
    try:
        with pytest.raises(LimitError, match="the length of the tensor's text is"):
            api.load("torch.set_printoptions(threshold=float('inf'))\ns = str(torch.ones(300))")
        run = api.load("torch.set_printoptions(threshold=float('inf'))\ns = str(torch.ones(200))")
        assert len(run.env["s"]) < 1000
        with pytest.raises(LimitError, match="at least"):
            api.load(
                "torch.set_printoptions(threshold=float('inf'))\ns = f'{[torch.ones(200)] * 3}'"
            )
    finally:
        reset_printoptions()
