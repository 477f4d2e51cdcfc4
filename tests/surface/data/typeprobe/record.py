"""What PyTorch 2.13 does when a program passes a Python number, a str or a list where a
function of torch / torch.nn.functional / torch.linalg / torch.special wants its tensor
(`torch.digamma(2.0)`, `F.one_hot(3, 5)`, `torch.sum('a')`): for every such name gradcli has,
each of the calls in `FORMS`, run as a small program that prints the outcome.

Usage (needs torch 2.13; gradcli is imported from this checkout for the list of names):

    /work/torchenv/bin/python tests/surface/data/typeprobe/record.py

writes `expect.json` beside this file: `{"torch.digamma(2.0)": "TypeError: digamma(): ...",
...}` (an outcome is `ok` when the call returns, else the exception's type and words).
`tests/surface/test_type_probe.py` runs the same programs with gradcli (no torch needed).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]

# the arguments of each probed call: the wrong value in the tensor's place, alone and
# before a tensor (a binary function's other input)
FORMS = ("2.0", "'a'", "[1.0, 2.0]", "3, 5", "2.0, t", "t, 'a'", "t, [1.0, 2.0]")
# the namespaces probed, as a program spells them
PREFIXES = ("torch.", "F.", "torch.linalg.", "torch.special.")
# names whose call does something other than compute (state, the program's own run)
SKIP = {
    "torch.manual_seed",
    "torch.seed",
    "torch.initial_seed",
    "torch.set_default_dtype",
    "torch.set_default_tensor_type",
    "torch.set_grad_enabled",
    "torch.set_printoptions",
    "torch.set_rng_state",
    "torch.use_deterministic_algorithms",
    "torch.set_anomaly_enabled",
    "torch.set_float32_matmul_precision",
    "torch.set_num_threads",
    "torch.compile",
    "torch.load",
    "torch.save",
    "torch.no_grad",
    "torch.enable_grad",
    "torch.inference_mode",
}
HEADER = "import torch\nimport torch.nn.functional as F\nt = torch.ones(2)\n"


def names() -> list[str]:
    """The qualified names probed (`torch.exp`, `F.relu`, `torch.linalg.det`)."""
    sys.path.insert(0, str(ROOT))
    from tests.surface.data.signatures.record import gradcli_callables

    out = []
    for q in sorted(gradcli_callables()):
        if q.startswith("Tensor.") or not q.startswith(PREFIXES) or q in SKIP:
            continue
        if q.startswith(("torch.autograd", "torch.optim", "torch.nn.init", "torch.func")):
            continue
        out.append(q)
    return out


def calls() -> list[str]:
    return [f"{q}({form})" for q in names() for form in FORMS]


def program(call: str) -> str:
    """The program of one probed call: it prints `ok` or the exception's type and words."""
    return (
        HEADER
        + f"try:\n    r = {call}\n    print('ok')\nexcept Exception as e:\n"
        + "    print(type(e).__name__ + ': ' + str(e))\n"
    )


def main() -> None:
    import contextlib
    import importlib
    import io
    import warnings

    import torch
    import torch.nn.functional as F  # noqa: F401

    out = {}
    for call in calls():
        owner, _, attr = call.partition("(")[0].rpartition(".")
        module = importlib.import_module({"F": "torch.nn.functional"}.get(owner, owner))
        if not hasattr(module, attr):
            continue  # a name of gradcli's that PyTorch's namespace has not
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(program(call), "<probe>", "exec"), {})  # noqa: S102 - torch's side
        torch.set_grad_enabled(True)
        out[call] = buf.getvalue().rstrip("\n")
    lines = [f"{json.dumps(k)}: {json.dumps(v)}" for k, v in out.items()]
    (HERE / "expect.json").write_text("{\n" + ",\n".join(lines) + "\n}\n")
    print(f"{len(out)} calls")


if __name__ == "__main__":
    main()
