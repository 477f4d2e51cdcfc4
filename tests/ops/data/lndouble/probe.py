# layer_norm gradients taken with create_graph=True (float32): the first-order gradients, their
# grad_fn names, second derivatives through them, printed as sums of bit patterns (one ulp
# anywhere changes a sum). Runs under torch and gradcli alike; record with one thread (the
# weight's and bias's gradients are summed over rows per thread in PyTorch's kernel):
#   OMP_NUM_THREADS=1 /work/torchenv/bin/python probe.py > expected.txt
import torch
import torch.nn.functional as F


def bits(t):
    return t.contiguous().view(torch.int32).to(torch.int64).sum().item()


torch.manual_seed(0)
shapes = [
    ((4, 7), (7,)),
    ((3, 2, 33), (33,)),
    ((5, 6, 4), (6, 4)),
    ((2, 40), (40,)),
    ((1, 9), (9,)),
    ((6, 3), (3,)),
    ((2, 3, 17), (17,)),
    ((8, 64), (64,)),
]
for shape, ns in shapes:
    for affine in ("wb", "w", "none"):
        x = torch.randn(*shape, requires_grad=True)
        w = torch.randn(*ns, requires_grad=True) if affine != "none" else None
        b = torch.randn(*ns, requires_grad=True) if affine == "wb" else None
        c = torch.randn(*shape)
        v = torch.randn(*shape)
        y = F.layer_norm(x, ns, w, b, eps=1e-5 if len(ns) == 1 else 1e-3)
        wrt = [t for t in (x, w, b) if t is not None]
        gs = torch.autograd.grad((y * c).sum(), wrt, create_graph=True)
        names = " ".join(g.grad_fn.name() for g in gs)
        first = " ".join(str(bits(g)) for g in gs)
        s = (gs[0] * v).sum()
        for g in gs[1:]:
            s = s + (g * g).sum()
        second = torch.autograd.grad(s, wrt[:2], allow_unused=True)
        second = " ".join(str(bits(h)) for h in second if h is not None)
        print(shape, affine, names, "|", first, "|", second)
