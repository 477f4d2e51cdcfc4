"""nan_to_num replaces each element by its own value's rule (PyTorch 2.13's kernel): a NaN
replaced by a `nan` that overflows the dtype is inf, and stays inf (it is not then the
`posinf` of an infinity); replacements beyond the dtype's range are +-inf, not its max."""

import numpy as np

from gradcli.ops.elementwise import _nan_to_num_fwd

NAN, INF = float("nan"), float("inf")


def test_replacements_do_not_chain():
    x = np.array([NAN, INF, -INF, 2.0], dtype=np.float32)
    out = _nan_to_num_fwd(x, nan=1e39, posinf=-1e39, neginf=7.0)
    # PyTorch: tensor([inf, -inf, 7., 2.])
    assert out.dtype == np.float32
    assert out.tolist() == [INF, -INF, 7.0, 2.0]


def test_out_of_range_replacement_is_inf():
    x = np.array([NAN, INF], dtype=np.float16)
    # PyTorch: torch.nan_to_num(x, nan=1e6) is tensor([inf, 65504.], dtype=torch.float16)
    assert _nan_to_num_fwd(x, nan=1e6).tolist() == [INF, 65504.0]
    x = np.array([NAN, -INF], dtype=np.float64)
    assert _nan_to_num_fwd(x, nan=1e309).tolist() == [INF, -np.finfo(np.float64).max]


def test_defaults():
    x = np.array([NAN, INF, -INF, -3.5], dtype=np.float32)
    big = float(np.finfo(np.float32).max)
    assert _nan_to_num_fwd(x).tolist() == [0.0, big, -big, -3.5]
