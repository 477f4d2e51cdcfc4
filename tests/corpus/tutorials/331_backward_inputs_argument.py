import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor(0.5, requires_grad=True)
x = torch.tensor([3.0, 4.0])
loss = ((w * x).sum() + b) ** 2

loss.backward(inputs=[w], retain_graph=True)
print(w.grad, b.grad)
loss.backward(inputs=b)
print(w.grad, b.grad)

h = w * 2
out = (h * h).sum()
out.backward(inputs=[h])
print(h.grad, w.grad)
