import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, -1.0], requires_grad=True)
l1 = (a * b).sum()
l2 = (a ** 2).mean()

torch.autograd.backward([l1, l2])
print(a.grad, b.grad)

a.grad = None
b.grad = None
y = a * b
torch.autograd.backward(y, grad_tensors=torch.tensor([1.0, 10.0]))
print(a.grad, b.grad)

a.grad.zero_()
b.grad.zero_()
p, q = a * 2, b * 3
torch.autograd.backward([p, q], [torch.ones(2), torch.full((2,), 0.5)])
print(a.grad, b.grad)
