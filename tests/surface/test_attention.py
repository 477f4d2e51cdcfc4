"""F.scaled_dot_product_attention, nn.MultiheadAttention and the Transformer layers: float64
values and gradients against recorded PyTorch 2.13 output (`data/attention/NAME.out`, made by
running NAME.py under /work/torchenv), the grad_fn names PyTorch's CPU kernels give, float64
gradients against central finite differences, PyTorch's words for misuse, and sizes refused
before any work."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.core.tensor import Settings, Tensor
from gradcli.lang.program import parse
from gradcli.surface import attention as AT

DATA = Path(__file__).resolve().parent / "data" / "attention"
NUMBER = re.compile(r"-?\d+\.\d+(?:e[-+]\d+)?|-?inf|nan")


@pytest.fixture(autouse=True)
def _settings_restored() -> Any:
    saved = (Settings.default_dtype, Settings.draw_dtype, Settings.seed)
    yield
    Settings.default_dtype, Settings.draw_dtype, Settings.seed = saved


def run(text: str, name: str = "t.py") -> str:
    return "".join(parse(text, name).run(dtype="float32").output)


def out(text: str) -> str:
    return run("import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n" + text)


@pytest.mark.parametrize(
    "name", ["sdpa_float64", "mha_float64", "encoder_float64", "edges_float64"]
)
def test_float64_values_and_gradients_are_pytorchs(name: str) -> None:
    """Everything but the numbers (grad_fn names, shapes, parameter names) as PyTorch prints
    it; every number (outputs, attention weights, gradients of inputs and parameters, with
    dropout drawn from the generator) PyTorch's to float64 rounding."""
    got = run((DATA / f"{name}.py").read_text(), f"{name}.py")
    want = (DATA / f"{name}.out").read_text()
    assert NUMBER.sub("#", got) == NUMBER.sub("#", want)
    a = np.array([float(v) for v in NUMBER.findall(want)])
    b = np.array([float(v) for v in NUMBER.findall(got)])
    np.testing.assert_allclose(b, a, rtol=1e-12, atol=1e-14)


def test_the_kernel_pytorch_picks_names_the_result() -> None:
    got = out(
        "torch.manual_seed(0)\nq = torch.randn(1, 2, 3, 4, requires_grad=True)\n"
        "m = torch.ones(3, 3, dtype=torch.bool)\n"
        "for kw in [{}, {'attn_mask': m}, {'is_causal': True}, {'dropout_p': 0.5}]:\n"
        "    print(F.scaled_dot_product_attention(q, q, q, **kw).grad_fn.name())\n"
        "print(F.scaled_dot_product_attention(q[0], q[0], q[0]).grad_fn.name())\n"
        "print(F.scaled_dot_product_attention(q[0, 0], q[0, 0], q[0, 0]).grad_fn.name())\n"
        "print(F.scaled_dot_product_attention(q, q, q, attn_mask=torch.zeros(2, 3, 3))"
        ".grad_fn.name())\n"
        "mha = nn.MultiheadAttention(4, 2, batch_first=True)\nx = q[0]\n"
        "o, w = mha(x, x, x)\nprint(o.grad_fn.name(), w.grad_fn.name())\n"
        "o, w = mha(x[0], x[0], x[0], average_attn_weights=False)\n"
        "print(o.grad_fn.name(), w.grad_fn.name(), tuple(w.shape))\n"
        "print(mha)\n"
    )
    assert got.split("\n")[:9] == [
        "ScaledDotProductFlashAttentionForCpuBackward0",
        "ScaledDotProductFlashAttentionForCpuBackward0",
        "ScaledDotProductFlashAttentionForCpuBackward0",
        "UnsafeViewBackward0",
        "UnsafeViewBackward0",
        "MmBackward0",
        "UnsafeViewBackward0",
        "TransposeBackward0 MeanBackward1",
        "SqueezeBackward1 SqueezeBackward1 (2, 3, 3)",
    ]
    assert (
        "(out_proj): NonDynamicallyQuantizableLinear(in_features=4, out_features=4, bias=True)"
        in got
    )


