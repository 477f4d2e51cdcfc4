"""Mixed precision on a machine without CUDA (`lang.amp`): autocast blocks and decorators,
GradScaler disabled for CUDA and enabled for the CPU, custom_fwd / custom_bwd; refusals in
plain words where PyTorch would compute in bfloat16 / float16. PyTorch's printed text is
the corpus's (567-569, 583, 584); these test the general cases and the refusals."""

from __future__ import annotations

import ast

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse


def run(text: str) -> tuple[str, list[str]]:
    r = parse("import torch\n" + text, "t.py").run(dtype="float32")
    return "".join(r.output), list(r.warnings)


def fails(text: str) -> GradcliError:
    with pytest.raises(GradcliError) as info:
        parse("import torch\n" + text, "t.py").run(dtype="float32")
    return info.value


CUDA_OFF = "CUDA is not available or torch_xla is imported. Disabling autocast."
SCALER_OFF = "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling."


@pytest.mark.parametrize(
    "opening",
    [
        'torch.autocast(device_type="cuda")',
        'torch.autocast("cuda", dtype=torch.float16)',
        'torch.amp.autocast("cuda")',
        "torch.cuda.amp.autocast()",
        "torch.cuda.amp.autocast(dtype=torch.float16)",
    ],
)
def test_cuda_autocast_warns_and_changes_nothing(opening: str) -> None:
    body = (
        "a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)\n"
        f"with {opening}:\n"
        "    y = (a @ a).tanh().sum()\n"
        "    print(torch.is_autocast_enabled(), torch.is_autocast_enabled('cuda'))\n"
        "z = (a @ a).tanh().sum()\n"
        "print(y.dtype, y.item() == z.item())\n"
        "y.backward()\nprint(a.grad)\n"
    )
    out, warnings = run(body)
    plain, _ = run(body.replace(f"with {opening}:", "if True:"))
    assert out.splitlines()[0] == "False False"
    assert out.splitlines()[1] == "torch.float32 True"
    assert out.splitlines()[2:] == plain.splitlines()[2:]
    assert any(CUDA_OFF in w for w in warnings)
    if "cuda.amp" in opening:
        assert any("`torch.cuda.amp.autocast(args...)` is deprecated" in w for w in warnings)


def test_enabled_false_anywhere_is_silent() -> None:
    for opening in ("'cpu', enabled=False", "'cuda', enabled=False", "'mps', enabled=False"):
        out, warnings = run(f"with torch.autocast({opening}):\n    print(torch.ones(2) * 2)")
        assert out == "tensor([2., 2.])\n"
        assert warnings == []


def test_dtype_set_inside_a_block_and_restored_after() -> None:
    out, _ = run(
        "print(torch.get_autocast_dtype('cuda'))\n"
        "with torch.autocast('cuda', dtype=torch.float32):\n"
        "    print(torch.get_autocast_dtype('cuda'))\n"
        "    with torch.autocast('cuda', dtype=torch.float64, enabled=False):\n"
        "        print(torch.get_autocast_dtype('cuda'))\n"
        "    print(torch.get_autocast_dtype('cuda'))\n"
        "try:\n"
        "    with torch.autocast('cuda', dtype=torch.float64):\n"
        "        raise ValueError('x')\n"
        "except ValueError:\n"
        "    pass\n"
        "print(torch.get_autocast_dtype('cuda'), torch.get_autocast_dtype('mps'))\n"
    )
    assert out.split() == [
        "torch.float16",
        "torch.float32",
        "torch.float64",
        "torch.float32",
        "torch.float16",
        "torch.float16",
    ]
    # a new run starts from PyTorch's defaults again, whatever a run left behind
    from gradcli.lang import amp

    amp._DTYPES["cuda"] = np.dtype(np.float64)
    out, _ = run("print(torch.get_autocast_dtype('cuda'))")
    assert out == "torch.float16\n"


def test_decorated_function_runs_inside_the_block() -> None:
    out, warnings = run(
        "@torch.autocast('cuda', dtype=torch.float32)\n"
        "def f(x):\n    print(torch.get_autocast_dtype('cuda'))\n    return x * 3\n"
        "print(f(torch.ones(2)), torch.get_autocast_dtype('cuda'))\nprint(f)\n"
        "g = torch.cuda.amp.autocast(enabled=False)(lambda x: x + 1)\nprint(g(1))\n"
    )
    lines = out.splitlines()
    assert lines[0] == "torch.float32"
    assert lines[1] == "tensor([3., 3.]) torch.float16"
    assert lines[2].startswith("<function f at 0x")
    assert lines[3] == "2"
    assert sum(CUDA_OFF in w for w in warnings) == 1


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("with torch.autocast('cpu'):\n    y = torch.ones(2)", "to torch.bfloat16"),
        (
            "with torch.autocast(device_type='cpu', dtype=torch.float16):\n    y = 1",
            "to torch.float16",
        ),
        (
            "with torch.autocast(device_type='cpu', dtype=torch.bfloat16):\n    y = 1",
            "x.to(torch.bfloat16)",
        ),
        ("with torch.autocast('mps'):\n    y = 1", "an enabled torch.autocast('mps')"),
        ("@torch.autocast('cpu')\ndef f():\n    pass", "drop the autocast block"),
    ],
)
def test_reduced_precision_autocast_is_refused_in_plain_words(text: str, words: str) -> None:
    e = fails(text)
    assert words in f"{e.message} {e.hint}"
    assert "not supported" in e.message or "does not have" in e.message
    assert e.span is not None and e.span.line == 2


