import torch

torch.manual_seed(0)
x = torch.randn(3, 2)
W = torch.randn(2, 2, requires_grad=True)
trunk = torch.tanh(x @ W)
loss1 = trunk.pow(2).mean()
loss2 = trunk.sum()

loss1.backward(retain_graph=True)
g1 = W.grad.clone()
loss2.backward()
print(W.grad)

W.grad = None
trunk = torch.tanh(x @ W)
(trunk.pow(2).mean() + trunk.sum()).backward()
print(W.grad)
print(torch.allclose(W.grad - g1, W.grad - g1))
print(g1)
