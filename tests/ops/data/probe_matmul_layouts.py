"""A random probe of matrix products in many shapes and layouts (transposed, sliced, strided
rows and columns, one row or column, batches, addmm, F.linear, einsum, the weight gradients
of nn.Linear through slices and torch.cat), run by PyTorch and by gradcli, compared bit for bit
(each result's `tolist()`), the share of equal results printed per layout:

    python tests/ops/data/probe_matmul_layouts.py write f32 SEED PER prog.py
    OMP_NUM_THREADS=1 /work/torchenv/bin/python prog.py > torch.out
    gradcli run --time-limit 600 prog.py > gradcli.out
    python tests/ops/data/probe_matmul_layouts.py compare torch.out gradcli.out

(f64 for float64; PER cases a layout). A measuring tool, not a test."""

import collections
import random
import sys


def R(*s):
    return "torch.randn(" + ", ".join(map(str, s)) + ")"


LAYOUTS = {
    "nn": lambda m, k, n: f"{R(m, k)} @ {R(k, n)}",
    "tn": lambda m, k, n: f"{R(k, m)}.t() @ {R(k, n)}",
    "nt": lambda m, k, n: f"{R(m, k)} @ {R(n, k)}.t()",
    "tt": lambda m, k, n: f"{R(k, m)}.t() @ {R(n, k)}.t()",
    "slx": lambda m, k, n: f"{R(m, k + 1)}[:, 1:] @ {R(k, n)}",
    "sly": lambda m, k, n: f"{R(m, k)} @ {R(k, n + 1)}[:, 1:]",
    "row_strided": lambda m, k, n: f"{R(k, 2)}[:, 1:].t() @ {R(k, n)}",
    "row_strided_sly": lambda m, k, n: f"{R(k, 2)}[:, 1:].t() @ {R(k, n + 2)}[:, 1:-1]",
    "row": lambda m, k, n: f"{R(1, k)} @ {R(k, n)}",
    "row_sly": lambda m, k, n: f"{R(1, k)} @ {R(k, n + 1)}[:, 1:]",
    "row_t": lambda m, k, n: f"{R(k, 1)}.t() @ {R(k, n)}",
    "row_nt": lambda m, k, n: f"{R(1, k)} @ {R(n, k)}.t()",
    "col": lambda m, k, n: f"{R(m, k)} @ {R(k, 1)}",
    "col_strided": lambda m, k, n: f"{R(m, k)} @ {R(k, 3)}[:, 1:2]",
    "col_t": lambda m, k, n: f"{R(k, m)}.t() @ {R(k, 1)}",
    "col_slx": lambda m, k, n: f"{R(m, k + 1)}[:, 1:] @ {R(k, 1)}",
    "col_slx_t": lambda m, k, n: f"{R(k, m + 1)}[:, 1:].t() @ {R(k, 1)}",
    "mv": lambda m, k, n: f"{R(m, k)} @ {R(k)}",
    "mv_t": lambda m, k, n: f"{R(k, m)}.t() @ {R(k)}",
    "mv_tall": lambda m, k, n: f"{R(m * 40, 1 + k % 7)} @ {R(1 + k % 7)}",
    "mv_tall_t": lambda m, k, n: f"{R(m * 40, 1 + k % 7)}.t() @ {R(m * 40)}",
    "vm": lambda m, k, n: f"{R(k)} @ {R(k, n)}",
    "vm_t": lambda m, k, n: f"{R(k)} @ {R(n, k)}.t()",
    "k1": lambda m, k, n: f"{R(m, 1)} @ {R(1, n)}",
    "expand": lambda m, k, n: f"{R(m, 1)}.expand({m},{k}) @ {R(k, n)}",
    "bmm": lambda m, k, n: f"torch.bmm({R(3, m, k)}, {R(3, k, n)})",
    "bmm_b1": lambda m, k, n: f"torch.bmm({R(1, m, k)}, {R(1, k, n)})",
    "bmm_row": lambda m, k, n: f"torch.bmm({R(3, 1, k)}, {R(3, k, n)})",
    "bmm_col": lambda m, k, n: f"torch.bmm({R(3, m, k)}, {R(3, k, 1)})",
    "bmm_t": lambda m, k, n: f"torch.bmm({R(3, k, m)}.transpose(1, 2), {R(3, k, n)})",
    "mat3_2": lambda m, k, n: f"{R(2, m, k)} @ {R(k, n)}",
    "addmm": lambda m, k, n: f"torch.addmm({R(n)}, {R(m, k)}, {R(k, n)})",
    "addmm_t": lambda m, k, n: f"torch.addmm({R(n)}, {R(m, k)}, {R(n, k)}.t())",
    "linear": lambda m, k, n: f"torch.nn.functional.linear({R(m, k)}, {R(n, k)}, {R(n)})",
    "linear_nob": lambda m, k, n: f"torch.nn.functional.linear({R(m, k)}, {R(n, k)})",
    "linear_slx": lambda m, k, n: (
        f"torch.nn.functional.linear({R(m, k + 1)}[:, 1:], {R(n, k)}, {R(n)})"
    ),
    "einsum_mm": lambda m, k, n: f"torch.einsum('ij,jk->ik', {R(m, k)}, {R(k, n)})",
    "einsum_bmm": lambda m, k, n: f"torch.einsum('bij,bjk->bik', {R(2, m, k)}, {R(2, k, n)})",
    "einsum_vm": lambda m, k, n: f"torch.einsum('i,ij->j', {R(k)}, {R(k, n)})",
    "bigk": lambda m, k, n: f"{R(m, k * 9 + 400)} @ {R(k * 9 + 400, n)}",
    "bigk_t": lambda m, k, n: f"{R(k * 9 + 400, m)}.t() @ {R(k * 9 + 400, n)}",
}

