"""Sizes checked before the work, at the boundary of their limit: reductions of empty tensors,
one_hot's classes, clamp's bounds; and the messages of arguments PyTorch refuses (a device
string that is a dtype, an integer out of int64's range).

The element limit is lowered with its environment variable; the sizes past it are chosen so
that the work, were it done, would need terabytes: a refusal after the work could not pass.
"""

from __future__ import annotations

import pytest

from gradcli.analysis import api
from gradcli.base import limits
from gradcli.base.errors import GradcliError, LimitError
from gradcli.surface.args import DEVICE_TYPES, device_arg

HUGE = 10**12  # a dimension whose result (8 TB as float64) can only be refused


def refused(text: str) -> str:
    with pytest.raises(LimitError) as info:
        api.load(text)
    msg = info.value.format()
    assert "(tensor_elements)" in msg and "over the limit of" in msg, msg
    return msg


REDUCTIONS = [
    "e.sum(0)",
    "e.sum(dim=(0,), keepdim=True)",
    "e.mean(0)",
    "e.prod(0)",
    "e.norm(dim=0)",
    "e.norm(p=1, dim=0)",
    "e.logsumexp(0)",
    "e.var(0)",
    "e.std(0, keepdim=True)",
    "e.any(0)",
    "e.all(0)",
    "torch.any(e, 0)",
    "torch.all(e, dim=0, keepdim=True)",
]