def test_initial_weights_are_pytorchs_draws() -> None:
    got = out(
        "torch.set_printoptions(precision=8)\ntorch.manual_seed(0)\n"
        "m = nn.MultiheadAttention(4, 2)\n"
        "print([n for n, _ in m.named_parameters()])\n"
        "print(m.in_proj_weight[0].tolist(), m.out_proj.weight[0].tolist())\n"
        "print(m.in_proj_bias.abs().sum().item(), m.out_proj.bias.abs().sum().item())\n"
    )
    lines = got.split("\n")
    assert lines[0] == "['in_proj_weight', 'in_proj_bias', 'out_proj.weight', 'out_proj.bias']"
    # PyTorch 2.13: torch.manual_seed(0); nn.MultiheadAttention(4, 2) (out_proj is drawn first,
    # then xavier_uniform_ of in_proj_weight)
    want = [0.22242416, 0.50850672, -0.12602636, 0.45824552]
    want += [-0.00374341, 0.26822180, -0.41152257, -0.36796951]
    got_numbers = [float(v) for v in NUMBER.findall(lines[1])]
    np.testing.assert_allclose(got_numbers, want, rtol=0, atol=5e-9)
    assert lines[2] == "0.0 0.0"


def _central_differences(loss: Any, t: Tensor, eps: float = 1e-6) -> np.ndarray:
    g = np.zeros_like(t.data)
    flat = t.data.reshape(-1)
    for i in range(flat.size):
        keep = flat[i]
        flat[i] = keep + eps
        up = float(loss().data)
        flat[i] = keep - eps
        down = float(loss().data)
        flat[i] = keep
        g.reshape(-1)[i] = (up - down) / (2 * eps)
    return g


SDPA_CASES = [
    ((1, 2, 3, 4), (1, 2, 5, 4), {}),  # flash
    ((1, 2, 3, 4), (1, 2, 5, 4), {"is_causal": True, "scale": 0.4}),  # flash, causal
    ((2, 3, 4), (2, 5, 4), {"mask": (3, 5)}),  # math, float mask
    ((1, 4, 3, 4), (1, 2, 5, 4), {"enable_gqa": True}),  # grouped heads
    ((3, 4), (5, 4), {"bool_mask": True}),  # math, 2-D, a row with no key
]


@pytest.mark.parametrize("qs,ks,kw", SDPA_CASES, ids=[str(i) for i in range(len(SDPA_CASES))])
def test_sdpa_gradients_equal_central_differences(qs: tuple, ks: tuple, kw: dict) -> None:
    rng = np.random.default_rng(len(qs) + len(kw))
    q = Tensor(rng.normal(size=qs), requires_grad=True)
    k = Tensor(rng.normal(size=ks), requires_grad=True)
    v = Tensor(rng.normal(size=ks), requires_grad=True)
    kw = dict(kw)
    if "mask" in kw:
        kw["attn_mask"] = Tensor(rng.normal(size=kw.pop("mask")))
    if kw.pop("bool_mask", False):
        keep = rng.uniform(size=(qs[-2], ks[-2])) > 0.4
        keep[0] = False
        kw["attn_mask"] = Tensor(keep)
    weights = Tensor(rng.normal(size=qs))

    def loss() -> Tensor:
        o = AT.scaled_dot_product_attention(q, k, v, **kw)
        return (o * weights).sum() + (o * o).sum()

    loss().backward()
    for t in (q, k, v):
        np.testing.assert_allclose(t.grad.data, _central_differences(loss, t), atol=1e-8, rtol=1e-6)


@pytest.mark.parametrize("need_weights", [True, False])
def test_mha_gradients_equal_central_differences(need_weights: bool) -> None:
    Settings.default_dtype = np.dtype(np.float64)
    m = AT.MultiheadAttention(4, 2, kdim=3, vdim=5, add_bias_kv=True, dtype=np.float64)
    rng = np.random.default_rng(3)
    q = Tensor(rng.normal(size=(3, 2, 4)), requires_grad=True)
    k = Tensor(rng.normal(size=(5, 2, 3)), requires_grad=True)
    v = Tensor(rng.normal(size=(5, 2, 5)), requires_grad=True)
    kpm = Tensor(np.array([[False, True, False, False, False], [False] * 5]))

    def loss() -> Tensor:
        o, w = m(q, k, v, key_padding_mask=kpm, need_weights=need_weights)
        r = (o * o).sum() + o.sum()
        return r + (w * w).sum() if w is not None else r

    loss().backward()
    for t in (q, k, v, *m.parameters()):
        np.testing.assert_allclose(t.grad.data, _central_differences(loss, t), atol=1e-8, rtol=1e-6)