@pytest.mark.parametrize(
    ("text", "kind", "words"),
    [
        ("torch.autocast('meta')", "RuntimeError", "unsupported scalarType"),
        (
            "torch.autocast('meta', dtype=torch.float16)",
            "RuntimeError",
            "User specified an unsupported autocast device_type 'meta'",
        ),
        ("torch.autocast('gpu')", "RuntimeError", "device type at start of device string: gpu"),
        ("torch.autocast(1)", "ValueError", "Expected `device_type` of type `str`"),
        ("torch.is_autocast_enabled('tpu')", "RuntimeError", "device string: tpu"),
        ("torch.autocast('cuda', dtype=3)", "TypeError", "must be torch.dtype"),
        ("torch.autocast('cuda', 1, 2, 3, 4)", "TypeError", "too many positional"),
    ],
)
def test_autocast_errors_in_pytorchs_words(text: str, kind: str, words: str) -> None:
    e = fails(text)
    assert e.python_class == kind
    assert words in e.message


def _training(scaler: str, steps: int = 4) -> str:
    return (
        "torch.manual_seed(3)\n"
        "m = torch.nn.Sequential(torch.nn.Linear(5, 7), torch.nn.Tanh(), torch.nn.Linear(7, 2))\n"
        "opt = torch.optim.Adam(m.parameters(), lr=0.01)\n"
        "x = torch.randn(9, 5)\nt = torch.randn(9, 2)\n"
        f"{scaler}\n"
        f"for i in range({steps}):\n"
        "    opt.zero_grad()\n"
        "    loss = torch.nn.functional.mse_loss(m(x), t)\n"
        "    SCALED.backward()\n"
        "    STEP\n"
        "    UPDATE\n"
        "for p in m.parameters():\n    print(p.tolist())\n"
    )


@pytest.mark.parametrize("init", ["2.0**16", "1024.0", "0.5"])
def test_cpu_scaler_trains_bit_for_bit_as_without_it(init: str) -> None:
    """A power-of-two scale is exact in float32: the scaled loss's gradients divided back
    by float32(1 / scale) are the unscaled ones, so Adam takes exactly the same steps."""
    plain = _training("s = None").replace("SCALED", "loss")
    plain = plain.replace("STEP", "opt.step()").replace("UPDATE", "pass")
    scaled = _training(f"s = torch.amp.GradScaler('cpu', init_scale={init}, growth_interval=2)")
    scaled = scaled.replace("SCALED", "s.scale(loss)").replace("STEP", "s.step(opt)")
    scaled = scaled.replace("UPDATE", "s.update()")
    a, _ = run(plain)
    b, warnings = run(scaled)
    assert a == b
    assert warnings == []


def test_cpu_scaler_unscales_by_the_float32_reciprocal() -> None:
    out, _ = run(
        "w = torch.tensor([0.3, -1.7, 2.9], requires_grad=True)\n"
        "opt = torch.optim.SGD([w], lr=0.1)\n"
        "s = torch.amp.GradScaler('cpu', init_scale=3.0)\n"
        "s.scale((w ** 3).sum()).backward()\n"
        "print(w.grad.tolist())\n"
        "s.unscale_(opt)\n"
        "print(w.grad.tolist(), s.get_scale())\n"
    )
    w = np.array([0.3, -1.7, 2.9], dtype=np.float32)
    scaled = (np.float32(3.0) * (np.float32(3.0) * w * w)).astype(np.float32)
    first, second = out.splitlines()
    before = np.array(ast.literal_eval(first), dtype=np.float32)
    assert before.tolist() == pytest.approx(scaled.tolist(), rel=1e-6)
    got, scale = second.rsplit(" ", 1)
    assert ast.literal_eval(got) == (before * np.float32(1.0 / 3.0)).astype(np.float32).tolist()
    assert scale == "3.0"


