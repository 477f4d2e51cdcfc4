"""Record PyTorch's float32 erf, erfc, atan, tan, log2, log10, asin, acos and (oneDNN's) gelu
bits on an AVX2 processor without AVX-512 (AMD EPYC) for tests/ops/test_mklsse32.py:

    OMP_NUM_THREADS=1 /work/torchenv/bin/python tests/ops/data/record_mklsse32.py

writes mklsse32_bits.json beside this file: per op the SHA-256 of the output bits of
tests/ops/mklsse32_inputs.inputs(op) and a sample of them (base64)."""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import json
from pathlib import Path

import torch

HERE = Path(__file__).parent
spec = importlib.util.spec_from_file_location("inputs", HERE.parent / "mklsse32_inputs.py")
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)

assert torch.backends.cpu.get_cpu_capability() == "AVX2", "record on an AVX2-only machine"
torch.set_num_threads(1)
FUNCS = {
    "erf": torch.erf,
    "erfc": torch.erfc,
    "atan": torch.atan,
    "tan": torch.tan,
    "log2": torch.log2,
    "log10": torch.log10,
    "asin": torch.asin,
    "acos": torch.acos,
    "gelu": torch.nn.functional.gelu,
}
out = {}
for op in mod.OPS:
    x = mod.inputs(op)
    bits = mod.canonical_bits(FUNCS[op](torch.from_numpy(x)).numpy())
    sample = bits[mod.SAMPLE]
    out[op] = {
        "sha256": hashlib.sha256(bits.tobytes()).hexdigest(),
        "sample": base64.b64encode(sample.astype("<u4").tobytes()).decode(),
    }
(HERE / "mklsse32_bits.json").write_text(json.dumps(out, indent=1) + "\n")
print("wrote", HERE / "mklsse32_bits.json")