def test_encoder_layer_gradients_equal_central_differences() -> None:
    Settings.default_dtype = np.dtype(np.float64)
    layer = AT.TransformerEncoderLayer(4, 2, 6, dropout=0.0, activation="gelu", dtype=np.float64)
    rng = np.random.default_rng(4)
    x = Tensor(rng.normal(size=(3, 2, 4)), requires_grad=True)
    w = Tensor(rng.normal(size=(3, 2, 4)))
    mask = AT.generate_square_subsequent_mask(3, dtype=np.float64)

    def loss() -> Tensor:
        return (layer(x, src_mask=mask) * w).sum()

    loss().backward()
    for t in (x, *layer.parameters()):
        np.testing.assert_allclose(t.grad.data, _central_differences(loss, t), atol=1e-8, rtol=1e-6)


ERRORS = [
    ("nn.MultiheadAttention(10, 3)", "embed_dim must be divisible by num_heads"),
    (
        "nn.MultiheadAttention(0, 2)",
        "embed_dim and num_heads must be greater than 0, got embed_dim=0 and num_heads=2 instead",
    ),
    (
        "nn.MultiheadAttention(8, 2)(x, x, x, attn_mask=torch.zeros(3, 4))",
        "The shape of the 2D attn_mask is torch.Size([3, 4]), but should be (4, 4).",
    ),
    (
        "nn.MultiheadAttention(8, 2)(x, x, x, attn_mask=torch.zeros(5, 4, 4))",
        "The shape of the 3D attn_mask is torch.Size([5, 4, 4]), but should be (4, 4, 4).",
    ),
    (
        "nn.MultiheadAttention(8, 2)(x, x, x, attn_mask=torch.zeros(4, 4, dtype=torch.long))",
        "only bool and floating types of attn_mask are supported",
    ),
    (
        "nn.MultiheadAttention(8, 2)(x, x, x, key_padding_mask=b(2, 5))",
        "Expected key_padded_mask.shape[1] to be 4, but got 5",
    ),
    (
        "nn.MultiheadAttention(8, 2)(x, x, x, key_padding_mask=b(3, 4))",
        "Expected key_padded_mask.shape[0] to be 2, but got 3",
    ),
    (
        "nn.MultiheadAttention(8, 2)(x, x, x, key_padding_mask=b(2, 4, 1))",
        "For batched (3-D) `query`, expected `key_padding_mask` to be `None` or 2-D but found 3-D "
        "tensor instead",
    ),
    (
        "nn.MultiheadAttention(8, 2)(x, x, x, is_causal=True)",
        "Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
        "method `generate_square_subsequent_mask` to create this mask.",
    ),
    (
        "nn.MultiheadAttention(8, 2)(x[0, 0], x[0, 0], x[0, 0])",
        "query should be unbatched 2D or batched 3D tensor but received 1-D query tensor",
    ),
    (
        "nn.MultiheadAttention(8, 2)(x, x[0], x[0])",
        "For batched (3-D) `query`, expected `key` and `value` to be 3-D but found 2-D and 2-D "
        "tensors respectively",
    ),
    (
        "nn.MultiheadAttention(8, 2)(torch.randn(4, 2, 6), torch.randn(4, 2, 6), "
        "torch.randn(4, 2, 6))",
        "was expecting embedding dimension of 8, but got 6",
    ),
    (
        "nn.MultiheadAttention(8, 2)(x, x, torch.randn(5, 2, 8))",
        "key shape torch.Size([4, 2, 8]) does not match value shape torch.Size([5, 2, 8])",
    ),
    (
        "nn.MultiheadAttention(8, 2, kdim=3)(x, torch.randn(5, 2, 3), torch.randn(6, 2, 8))",
        "key's sequence and batch dims torch.Size([5, 2]) do not match value's torch.Size([6, 2])",
    ),
    (
        "F.scaled_dot_product_attention(q4, q4, q4.double())",
        "Expected query, key, and value to have the same dtype, but got query.dtype: float "
        "key.dtype: float and value.dtype: double instead.",
    ),
    (
        "F.scaled_dot_product_attention(q4[0, 0, 0], q4[0, 0, 0], q4[0, 0, 0])",
        "Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: 1 "
        "key.dim: 1 and value.dim: 1 instead.",
    ),
    (
        "F.scaled_dot_product_attention(q4, q4, q4, attn_mask=torch.zeros(3, 3, dtype=torch.long))",
        "Expected attn_mask dtype to be bool or float or to match query dtype, but got "
        "attn_mask.dtype: long int and  query.dtype: float instead.",
    ),
    (
        "F.scaled_dot_product_attention(q4, q4, q4, attn_mask=torch.zeros(3, 5))",
        "The size of tensor a (3) must match the size of tensor b (5) at non-singleton dimension 3",
    ),
    (
        "F.scaled_dot_product_attention(q4, q4, q4, dropout_p=1.5)",
        "dropout probability has to be between 0 and 1, but got 1.5",
    ),
    (
        "F.scaled_dot_product_attention(q4[0], q4[0], q4[0], attn_mask=torch.zeros(3, 3), "
        "is_causal=True)",
        "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True",
    ),
    (
        "F.scaled_dot_product_attention(q4, q4[..., :2], q4)",
        "Expected size for first two dimensions of batch2 tensor to be: [2, 4] but got: [2, 2].",
    ),
    (
        "F.scaled_dot_product_attention(q4, torch.randn(1, 3, 3, 4), torch.randn(1, 3, 3, 4), "
        "enable_gqa=True)",
        "Number of heads in key and value must divide the number of heads in ",
    ),
    (
        "F.scaled_dot_product_attention(q4.long(), q4.long(), q4.long())",
        "expected scalar type Float but found Long",
    ),
    (
        "nn.TransformerEncoderLayer(8, 2, activation='tanh')",
        "activation should be relu/gelu, not tanh",
    ),
    ("nn.TransformerEncoderLayer(8, 3)", "embed_dim must be divisible by num_heads"),
    (
        "nn.Transformer(8, 2, 1, 1, 16)(torch.randn(3, 2, 8), torch.randn(4, 3, 8))",
        "the batch number of src and tgt must be equal",
    ),
    (
        "nn.Transformer(8, 2, 1, 1, 16)(torch.randn(3, 2, 8), torch.randn(4, 2, 6))",
        "the feature number of src and tgt must be equal to d_model",
    ),
]


