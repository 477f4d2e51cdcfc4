"""`did you mean ...?`: only for a slip of the keys, never a different name that happens to
share a suffix (CTCLoss is no BCELoss), a case variant of a name PyTorch has itself
(torch.optim.Optimizer is no torch.optim.optimizer) or another dimension (3d is no 2d)."""

import pytest

from gradcli.base.errors import _edits, suggest

NN = ["BCELoss", "MSELoss", "MultiLabelSoftMarginLoss", "Linear", "ReLU", "CircularPad2d"]


@pytest.mark.parametrize(
    "typed, candidates, hint",
    [
        ("sigmoidd", ["sigmoid", "sin"], "sigmoid"),  # one extra letter
        ("Lienar", NN, "Linear"),  # two neighbours swapped
        ("relu", NN, "ReLU"),  # case: PyTorch has no nn.relu
        ("softmx", ["softmax", "softmin"], "softmax"),
        ("yy", ["y", "x"], "y"),  # short names: one edit is close
        ("los", ["loss", "x"], "loss"),
        ("onehto", ["onehot", "ones"], "onehot"),
        ("CTCLoss", NN, None),  # three letters differ in seven
        ("AdaptiveLogSoftmaxWithLoss", NN, None),
        ("CircularPad3d", NN, None),  # another dimension is another operation
        ("LazyInstanceNorm1d", ["InstanceNorm1d"], None),  # four edits in fourteen
        ("zzz", NN, None),
    ],
)
def test_suggest_only_close_names(typed, candidates, hint):
    got = suggest(typed, candidates)
    assert got == (None if hint is None else f"did you mean `{hint}`?")


def test_a_name_pytorch_has_gets_no_case_variant():
    members = ["optimizer", "SGD", "Adam", "lr_scheduler"]
    assert suggest("Optimizer", members) == "did you mean `optimizer`?"  # a misspelling...
    assert suggest("Optimizer", members, known=True) is None  # ...unless PyTorch has it
    assert suggest("Adma", members) == "did you mean `Adam`?"
    # a name PyTorch has is never taken for a slip of another (its submodule, a neighbour)
    assert suggest("SparseAdam", ["sparse_adam", "Adam"], known=True) is None


def test_meaning_comes_first():
    assert "F.elu" in suggest("elu", ["exp"], meaning=True)


@pytest.mark.parametrize(
    "a, b, n",
    [("", "", 0), ("abc", "abc", 0), ("ab", "ba", 1), ("abc", "", 3), ("kitten", "sitting", 3)],
)
def test_edits(a, b, n):
    assert _edits(a, b) == n == _edits(b, a)


@pytest.mark.parametrize(
    "line, hint",
    [
        ("nn.CTCLoss_is_not_here()", None),  # neither PyTorch's nor close to anything
        ("nn.SyncBatchNorm(3)", None),  # PyTorch's, gradcli lacks it: no BatchNorm guess
        ("torch.func.debug_unwrap", None),  # PyTorch's own name, gradcli lacks it: no guess
        ("torch.sigmoidd(x)", "did you mean `sigmoid`?"),
        ("nn.Lienar(2, 3)", "did you mean `Linear`?"),
    ],
)
def test_the_programs_refusals_hint_only_close_names(line, hint):
    from gradcli.base.errors import GradcliError
    from gradcli.lang.program import parse

    src = f"import torch\nfrom torch import nn\nx = torch.ones(2)\ny = {line}\n"
    with pytest.raises(GradcliError) as e:
        parse(src, "t.py").run(dtype="float32")
    assert e.value.hint == hint
