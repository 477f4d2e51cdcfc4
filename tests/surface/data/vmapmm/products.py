# float32 products inside torch.func.vmap (and the transforms over it), printed as the sum of
# the results' bit patterns (one ulp anywhere changes it). Runs under torch and gradcli alike:
#   /work/torchenv/bin/python products.py > expected.txt
import torch
import torch.nn.functional as F
from torch.func import grad, hessian, jacfwd, jacrev, vmap


def bits(t):
    return t.contiguous().view(torch.int32).to(torch.int64).sum().item()


torch.manual_seed(2)
for B in (1, 2, 5, 17, 40):
    for k in (1, 3, 31, 100):
        for n in (1, 2, 33):
            W = torch.randn(n, k)
            b = torch.randn(n)
            X = torch.randn(B, k)
            XT = torch.randn(k, B)
            V = torch.randn(B, n)
            X3 = X.reshape(B, 1, k).expand(B, 3, k) * 1.1
            cases = [
                ("linear_b", vmap(F.linear, in_dims=(0, None, None))(X, W, b)),
                ("linear", vmap(F.linear, in_dims=(0, None))(X, W)),
                ("x@Wt", vmap(lambda x, W=W: x @ W.t())(X)),
                ("W@x", vmap(lambda x, W=W: W @ x)(X)),
                ("W@x_dim1", vmap(lambda x, W=W: W @ x, in_dims=1)(XT)),
                ("dot_both", vmap(torch.dot)(X, X * 0.5 + 1)),
                ("dot_left", vmap(torch.dot, in_dims=(0, None))(X, X[0])),
                ("dot_right_dim1", vmap(torch.dot, in_dims=(None, 1))(XT[:, 0], XT)),
                ("mv_vec", vmap(torch.mv, in_dims=(None, 0))(W, X)),
                ("matmul_left", vmap(torch.matmul, in_dims=(0, None))(X, W.t())),
                ("mm_left", vmap(torch.mm, in_dims=(0, None))(X3, W.t())),
                ("mm_both", vmap(torch.mm)(X3, W.t().expand(B, k, n) - 0.5)),
            ]
            print(B, k, n, " ".join(f"{name}={bits(t)}" for name, t in cases))

torch.manual_seed(3)
for B, d, h, o in ((8, 3, 16, 2), (32, 5, 20, 4), (64, 2, 32, 1), (16, 4, 64, 8)):
    W1 = torch.randn(h, d) * 0.5
    b1 = torch.randn(h)
    W2 = torch.randn(o, h) * 0.5
    b2 = torch.randn(o)
    X = torch.randn(B, d)

    def mlp(x, W1=W1, b1=b1, W2=W2, b2=b2):
        return F.linear(torch.tanh(F.linear(x, W1, b1)), W2, b2)

    def mlp_sum(x, mlp=mlp):
        return mlp(x).sum()

    def by_weight(w, x, b1=b1, W2=W2, b2=b2):
        return F.linear(torch.tanh(F.linear(x, w, b1)), W2, b2).sum()

    cases = [
        ("forward", vmap(mlp)(X)),
        ("jacrev", vmap(jacrev(mlp))(X)),
        ("jacfwd", vmap(jacfwd(mlp))(X)),
        ("hessian", vmap(hessian(mlp_sum))(X)),
        ("grad", vmap(grad(mlp_sum))(X)),
        ("per_sample_grad", vmap(grad(by_weight), in_dims=(None, 0))(W1, X)),
    ]
    print(B, d, h, o, " ".join(f"{name}={bits(t)}" for name, t in cases))

# 2-D inputs per element (vmap over minibatches) and batched weights (model ensembles): addmm
# under vmap is add(bias, mm), the bias never fused into the product
torch.manual_seed(5)
for k in (1, 3, 400, 500):
    W = torch.randn(6, k)
    b = torch.randn(6)
    X = torch.randn(4, 5, k)
    Ws = torch.randn(4, 6, k)
    bs = torch.randn(4, 6)
    cases = [
        ("linear_2d", vmap(F.linear, in_dims=(0, None, None))(X, W, b)),
        ("addmm_2d", vmap(lambda x, b=b, W=W: torch.addmm(b, x, W.t()))(X)),
        ("ensemble", vmap(F.linear, in_dims=(None, 0, 0))(X[0], Ws, bs)),
    ]
    print(k, " ".join(f"{name}={bits(t)}" for name, t in cases))