@pytest.mark.parametrize("code,message", ERRORS, ids=[c for c, _ in ERRORS])
def test_misuse_is_reported_in_pytorchs_words(code: str, message: str) -> None:
    with pytest.raises(GradcliError) as e:
        out(
            "x = torch.randn(4, 2, 8)\nq4 = torch.randn(1, 2, 3, 4)\n"
            f"def b(*s):\n    return torch.zeros(*s, dtype=torch.bool)\nr = {code}\n"
        )
    assert message in str(e.value)


def test_sizes_are_checked_before_anything_is_drawn_or_multiplied() -> None:
    for code in (
        "nn.MultiheadAttention(4000, 2)",
        "nn.MultiheadAttention(8, 2, kdim=10**7)",
        "nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 8), 10**9)",
        "nn.Transformer.generate_square_subsequent_mask(10**5)",
        "F.scaled_dot_product_attention(*[torch.zeros(1, 1, 4).expand(2, 10**4, 4)] * 3)",
    ):
        with pytest.raises(GradcliError, match="limit"):
            out(f"r = {code}\n")


def test_live_against_pytorch() -> None:
    torch = pytest.importorskip("torch")
    text = (
        "torch.manual_seed(3)\nm = nn.MultiheadAttention(8, 4, dropout=0.25)\n"
        "x = torch.randn(5, 2, 8)\no, w = m(x, x, x)\nprint(o[0].tolist(), w[1].tolist())\n"
        "layer = nn.TransformerEncoderLayer(8, 2, 16, batch_first=True)\n"
        "print(layer(x)[0].tolist())\n"
    )
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(text, {"torch": torch, "nn": torch.nn})  # noqa: S102 - the test's own program
    a = np.array([float(v) for v in NUMBER.findall(out(text))])
    b = np.array([float(v) for v in NUMBER.findall(buf.getvalue())])
    np.testing.assert_allclose(a, b, rtol=0, atol=1e-6)


