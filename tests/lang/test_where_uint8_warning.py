"""torch.where with a uint8 condition: PyTorch warns once per process (TORCH_WARN_ONCE), not
once per line of the program (fixsparse's list, item 4)."""

from __future__ import annotations

from gradcli.lang.program import parse

PROGRAM = """import torch
x = torch.tensor([1., -2., 3.])
c = torch.tensor([1, 0, 1], dtype=torch.uint8)
for i in range(3):
    print(torch.where(c, x, 0.))
print(torch.where(c, x, 1.))
print(torch.where(c.bool(), x, 1.))
"""


def test_the_uint8_condition_warning_is_given_once() -> None:
    r = parse(PROGRAM, "t.py").run(dtype="float32")
    said = [w for w in r.warnings if "uint8 condition" in str(w)]
    assert len(said) == 1
    assert "".join(r.output).count("tensor([1., 0., 3.])") == 3
