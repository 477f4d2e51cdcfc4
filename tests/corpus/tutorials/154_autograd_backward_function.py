import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor(0.5, requires_grad=True)
y1 = x * w
y2 = (x ** 2).sum()

torch.autograd.backward([y1, y2], [torch.ones(3), torch.tensor(0.1)])
print(x.grad, w.grad)

x.grad = None
w.grad = None
z = (x * w).sum()
z.backward(inputs=[w])
print(x.grad, w.grad)

q = (x * w).sum()
torch.autograd.backward(q, inputs=x)
print(x.grad, w.grad)