def test_float32_fused_kernel_is_pytorchs_bits() -> None:
    """F.scaled_dot_product_attention in float32 (the fused CPU kernel's path): every output
    element equal to PyTorch 2.13's (`data/attention/record_flash32.py` made the inputs and
    recorded the outputs), with float and bool masks, is_causal and a given scale."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("record_flash32", DATA / "record_flash32.py")
    assert spec is not None and spec.loader is not None
    rec = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rec)
    want = np.load(DATA / "flash32.npz")
    for i, c in enumerate(rec.cases()):
        q, k, v = (Tensor(c[n], requires_grad=True) for n in "qkv")
        mask = None if c["mask"] is None else Tensor(c["mask"])
        got = AT.scaled_dot_product_attention(
            q, k, v, attn_mask=mask, is_causal=c["causal"], scale=c["scale"]
        )
        assert got.node is not None and got.node.label == AT.FLASH
        np.testing.assert_array_equal(got.data, want[str(i)], err_msg=f"case {i}")


def _grad_cases() -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "record_flash32_grad", DATA / "record_flash32_grad.py"
    )
    assert spec is not None and spec.loader is not None
    rec = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rec)
    return rec


def _flash32_grads(c: dict) -> list[np.ndarray]:
    """gradcli's gradients of q, k and v for one recorded case (a plain backward pass)."""
    from gradcli.core.autograd import backward
    from gradcli.surface import functional as SF

    if c["view"]:
        q, k, v = (
            Tensor(np.ascontiguousarray(c[n].transpose(0, 2, 1, 3)), requires_grad=True)
            for n in "qkv"
        )
        qv, kv, vv = (SF.transpose(t, 1, 2) for t in (q, k, v))
    else:
        q, k, v = (Tensor(c[n], requires_grad=True) for n in "qkv")
        qv, kv, vv = q, k, v
    mask = None if c["mask"] is None else Tensor(c["mask"])
    got = AT.scaled_dot_product_attention(
        qv, kv, vv, attn_mask=mask, is_causal=c["causal"], scale=c["scale"], enable_gqa=c["gqa"]
    )
    assert got.node is not None and got.node.label == AT.FLASH
    backward([got], [Tensor(c["g"])])
    grads = [t.grad.data for t in (q, k, v)]  # type: ignore[union-attr]
    return [a.transpose(0, 2, 1, 3) for a in grads] if c["view"] else grads


def _mismatches() -> list[str]:
    import json

    rec = _grad_cases()
    digests = json.loads((DATA / "flash32_grad.json").read_text())
    small = np.load(DATA / "flash32_grad.npz")
    bad = []
    for i, c in enumerate(rec.cases()):
        for name, got, want in zip(("dq", "dk", "dv"), _flash32_grads(c), digests[i]):
            if f"{i}_{name}" in small.files:
                diff = int(np.sum(got != small[f"{i}_{name}"]))
                if diff:
                    bad.append(f"case {i} ({c['kind']}) {name}: {diff} elements differ")
            elif rec.digest(got) != want:
                bad.append(f"case {i} ({c['kind']}) {name}: digest differs")
    return bad


def test_float32_fused_kernel_gradients_are_pytorchs_bits() -> None:
    """The gradients of q, k and v of F.scaled_dot_product_attention in float32 (the fused CPU
    kernel's backward, `ops.flash32.flash32_backward`): every element equal to PyTorch 2.13's
    on 72 recorded cases (`data/attention/record_flash32_grad.py`: batch 1-4, heads 1-8, 4-64
    queries and keys, head sizes 8-64; masks, is_causal, scale, grouped query heads, views,
    one-row query blocks, 200 queries, one key, 512 keys)."""
    assert _mismatches() == []


@pytest.mark.parametrize("rule", ["logsumexp", "_scaled_nt", "_dots", "_add_tn"])
def test_a_kernel_rule_one_ulp_off_is_caught(rule: str, monkeypatch: Any) -> None:
    """The recorded comparison sees a last bit: one of the kernel's steps moved by one unit in
    the last place (every element away from zero) makes gradients differ."""
    from gradcli.ops import flash32 as FL

    real = getattr(FL, rule)

    def off(*args: Any) -> Any:
        r = real(*args)
        return np.nextafter(r, np.copysign(np.inf, r)).astype(np.float32)

    monkeypatch.setattr(FL, rule, off)
    assert _mismatches() != []