@pytest.mark.parametrize("expr", REDUCTIONS)
def test_reduction_of_an_empty_tensor_at_the_limit(
    expr: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GRADCLI_TENSOR_ELEMENTS", "100")
    run = api.load(f"e = torch.zeros(0, 100)\ns = {expr}\n")
    assert run.env["s"].data.size == 100
    msg = refused(f"e = torch.zeros(0, 101)\ns = {expr}\n")
    assert "101, over the limit of 100" in msg


@pytest.mark.parametrize("expr", REDUCTIONS)
def test_reduction_of_an_empty_tensor_refused_before_numpy(expr: str) -> None:
    # 10**12 float64 zeros: NumPy would fail for memory; the check comes first.
    msg = refused(f"e = torch.zeros(0, {HUGE})\ns = {expr}\n")
    assert f"{HUGE:,}, over the limit" in msg


def test_reductions_of_empty_tensors_keep_their_values(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADCLI_TENSOR_ELEMENTS", "100")
    run = api.load(
        "e = torch.zeros(0, 3)\n"
        "a = e.sum(0)\nb = e.logsumexp(0)\nc = e.any(0)\nd = e.all(0)\nf = e.sum()\n"
        "g = e.sum(1)\n"
    )
    ns = run.env
    assert ns["a"].data.tolist() == [0.0, 0.0, 0.0]
    assert ns["b"].data.tolist() == [float("-inf")] * 3
    assert ns["c"].data.tolist() == [False] * 3
    assert ns["d"].data.tolist() == [True] * 3
    assert ns["f"].data.shape == () and ns["g"].data.shape == (0,)


def test_one_hot_classes_at_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADCLI_TENSOR_ELEMENTS", "100")
    run = api.load(
        "t = torch.zeros(1, dtype=torch.int64)\no = torch.nn.functional.one_hot(t, 100)\n"
    )
    assert run.env["o"].data.shape == (1, 100)
    assert run.env["o"].data.sum() == 1
    msg = refused(
        "t = torch.zeros(1, dtype=torch.int64)\no = torch.nn.functional.one_hot(t, 101)\n"
    )
    assert "one_hot's number of classes is 101" in msg
    # No rows: the table is empty, but its width is still refused before anything is made.
    assert "one_hot's number of classes" in refused(
        f"t = torch.zeros(0, dtype=torch.int64)\no = torch.nn.functional.one_hot(t, {HUGE})\n"
    )
    # Rows times classes.
    refused("t = torch.zeros(2, dtype=torch.int64)\no = torch.nn.functional.one_hot(t, 51)\n")
    api.load("t = torch.zeros(2, dtype=torch.int64)\no = torch.nn.functional.one_hot(t, 50)\n")


# --- device strings: PyTorch's parser and words, and what a dtype given as one is -------------


@pytest.mark.parametrize(
    ("spec", "parsed"),
    [
        ("cpu", ("cpu", None)),
        ("cpu:0", ("cpu", 0)),
        ("cpu:1", ("cpu", 1)),
        ("cuda:12", ("cuda", 12)),
    ]
    + [(t, (t, None)) for t in DEVICE_TYPES],
)
def test_device_strings(spec: str, parsed: tuple) -> None:
    assert device_arg(spec) == parsed


EXPECTED_ONE_OF = (
    "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, "
    "xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type at start of device "
    "string: "
)


@pytest.mark.parametrize(
    ("spec", "message"),
    # PyTorch 2.13's messages for torch.ones(2).to(spec).
    [
        ("O", EXPECTED_ONE_OF + "O"),
        ("object", EXPECTED_ONE_OF + "object"),
        ("CPU", EXPECTED_ONE_OF + "CPU"),
        ("float32", "Invalid device string: 'float32'"),
        ("cpu:01", "Invalid device string: 'cpu:01'"),
        (":0", "Invalid device string: ':0'"),
        ("cpu ", "Invalid device string: 'cpu '"),
        ("cpu:x", "Invalid device string: 'cpu:x'"),
        ("cpu:", "Invalid device string: 'cpu:'"),
        ("", "Device string must not be empty"),
    ],
)
def test_bad_device_strings_in_pytorchs_words(spec: str, message: str) -> None:
    with pytest.raises(GradcliError) as info:
        device_arg(spec)
    assert str(info.value.message) == message
    assert info.value.python_class == "RuntimeError"


def test_a_dtype_given_as_a_device_string_is_named_as_a_dtype() -> None:
    for expr, found in [
        ('torch.ones(2).to("O")', "NumPy's code for its dtype 'object'"),
        (
            'torch.nn.functional.one_hot(torch.tensor([1])).to("O")',
            "NumPy's code for its dtype 'object'",
        ),
        ('torch.ones(2).to("float64")', "the name of a dtype (torch.float64) as a string"),
        ('torch.ones(2).to("int64")', "the name of a dtype (torch.int64) as a string"),
    ]:
        with pytest.raises(GradcliError) as info:
            api.load(f"x = {expr}\n")
        msg = info.value.format()
        assert found in msg, msg
        assert "a dtype is torch.<name>, not a string" in msg
    # The device itself: the CPU, by string or torch.device; CUDA fails as in PyTorch's CPU
    # build (an AssertionError a program can catch), other devices are refused.
    run = api.load('x = torch.ones(2).to("cpu:0")\ny = x.to(torch.device("cpu"))\n')
    assert run.env["y"].data.tolist() == [1.0, 1.0]
    with pytest.raises(GradcliError, match="Torch not compiled with CUDA enabled"):
        api.load('x = torch.ones(2).to(torch.device("cuda", 0))\n')


@pytest.mark.parametrize(
    "expr",
    [
        'torch.ones(2, device="O")',
        'torch.tensor([1.0], device="float32")',
        'torch.randn(2, device="float64")',
        'torch.nn.Linear(2, 1).to("O")',
        'torch.nn.Linear(2, 1).to(device="int64")',
    ],
)
def test_a_device_argument_is_parsed_everywhere(expr: str) -> None:
    with pytest.raises(GradcliError) as info:
        api.load(f"x = {expr}\n")
    msg = info.value.format()
    assert "device string" in msg and "dtype" in msg, msg


@pytest.mark.parametrize(
    ("expr", "words", "cls"),
    [
        ('torch.ones(2, device="cuda")', "Torch not compiled with CUDA enabled", "AssertionError"),
        ("torch.zeros(2, device=0)", "none is available", "RuntimeError"),
        ("torch.ones(2).cuda(0)", "none is available", "RuntimeError"),
        (
            'torch.zeros(2, device=torch.device("cuda", 1))',
            "Torch not compiled with CUDA enabled",
            "AssertionError",
        ),
        ('torch.nn.Linear(2, 1).to("cuda")', "not compiled with CUDA", "AssertionError"),
        ("torch.nn.Linear(2, 1).cuda()", "not compiled with CUDA", "AssertionError"),
        ('torch.ones(2).to("xpu")', "Torch not compiled with XPU enabled", "AssertionError"),
        ("torch.cuda.synchronize()", "not compiled with CUDA", "AssertionError"),
        ('torch.ones(2).to(device="mps")', "gradcli runs on the CPU only", None),
    ],
)
def test_a_device_other_than_the_cpu_fails_as_in_pytorch_without_it(
    expr: str, words: str, cls: str | None
) -> None:
    """CUDA (and XPU) fail with the error PyTorch's CPU build raises, in its class, so that a
    program's `except` sees it; the hint says how to write the device. Other devices: refused."""
    with pytest.raises(GradcliError, match=words) as info:
        api.load(f"x = {expr}\n")
    if cls is not None:
        assert info.value.python_class == cls
        assert "torch.cuda.is_available()" in info.value.format()


def test_a_program_catches_the_cuda_error_and_stays_on_the_cpu() -> None:
    run = api.load(
        "x = torch.ones(2)\ntry:\n    x = x.cuda()\nexcept AssertionError as e:\n"
        "    msg = str(e)\nn = torch.cuda.memory_allocated()\n"
    )
    assert run.env["msg"] == "Torch not compiled with CUDA enabled"
    assert run.env["n"] == 0


def test_the_cpu_device_everywhere() -> None:
    run = api.load(
        'a = torch.ones(2, device="cpu")\nb = torch.zeros(2, device=torch.device("cpu:0"))\n'
        'm = torch.nn.Linear(2, 1).to("cpu")\nc = torch.ones(2).to(device=torch.device("cpu"))\n'
        "d = torch.ones(2, device=None)\n"
    )
    assert run.env["a"].data.tolist() == [1.0, 1.0] and run.env["d"].data.tolist() == [1.0, 1.0]


# --- integers out of int64's range ----------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        "[2**63]",
        "[-(2**63) - 1]",
        "[1, 2**64]",
        "2**70",
        "[[1], [2**63]]",
        "[True, 2**64]",
        "[1.0, 2**64], dtype=torch.int64",
        "[2**63], dtype=torch.int32",
    ],
)
def test_integer_out_of_int64_range(data: str) -> None:
    with pytest.raises(GradcliError) as info:
        api.load(f"x = torch.tensor({data})\n")
    msg = info.value.format()
    assert msg.splitlines()[0].endswith("Overflow when unpacking long long"), msg
    assert "out of range for int64" in msg


