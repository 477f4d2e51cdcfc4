import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0], requires_grad=True)
y = (x * w).sum()
accx = y.grad_fn.next_functions[0][0].next_functions[0][0]
accw = y.grad_fn.next_functions[0][0].next_functions[1][0]
accx.register_prehook(lambda go: print("x pre", go))
accw.register_prehook(lambda go: print("w pre", go))
accx.register_hook(lambda gi, go: print("x post", gi, go))
print("grad:")
print(torch.autograd.grad(y, x, retain_graph=True))
print("backward inputs=[x]:")
y.backward(inputs=[x], retain_graph=True)
print(x.grad, w.grad)
print("backward:")
y.backward()
print(x.grad, w.grad)
# temporary registration is lost when the graph dies
z = torch.tensor([1.0], requires_grad=True)
z.expand_as(z).grad_fn.next_functions[0][0].register_hook(lambda gi, go: print("lost?"))
(z * 2).sum().backward()
print(z.grad)
# kept by a name
a = z.expand_as(z).grad_fn.next_functions[0][0]
a.register_hook(lambda gi, go: print("kept", go))
(z * 2).sum().backward()
# post hook returning something
b = torch.tensor([1.0], requires_grad=True)
ab = (b * 1).grad_fn.next_functions[0][0]
ab.register_hook(lambda gi, go: (go[0] * 2,))
try:
    (b * 2).sum().backward()
    print(b.grad)
except Exception as e:
    print(type(e).__name__, e)
c = torch.tensor([1.0], requires_grad=True)
ac = (c * 1).grad_fn.next_functions[0][0]
ac.register_prehook(lambda go: go[0] * 2)
try:
    (c * 2).sum().backward()
    print(c.grad)
except Exception as e:
    print(type(e).__name__, e)
ac2 = (c * 1).grad_fn.next_functions[0][0]
print(ac2 is ac)
h = ac.register_prehook(lambda go: (go[0] * 0,))
print(type(h))
print(ac.variable.grad)