def test_fused_kernel_gradients_follow_pytorchs_rules_elsewhere() -> None:
    """Where the kernel's rule stands aside the composed nodes compute, as before: after q was
    changed in place (PyTorch's error), and with create_graph, whose float32 gradient is a
    graph: its second derivative agrees with float64's, which equals central differences."""
    text = (
        "torch.manual_seed(0)\n"
        "q = torch.randn(1, 2, 5, 8, requires_grad=True)\n"
        "k = torch.randn(1, 2, 6, 8)\nv = torch.randn(1, 2, 6, 8)\n"
        "y = F.scaled_dot_product_attention(q, k, v, is_causal=True)\n"
        "with torch.no_grad():\n    q.mul_(2)\n"
        "try:\n    y.sum().backward()\nexcept RuntimeError as e:\n    print('error', e)\n"
    )
    assert out(text).startswith("error one of the variables needed for gradient computation")
    text = (
        "q = torch.randn(1, 2, 3, 4, requires_grad=True)\n"
        "y = F.scaled_dot_product_attention(q, q.detach(), q.detach())\n"
        "with torch.no_grad():\n    q.mul_(2)\n"
        "try:\n    torch.autograd.grad(y.sum(), q, create_graph=True)\n"
        "except RuntimeError as e:\n    print(e)\n"
    )
    assert out(text).startswith("one of the variables needed for gradient computation")
    for dt in ("float32", "float64"):
        text = (
            f"q = torch.randn(1, 2, 3, 4, requires_grad=True, dtype=torch.{dt})\n"
            "m = torch.randn(3, 3, dtype=q.dtype)\n"
            "y = F.scaled_dot_product_attention(q, q.detach(), q.detach(), attn_mask=m)\n"
            "m.add_(1)\n"
            "try:\n    y.sum().backward()\nexcept RuntimeError as e:\n    print(e)\n"
        )
        kind = "FloatTensor" if dt == "float32" else "DoubleTensor"
        assert out(text).startswith(
            "one of the variables needed for gradient computation has been modified by an "
            f"inplace operation: [torch.{kind} [3, 3]] is at version 1; expected version 0"
        )
    from gradcli.core.autograd import grad

    rng = np.random.default_rng(5)
    q0, k0, v0 = (rng.normal(size=(1, 2, n, 3)) for n in (4, 5, 5))

    def second(qa: np.ndarray, dtype: Any) -> tuple[np.ndarray, np.ndarray]:
        q = Tensor(qa.astype(dtype), requires_grad=True)
        y = AT.scaled_dot_product_attention(q, Tensor(k0.astype(dtype)), Tensor(v0.astype(dtype)))
        (g,) = grad([(y * y).sum()], [q], create_graph=True)
        assert g.node is not None
        (h,) = grad([g[0, 1, 1, 2]], [q])
        return g.data, h.data

    g32, h32 = second(q0, np.float32)
    g64, h64 = second(q0, np.float64)
    np.testing.assert_allclose(g32, g64, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(h32, h64, rtol=1e-3, atol=1e-4)
    eps = 1e-6
    for idx in np.ndindex(q0.shape):
        d = np.zeros_like(q0)
        d[idx] = eps
        fd = (second(q0 + d, np.float64)[0] - second(q0 - d, np.float64)[0])[0, 1, 1, 2]
        assert abs(h64[idx] - fd / (2 * eps)) < 1e-6


def test_past_the_kernels_bound_of_blocks_the_composed_nodes_compute(monkeypatch: Any) -> None:
    """More (batch, head, query block)s than `flash32._MAX_BLOCKS`: the composed nodes give the
    float32 gradients (float64's to float32 rounding), not the kernel's loop."""
    from gradcli.core.autograd import backward
    from gradcli.ops import flash32 as FL

    rng = np.random.default_rng(9)
    q0, k0, v0 = (rng.normal(size=(2, 3, n, 8)) for n in (40, 7, 7))
    assert FL.backward_fits(q0.shape)
    monkeypatch.setattr(FL, "_MAX_BLOCKS", 11)  # 2 x 3 x 2 blocks: one too many
    assert not FL.backward_fits(q0.shape)
    grads = {}
    for dt in (np.float32, np.float64):
        ts = [Tensor(a.astype(dt), requires_grad=True) for a in (q0, k0, v0)]
        y = AT.scaled_dot_product_attention(*ts, is_causal=True)
        backward([(y * y).sum()])
        grads[dt] = [t.grad.data for t in ts]  # type: ignore[union-attr]
    for a, b in zip(grads[np.float32], grads[np.float64]):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)


