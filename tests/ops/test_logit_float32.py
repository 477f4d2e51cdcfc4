"""float32 logit's last bits as PyTorch 2.13's CPU kernel gives them (explore125): a loop that
is one run of adjacent elements (a contiguous or transposed tensor) takes torch.log's bits
(MKL's vector math on the machine's family: on the AMD family zen4, 7% of inputs a last bit
away from the logarithm rounded once, which gradcli gave); a view walked row by row (a column
slice, a step) runs SLEEF's logf on whole vector steps of each row and the C library's logf
on the rest. The strided digits are checked under the pinned family in corpus 2205."""

from __future__ import annotations

import pytest

from gradcli.lang.program import parse


def out(text: str) -> str:
    return "".join(parse("import torch\n" + text, "t.py").run(dtype="float32").output)


def test_contiguous_logit_on_zen4_is_pytorchs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADCLI_KERNELS", "zen4")
    x = "[0.6340786814689636, 0.455627977848053, 0.8741558790206909, 0.15067976713180542]"
    # recorded on an AMD EPYC (Zen 4) with PyTorch 2.13; the float64 log rounded once gives
    # 0.5497546792030334, -0.1779562532901764, 1.938214659690857, -1.7292793989181519
    want = "[0.5497547388076782, -0.17795626819133759, 1.9382147789001465, -1.7292795181274414]"
    assert out(f"print(torch.logit(torch.tensor({x})).tolist(), end='')") == want


@pytest.mark.parametrize("family", ["zen4", "avx512"])
def test_one_run_logit_is_torch_log_of_the_quotient(
    monkeypatch: pytest.MonkeyPatch, family: str
) -> None:
    monkeypatch.setenv("GRADCLI_KERNELS", family)
    text = (
        "torch.manual_seed(1)\n"
        "p = torch.rand(7, 50)\n"
        "for v in (p, p.t()):\n"
        "    print(torch.equal(torch.logit(v), torch.log(v / (1 - v))), end=' ')\n"
        "print(torch.equal(torch.logit(p[:, 1:]), torch.log(p[:, 1:] / (1 - p[:, 1:]))), end='')\n"
    )
    # (a row-by-row view is not torch.log's: SLEEF's and the C library's logf)
    assert out(text) == "True True False"
