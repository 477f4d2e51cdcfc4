# Tangent propagation: penalize how fast a small model's output moves along an input direction.
# The directional derivative comes from forward-mode AD (torch.autograd.forward_ad), and the
# penalty is trained with ordinary backward(), so the tangent must keep its graph to the weights.
import torch
import torch.autograd.forward_ad as fwAD

torch.manual_seed(0)
W1 = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
b1 = torch.zeros(4, dtype=torch.float64, requires_grad=True)
W2 = torch.randn(1, 4, dtype=torch.float64, requires_grad=True)
x = torch.randn(5, 3, dtype=torch.float64)
direction = torch.randn(5, 3, dtype=torch.float64)


def model(inp):
    h = torch.tanh(inp @ W1.t() + b1)
    return (h @ W2.t()).squeeze(-1)


with fwAD.dual_level():
    dual_x = fwAD.make_dual(x, direction)
    out = model(dual_x)
    value, jvp = fwAD.unpack_dual(out)
    print("jvp:", jvp)
    print("jvp.grad_fn:", type(jvp.grad_fn).__name__)
    penalty = (jvp ** 2).mean()
    penalty.backward()

print(f"penalty: {penalty.item():.6f}")
print("W1.grad:", W1.grad)
print("b1.grad:", b1.grad)
print("W2.grad:", W2.grad)

# A linear layer on its own: the tangent of x @ W.T + b is direction @ W.T, but PyTorch's
# formula also multiplies the input by W's (zero) tangent, so the result is a sum.
lin = torch.nn.Linear(3, 2).double()
with fwAD.dual_level():
    y = lin(fwAD.make_dual(x, direction))
    t = fwAD.unpack_dual(y).tangent
    print(type(t.grad_fn).__name__, t.requires_grad)
    t.sum().backward()
print(lin.weight.grad)
print(lin.bias.grad)

# The input itself requires grad: scaling or dividing by a constant keeps a (zero) path to it.
inp = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(inp, torch.tensor([1.0, 1.0, -1.0]))
    for name, r in (("times 3", d * 3), ("over 4", d / 4), ("plus 1", d + 1)):
        tan = fwAD.unpack_dual(r).tangent
        print(name, tan, tan.grad_fn is not None)
    tan = fwAD.unpack_dual(d * 3).tangent
    tan.sum().backward()
print("inp.grad:", inp.grad)