def test_cpu_scaler_skips_nonfinite_steps_backs_off_and_grows() -> None:
    out, _ = run(
        "w = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "opt = torch.optim.SGD([w], lr=0.5)\n"
        "s = torch.amp.GradScaler('cpu', init_scale=8.0, growth_factor=4.0, backoff_factor=0.25,"
        " growth_interval=3)\n"
        "for bad in [False, True, float('nan'), False, False, False, False]:\n"
        "    opt.zero_grad()\n"
        "    loss = (w * w).sum()\n"
        "    if bad is True:\n        loss = loss * float('inf')\n"
        "    elif bad != bad:\n        loss = loss * bad\n"
        "    r = s.scale(loss)\n    r.backward()\n    s.step(opt)\n    s.update()\n"
        "    print(s.get_scale(), s.state_dict()['_growth_tracker'], w.tolist())\n"
    )
    scale, tracker, w, rows = 8.0, 0, [1.0, 2.0], []
    for bad in [False, True, "nan", False, False, False, False]:
        if bad:
            scale, tracker = scale * 0.25, 0
        else:
            w = [float(np.float32(v - np.float32(0.5) * np.float32(2 * v))) for v in w]
            tracker += 1
            if tracker == 3:
                scale, tracker = scale * 4.0, 0
        rows.append(f"{scale} {tracker} {w}")
    assert out.splitlines() == rows


def test_disabled_scaler_is_pytorchs_disabled_one() -> None:
    out, warnings = run(
        "w = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "opt = torch.optim.SGD([w], lr=0.25)\n"
        "for s in (torch.cuda.amp.GradScaler(), torch.amp.GradScaler('cuda'),\n"
        "          torch.GradScaler(enabled=False), torch.amp.GradScaler('cpu', enabled=False)):\n"
        "    loss = (w * w).sum()\n"
        "    print(s.scale(loss) is loss, s.scale([loss])[0] is loss, s.unscale_(opt))\n"
        "    opt.zero_grad()\n    loss.backward()\n"
        "    print(s.step(opt), s.update(), s.get_scale(), s.is_enabled(), s.state_dict())\n"
        "    s.load_state_dict({})\n"
        "print(w)\n"
    )
    assert out.splitlines()[:2] == ["True True None", "None None 1.0 False {}"]
    # four plain SGD steps, each halving w
    assert out.splitlines()[-1] == "tensor([0.0625, 0.1250], requires_grad=True)"
    assert any(SCALER_OFF in w for w in warnings)
    assert any("`torch.cuda.amp.GradScaler(args...)` is deprecated" in w for w in warnings)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("s = torch.amp.GradScaler('mps')", "an enabled GradScaler for device 'mps'"),
        (
            "s = torch.amp.GradScaler('cpu', init_scale='big')",
            "init_scale as a str is not supported",
        ),
        ("s = torch.amp.GradScaler('cpu')\ns.scale('loss')", "scale() of a str"),
        ("s = torch.amp.GradScaler('cpu')\ns.scale({'a': torch.ones(1)})", "scale() of a dict"),
    ],
)
def test_scaler_refusals(text: str, words: str) -> None:
    e = fails(text)
    assert words in e.message and "not supported" in e.message


def test_scaler_internals_stay_out_of_reach() -> None:
    for attr in ("_scale", "fields", "m_scale", "states", "_per_optimizer_states", "scale_value"):
        e = fails(f"s = torch.amp.GradScaler('cpu')\nv = s.{attr}")
        assert e.python_class == "AttributeError" or "not accessible" in e.message


def test_custom_fwd_and_bwd_pass_through() -> None:
    out, warnings = run(
        "def f(ctx, x):\n    return x\n"
        "print(torch.amp.custom_fwd(f, device_type='cuda') is f,"
        " torch.amp.custom_fwd(device_type='cpu', cast_inputs=torch.float64)(f) is f,"
        " torch.amp.custom_bwd(f, device_type='cuda') is f,"
        " torch.cuda.amp.custom_fwd(f) is f, torch.cuda.amp.custom_bwd(f) is f,"
        " torch.cuda.amp.custom_fwd(cast_inputs=torch.float16)(f) is f)\n"
    )
    assert out == "True True True True True True\n"
    assert sum("torch.cuda.amp.custom_fwd(args...)" in w for w in warnings) == 1


@pytest.mark.parametrize(
    ("text", "kind", "words"),
    [
        ("torch.amp.custom_fwd(print)", "TypeError", "missing 1 required keyword-only"),
        ("torch.amp.custom_bwd(device_type=1)", "ValueError", "Expected `device_type`"),
        ("torch.cuda.amp.custom_fwd(print, device_type='cuda')", "TypeError", "unexpected"),
        ("torch.cuda.amp.custom_bwd()", "TypeError", "missing 1 required positional"),
        ("torch.amp.custom_fwd(3, device_type='cuda')", "TypeError", "decorates functions"),
    ],
)
def test_custom_fwd_errors(text: str, kind: str, words: str) -> None:
    e = fails(text)
    assert e.python_class == kind and words in e.message


