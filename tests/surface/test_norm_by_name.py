"""torch.norm with an order given by name, as PyTorch's torch.norm hands it on: 'fro' over
at most two dims is the vector 2-norm, anything else (`'nuc'`, 'fro' over more dims, a wrong
name) linalg.matrix_norm's, over every dim by default (corpus 1181 holds PyTorch's text)."""

from __future__ import annotations

import numpy as np

from tests.helpers.programs import out


def test_nuclear_norm_and_its_gradient_against_differences() -> None:
    rng = np.random.default_rng(3)
    w = rng.standard_normal((4, 3))
    text = (
        "import torch\n"
        f"W = torch.tensor({w.tolist()!r}, dtype=torch.float64, requires_grad=True)\n"
        "n = torch.norm(W, 'nuc')\n"
        "n.backward()\n"
        "print(n.item())\n"
        "print(W.grad.tolist())\n"
    )
    value, grad = out(text).splitlines()

    def nuc(a: np.ndarray) -> float:
        return float(np.linalg.svd(a, compute_uv=False).sum())

    assert abs(float(value) - nuc(w)) < 1e-12
    h = 1e-6
    fd = np.zeros_like(w)
    for i in range(w.shape[0]):
        for j in range(w.shape[1]):
            e = np.zeros_like(w)
            e[i, j] = h
            fd[i, j] = (nuc(w + e) - nuc(w - e)) / (2 * h)
    assert np.allclose(np.array(eval(grad)), fd, atol=1e-6)


def test_names_matrix_norm_refuses_are_catchable() -> None:
    text = (
        "import torch\n"
        "b = torch.ones(2, 3, 3)\n"
        "for f in (lambda: torch.norm(b, 'max'), lambda: torch.norm(b, 'nuc'),\n"
        "          lambda: torch.norm(b, 'fro', dim=(0, 1, 2))):\n"
        "    try:\n"
        "        f()\n"
        "    except RuntimeError as e:\n"
        "        print(e)\n"
        "print(torch.norm(b, 'fro', dim=(1, 2)).tolist())\n"
    )
    assert out(text).splitlines() == [
        "linalg.matrix_norm: Order max not supported.",
        "linalg.matrix_norm: dim must be a 2-tuple. Got 0 1 2",
        "linalg.matrix_norm: dim must be a 2-tuple. Got 0 1 2",
        "[3.0, 3.0]",
    ]
