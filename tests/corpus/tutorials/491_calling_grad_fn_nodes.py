import torch
# Walking the graph by hand: each node's backward applied to the gradient of its output.
x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
w = torch.tensor([1.5, -2.0, 0.25], requires_grad=True)
b = torch.tensor(0.1, requires_grad=True)
h = x * w
s = torch.sigmoid(h)
loss = (s * s).sum()

g = torch.tensor(1.0)
node = loss.grad_fn
print(node.name())
g_sq = node(g)
print("SumBackward0 ->", g_sq)
sq = node.next_functions[0][0]
g_s = sq(g_sq)
print("MulBackward0 ->", g_s)
g_s = g_s[0] + g_s[1]
sig = sq.next_functions[0][0]
g_h = sig(g_s)
print("SigmoidBackward0 ->", g_h)
mul = sig.next_functions[0][0]
gx, gw = mul(g_h)
print("by hand:", gx, gw)
loss.backward(retain_graph=True)
print("autograd:", x.grad, w.grad)
print(torch.allclose(gx, x.grad), torch.allclose(gw, w.grad))
with torch.no_grad():
    print(mul(torch.ones(3)))
z = x.exp().log()
print(z.grad_fn(torch.ones(3)))
print(z.grad_fn.next_functions[0][0](torch.full((3,), 2.0)))
q = (x / w + b).pow(2)
print(q.grad_fn(torch.ones(3)))
a = q.grad_fn.next_functions[0][0]
print(a.name(), a(torch.ones(3)))
y = (x * w).sum()
y.backward()
try:
    y.grad_fn.next_functions[0][0](torch.ones(3))
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])
try:
    s.grad_fn(torch.ones(3), torch.ones(3))
except TypeError as e:
    print("TypeError:", e)