def test_float32_module_gradients_are_pytorchs_bits() -> None:
    """nn.MultiheadAttention (need_weights True and False, cross-attention with a padding
    mask), TransformerEncoderLayer (causal) and three Adam steps of TransformerDecoderLayer in
    float32 training mode: every gradient PyTorch 2.13's to the bit (`data/attention/
    modules_float32.py` prints a float64 fingerprint of each gradient, which a last-bit change
    of any element moves by about 1e-8 relative, and its first elements)."""
    got = run((DATA / "modules_float32.py").read_text(), "modules_float32.py")
    want = (DATA / "modules_float32.out").read_text()
    assert NUMBER.sub("#", got) == NUMBER.sub("#", want)
    a = np.array([float(v) for v in NUMBER.findall(want)])
    b = np.array([float(v) for v in NUMBER.findall(got)])
    np.testing.assert_allclose(b, a, rtol=1e-12, atol=0)


def test_the_kernels_sgemm_calls_are_mkls() -> None:
    """`ops.flash32`'s rules for how MKL's sgemm applies alpha and beta, against MKL's own
    `sgemm_` called as the backward kernel calls it (`data/attention/record_flash32_sgemm.py`:
    ordinary shapes and MKL's narrow paths: a head size of 1, one key, one query row), every
    element equal. (One query row with a head size of 1 at once is not among them: its
    grad_q and forward take paths not mirrored, see the README.)"""
    import importlib.util

    from gradcli.ops import flash32 as FL

    spec = importlib.util.spec_from_file_location(
        "record_flash32_sgemm", DATA / "record_flash32_sgemm.py"
    )
    assert spec is not None and spec.loader is not None
    rec = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rec)
    want = np.load(DATA / "flash32_sgemm.npz")
    for i, c in enumerate(rec.cases()):
        a = c["alpha"]
        got = {
            "attn": FL._scaled_nt(c["q"], c["k"], a),
            "dv": FL._add_tn(c["dv"], c["attn"], c["go"], np.float32(1)),
            "dq": FL._scaled_nn(c["ga"], c["k"], a),
            "dk": FL._add_tn(c["dk"], c["ga"], c["q"], a),
        }
        for name, g in got.items():
            np.testing.assert_array_equal(g, want[f"{i}_{name}"], err_msg=f"case {i} {name}")


def test_anomaly_mode_keeps_the_kernels_gradients_and_names_its_nan() -> None:
    """Under detect_anomaly the kernel's gradients are the same bits (PyTorch's numbers do not
    change in anomaly mode), and a nan in them is reported with PyTorch's words and node."""
    text = (
        "torch.manual_seed(0)\n"
        "q = torch.randn(1, 2, 3, 4, requires_grad=True)\n"
        "k = torch.randn(1, 2, 3, 4)\nv = torch.randn(1, 2, 3, 4)\n"
        "F.scaled_dot_product_attention(q, k, v, is_causal=True).sum().backward()\n"
        "plain = q.grad.clone()\nq.grad = None\n"
        "with torch.autograd.detect_anomaly():\n"
        "    F.scaled_dot_product_attention(q, k, v, is_causal=True).sum().backward()\n"
        "print(torch.equal(plain, q.grad), plain[0, 0, 0])\n"
        "q2 = q.detach().clone()\nq2[0, 0, 1, 1] = float('nan')\nq2.requires_grad_()\n"
        "with torch.autograd.detect_anomaly():\n"
        "    try:\n"
        "        F.scaled_dot_product_attention(q2, k, v).sum().backward()\n"
        "    except RuntimeError as e:\n"
        "        print(e)\n"
    )
    assert out(text) == (
        "True tensor([ 1.6083e-09,  5.5324e-09, -4.1926e-09, -1.9344e-09])\n"
        "Function 'ScaledDotProductFlashAttentionForCpuBackward0' returned nan values in its "
        "0th output.\n"
    )