def test_integer_at_the_ends_of_int64() -> None:
    # As PyTorch: a larger integer is fine where the tensor is a float one (or bool).
    run = api.load(
        "x = torch.tensor([2**63 - 1, -(2**63)])\ny = torch.tensor([1.5, 2**64])\n"
        "z = torch.tensor([2**64], dtype=torch.float32)\n"
        "b = torch.tensor([2**64], dtype=torch.bool)\n"
    )
    assert run.env["x"].data.tolist() == [2**63 - 1, -(2**63)]
    assert run.env["y"].data.tolist() == [1.5, 2.0**64]
    assert run.env["z"].data.dtype == "float32" and run.env["z"].data.tolist() == [2.0**64]
    assert run.env["b"].data.tolist() == [True]


def test_limits_default_unchanged() -> None:
    assert limits.TENSOR_ELEMENTS.default == 10_000_000


# --- clamp's bounds: tensors broadcast (their size checked first), lists refused -------------


def test_clamp_tensor_bounds_at_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADCLI_TENSOR_ELEMENTS", "100")
    run = api.load("x = torch.ones(10)\ny = x.clamp(min=torch.zeros(10, 1))\n")
    assert run.env["y"].data.shape == (10, 10)
    msg = refused("x = torch.ones(10)\ny = x.clamp(min=torch.zeros(11, 1))\n")
    assert "the broadcast result is 110" in msg
    refused("x = torch.ones(10)\ny = x.clamp(max=torch.zeros(11, 1))\n")
    refused("x = torch.ones(10)\nx.clamp_(torch.zeros(1), torch.zeros(11, 1))\n")


def test_clamp_in_place_cannot_grow_the_tensor() -> None:
    with pytest.raises(GradcliError) as info:
        api.load(f"x = torch.ones({HUGE // 10**6})\nx.clamp_(min=torch.zeros(2, 1))\n")
    assert "output with shape [1000000] doesn't match the broadcast shape [2, 1000000]" in str(
        info.value
    )
    # Past the limit: refused by the element limit before the values are compared.
    refused("x = torch.ones(10**6)\nx.clamp_(min=torch.zeros(200, 1))\n")


