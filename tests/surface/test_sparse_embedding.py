"""`sparse=True` (nn.Embedding, F.embedding, nn.EmbeddingBag, F.embedding_bag): PyTorch's weight
gradient is then a sparse COO tensor (printed as indices and values; Adam refuses it). gradcli
computes it for embedding (`core.sparse`, tests/surface/test_sparse_grad.py) and refuses it
for embedding_bag where it would be computed; the lookups that compute none (no grad mode, a
frozen weight) run."""

from __future__ import annotations

import pytest

from gradcli.base.errors import NotSupported
from gradcli.lang.program import parse


def run(text: str) -> str:
    return "".join(parse("import torch\nimport torch.nn as nn\n" + text, "t.py").run().output)


EMBEDDINGS = [
    "m = nn.Embedding(10, 3, sparse=True)\ny = m(idx)",
    "w = torch.randn(10, 3, requires_grad=True)\ny = torch.nn.functional.embedding(idx, w, "
    "sparse=True)",
]
BAGS = [
    "m = nn.EmbeddingBag(10, 3, mode='sum', sparse=True)\ny = m(idx.view(1, -1))",
    "w = torch.randn(10, 3, requires_grad=True)\ny = torch.nn.functional.embedding_bag("
    "idx.view(1, -1), w, sparse=True)",
]
LOOKUPS = EMBEDDINGS + BAGS


@pytest.mark.parametrize("lookup", BAGS)
def test_a_sparse_bag_gradient_is_refused(lookup: str) -> None:
    with pytest.raises(NotSupported, match=r"sparse gradients \(sparse=True\)"):
        run(f"idx = torch.tensor([7, 1, 3])\n{lookup}\ny.sum().backward()\n")


@pytest.mark.parametrize("lookup, weight", zip(EMBEDDINGS, ["m.weight", "w"]))
def test_a_sparse_embedding_gradient_is_sparse(lookup: str, weight: str) -> None:
    out = run(
        f"idx = torch.tensor([7, 1, 3])\n{lookup}\ny.sum().backward()\n"
        f"g = {weight}.grad\nprint(g.is_sparse, g._indices().tolist())\n"
    )
    assert out == "True [[7, 1, 3]]\n"


@pytest.mark.parametrize("lookup", LOOKUPS)
def test_lookups_without_a_gradient_run(lookup: str) -> None:
    out = run(
        "torch.manual_seed(0)\n"
        "idx = torch.tensor([7, 1, 3])\n"
        "with torch.no_grad():\n" + "".join(f"    {line}\n" for line in lookup.split("\n")) + ""
        "print(y.shape, y.requires_grad)\n"
    )
    assert out.endswith("False\n")


def test_a_frozen_sparse_embedding_runs_and_keeps_its_repr() -> None:
    out = run(
        "m = nn.Embedding(10, 3, sparse=True)\n"
        "m.weight.requires_grad_(False)\n"
        "print(m, m(torch.tensor([1, 2])).shape)\n"
    )
    assert out == "Embedding(10, 3, sparse=True) torch.Size([2, 3])\n"