def test_isinstance_and_the_deprecated_getters() -> None:
    out, warnings = run(
        "a = torch.amp.GradScaler(enabled=False)\nb = torch.cuda.amp.GradScaler(enabled=False)\n"
        "c = torch.autocast('cuda', enabled=False)\nd = torch.cuda.amp.autocast(enabled=False)\n"
        "print(isinstance(a, torch.GradScaler), isinstance(b, torch.amp.GradScaler),"
        " isinstance(a, torch.cuda.amp.GradScaler), isinstance(b, torch.cuda.amp.GradScaler))\n"
        "print(isinstance(c, torch.autocast), isinstance(d, torch.amp.autocast),"
        " isinstance(c, torch.cuda.amp.autocast), isinstance(torch.ones(1), torch.autocast))\n"
        "print(torch.is_autocast_cpu_enabled(), torch.get_autocast_gpu_dtype())\n"
    )
    assert out.splitlines() == [
        "True True False True",
        "True True False False",
        "False torch.float16",
    ]
    assert any("torch.get_autocast_gpu_dtype() is deprecated" in w for w in warnings)
    out, _ = run(
        "print(torch.get_autocast_cpu_dtype(), torch.get_autocast_dtype('cpu'))\n"
        "with torch.autocast('cuda', dtype=torch.bfloat16):\n"
        "    print(torch.get_autocast_dtype('cuda'))\n"
    )
    assert out.splitlines() == ["torch.bfloat16 torch.bfloat16", "torch.bfloat16"]


def test_a_decorated_method_stays_a_method() -> None:
    out, _ = run(
        "class Net(torch.nn.Module):\n"
        "    def __init__(self):\n        super().__init__()\n        self.k = 3.0\n"
        "    @torch.autocast('cuda', dtype=torch.float32)\n"
        "    def forward(self, x):\n"
        "        print(torch.get_autocast_dtype('cuda'))\n        return x * self.k\n"
        "    @torch.amp.autocast('cpu', enabled=False)\n"
        "    def twice(self, x):\n        return 2 * self(x)\n"
        "n = Net()\nprint(n.twice(torch.ones(1)), torch.get_autocast_dtype('cuda'))\n"
    )
    assert out.splitlines() == ["torch.float32", "tensor([6.]) torch.float16"]


def test_a_cuda_bfloat16_autocast_is_disabled_as_pytorchs() -> None:
    out, warnings = run(
        "with torch.autocast('cuda', dtype=torch.bfloat16):\n"
        "    y = torch.ones(2) @ torch.ones(2)\nprint(y, y.dtype)\n"
    )
    assert out.splitlines() == ["tensor(2.) torch.float32"]
    assert sum(CUDA_OFF in w for w in warnings) == 1


def test_an_optimizer_without_gradients_records_no_inf_check() -> None:
    out, _ = run(
        "w = torch.ones(2, requires_grad=True)\nv = torch.ones(2, requires_grad=True)\n"
        "o = torch.optim.SGD([w], lr=0.1)\no2 = torch.optim.SGD([v], lr=0.1)\n"
        "s = torch.amp.GradScaler('cpu')\nl = s.scale((v * v).sum())\ns.unscale_(o)\n"
        "try:\n    s.step(o)\nexcept AssertionError as e:\n    print(e)\n"
        "l.backward()\ns.step(o2)\ns.update()\nprint(s.get_scale(), v)\n"
        "s.scale(v.sum())\ns.unscale_(o)\n"
        "try:\n    s.update()\nexcept AssertionError as e:\n    print(e)\n"
    )
    assert out.splitlines() == [
        "No inf checks were recorded for this optimizer.",
        "65536.0 tensor([0.8000, 0.8000], requires_grad=True)",
        "No inf checks were recorded prior to update.",
    ]


def test_type_names_torchs_classes() -> None:
    out, _ = run(
        "s = torch.cuda.amp.GradScaler(enabled=False)\n"
        "print(type(s), type(torch.amp.GradScaler('cpu')), type(s).__name__)\n"
        "print(type(torch.autocast('cuda', enabled=False)),"
        " type(torch.cuda.amp.autocast(enabled=False)), type(torch.autocast))\n"
    )
    assert out.splitlines() == [
        "<class 'torch.cuda.amp.grad_scaler.GradScaler'> "
        "<class 'torch.amp.grad_scaler.GradScaler'> GradScaler",
        "<class 'torch.amp.autocast_mode.autocast'> "
        "<class 'torch.cuda.amp.autocast_mode.autocast'> <class 'type'>",
    ]