GRAD = {
    # the weight gradient of Linear(k, 1) through a slice / cat
    "g_lin1_slice": lambda m, k, n: (
        f"x = {R(m, k + 1)}[:, 1:]\nw = torch.randn(1, {k}, requires_grad=True)\n"
        f"(torch.nn.functional.linear(x, w) * {R(m, 1)}).sum().backward()\nr = w.grad"
    ),
    "g_lin1_cat": lambda m, k, n: (
        f"x = torch.cat([{R(m, 1)}, {R(m, k - 1 if k > 1 else 1)}], 1)\n"
        "w = torch.randn(1, x.shape[1], requires_grad=True)\n"
        f"(torch.nn.functional.linear(x, w) * {R(m, 1)}).sum().backward()\nr = w.grad"
    ),
    "g_lin_slice": lambda m, k, n: (
        f"x = {R(m, k + 1)}[:, 1:]\nw = torch.randn({n}, {k}, requires_grad=True)\n"
        f"(torch.nn.functional.linear(x, w) * {R(m, n)}).sum().backward()\nr = w.grad"
    ),
    "g_lin1_in": lambda m, k, n: (
        f"x = torch.randn({m}, {k}, requires_grad=True)\n"
        f"w = torch.randn(1, {k}, requires_grad=True)\n"
        f"(torch.nn.functional.linear(x, w) * {R(m, 1)}).sum().backward()\n"
        "r = torch.cat([x.grad.reshape(-1), w.grad.reshape(-1)])"
    ),
    "g_cat_out": lambda m, k, n: (
        f"x = {R(m, k)}\nw = torch.randn({n}, {k}, requires_grad=True)\n"
        f"y = torch.cat([x @ w.t(), {R(m, 1)}], 1)\n"
        f"(y[:, :-1] * {R(m, n)}).sum().backward()\nr = w.grad"
    ),
}


def write(dtype: str, seed: int, per: int, out: str) -> None:
    rnd = random.Random(seed)
    lines = ["import torch", f"torch.manual_seed({seed})"]
    if dtype == "f64":
        lines.append("torch.set_default_dtype(torch.float64)")
    for name, f in {**LAYOUTS, **GRAD}.items():
        for i in range(per):
            m = rnd.choice([2, 3, 4, 5, 7, 8, 16, 17, 31, 64, rnd.randint(2, 130)])
            n = rnd.choice([2, 3, 4, 5, 7, 8, 16, 17, 31, 64, rnd.randint(2, 130)])
            k = rnd.choice([1, 2, 3, 8, 15, 16, 17, 33, 100, rnd.randint(1, 400)])
            code = f(m, k, n)
            lines.append(code if "\nr = " in code else f"r = {code}")
            lines.append(f"print({name!r}, {i}, r.tolist())")
    with open(out, "w") as fh:
        fh.write("\n".join(lines) + "\n")


def _load(path: str) -> dict:
    out = {}
    with open(path) as fh:
        for line in fh:
            name, i, rest = line.split(" ", 2)
            out[(name.strip("'"), int(i))] = rest.strip()
    return out


def compare(theirs: str, ours: str) -> None:
    a, b = _load(theirs), _load(ours)
    total, equal = collections.Counter(), collections.Counter()
    for key, v in a.items():
        total[key[0]] += 1
        equal[key[0]] += b.get(key) == v
    for name in total:
        flag = "" if equal[name] == total[name] else "  <--"
        print(f"{name:18s} {equal[name]:3d}/{total[name]:3d}{flag}")
    print("TOTAL", sum(equal.values()), "/", sum(total.values()))


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
    else:
        compare(sys.argv[2], sys.argv[3])
