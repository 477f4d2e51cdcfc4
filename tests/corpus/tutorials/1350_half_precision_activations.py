# Half-precision activations on CPU: the same small network in float16 and bfloat16,
# comparing the outputs and gradients of the usual activation functions.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
x32 = torch.linspace(-6, 6, 40)

for dtype in (torch.float16, torch.bfloat16):
    x = x32.to(dtype).requires_grad_()
    acts = {
        "sigmoid": torch.sigmoid(x),
        "tanh": torch.tanh(x),
        "gelu": F.gelu(x),
        "gelu_tanh": F.gelu(x, approximate="tanh"),
        "silu": F.silu(x),
        "softplus": F.softplus(x),
        "mish": F.mish(x),
        "elu": F.elu(x),
        "logsigmoid": F.logsigmoid(x),
        "hardswish": F.hardswish(x),
    }
    for name, y in acts.items():
        print(dtype, name, y[::7])

    r = torch.rsqrt(x.detach().abs() + 0.5)
    print("rsqrt", r[30:])

    # gradients through a few of them
    w = torch.randn(40).to(dtype)
    for name in ("sigmoid", "tanh", "gelu"):
        x.grad = None
        y = {"sigmoid": torch.sigmoid, "tanh": torch.tanh, "gelu": F.gelu}[name](x)
        y.backward(w)
        print(name, "grad", x.grad[30:])

    logits = (x.detach()[:36] * 0.7).reshape(4, 9).requires_grad_()
    lp = F.log_softmax(logits, dim=1)
    print(lp)
    (lp * w[:36].reshape(4, 9)).sum().backward()
    print(logits.grad)
