import torch

w = torch.tensor([[0.5, -0.5], [1.0, 0.0]], requires_grad=True)
x = torch.tensor([1.0, 2.0])
y_true = torch.tensor([1.0, -1.0])

for i in range(3):
    y = w @ x
    loss = ((y - y_true) ** 2).mean()
    loss.backward()
    w.data -= 0.1 * w.grad.data
    w.grad.data.zero_()
    print(i, loss.item())

print(w)
print(w.data)
print(w.data.requires_grad)