@pytest.mark.parametrize(
    ("call", "first_line"),
    [
        ("x.clamp_(min=[[0.0]] * 200)", "clamp_() received an invalid combination of arguments"),
        ("x.clamp(min=[0.0])", "clamp() received an invalid combination of arguments"),
        ("torch.clamp(x, 0, [1])", "clamp() received an invalid combination of arguments"),
        ("x.clamp(min='a')", "got (min=str, )"),
        ("x.clamp(min=torch.zeros(3), max=1)", "got (max=int, min=Tensor, )"),
        ("x.clamp_min_([0.0])", "clamp_min_() received an invalid combination of arguments"),
        ("torch.clamp_max(x, [0.0])", "clamp_max() received an invalid combination"),
    ],
)
def test_clamp_bounds_pytorch_refuses(call: str, first_line: str) -> None:
    with pytest.raises(GradcliError) as info:
        api.load(f"x = torch.ones(3)\ny = {call}\n")
    e = info.value
    # (the overloads listed after it where the parser's check knows them: torch.clamp)
    assert first_line in e.message and "but expected one of:" in e.message
    assert e.python_class == "TypeError"
    assert "float()" not in e.format()  # no Python-internal phrase


# --- the canvas of convolutions, pooling and unfold: padding and dilation far past the input ---

CANVAS = {
    # x is one element, the kernel 3 taps D apart, the padding D: one output element, on a
    # canvas 2D + 1 long.
    "conv1d": "y = torch.nn.functional.conv1d(torch.ones(1, 1, 1), torch.ones(1, 1, 3), "
    "dilation=D, padding=D)",
    "unfold": "y = torch.nn.functional.unfold(torch.ones(1, 1, 1, 1), (1, 3), dilation=(1, D), "
    "padding=(0, D))",
}


@pytest.mark.parametrize("name", sorted(CANVAS))
def test_a_padded_canvas_is_sized_before_it_is_made(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GRADCLI_TENSOR_ELEMENTS", "1001")
    run = api.load(CANVAS[name].replace("D", "500"))
    assert run.env["y"].data.size <= 3  # one window (of 3 taps, for unfold)
    msg = refused(CANVAS[name].replace("D", "501"))
    assert "the padded input is 1,003, over the limit of 1,001" in msg
    # 2 * 10**9 + 1 elements a side: refused, never handed to np.pad.
    refused(CANVAS[name].replace("D", str(10**9)))


# --- PyTorch's fused multiply-add (linspace), in pieces under the clock ------------------------


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_fma_in_pieces_is_fma_in_one(dtype: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import numpy as np

    from gradcli.surface.sampling import random_module

    R = random_module()  # the module as the surface uses it: its clock check installed
    rng = np.random.default_rng(0)
    a, b, c = (rng.standard_normal(17).astype(dtype) for _ in range(3))
    whole = R.fma(a, b, c, dtype)
    clock = [0]
    monkeypatch.setattr(limits.BUDGET, "check_clock", lambda: clock.__setitem__(0, clock[0] + 1))
    monkeypatch.setattr(R, "FMA_CHUNK", 8)
    pieces = R.fma(a, b, c, dtype)
    assert pieces.dtype == whole.dtype and np.array_equal(pieces, whole)
    assert clock[0] == 3  # 8 + 8 + 1 elements: the clock before each piece
    assert np.array_equal(R.fma(a[:8], b[:8], c[:8], dtype), whole[:8]) and clock[0] == 3


@pytest.mark.parametrize(
    ("arg", "words", "cls"),
    [
        ("0", "Cannot access accelerator device when none is available.", "RuntimeError"),
        ("-1", "Device index must not be negative", "RuntimeError"),
        ("1.5", "device() received an invalid combination of arguments - got (float)", "TypeError"),
        ("None", "(!NoneType!)", "TypeError"),
    ],
)
def test_torch_device_of_a_number_fails_as_pytorch(arg: str, words: str, cls: str) -> None:
    with pytest.raises(GradcliError) as info:
        api.load(f"d = torch.device({arg})\n")
    assert words in info.value.message and info.value.python_class == cls
