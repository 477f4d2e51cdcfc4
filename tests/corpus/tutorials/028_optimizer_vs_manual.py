import torch

w1 = torch.tensor([1.0, -1.0, 2.0], requires_grad=True)
w2 = torch.tensor([1.0, -1.0, 2.0], requires_grad=True)
opt = torch.optim.SGD([w1], lr=0.1)

for _ in range(3):
    opt.zero_grad()
    (w1 ** 2).sum().backward()
    opt.step()

    (w2 ** 2).sum().backward()
    with torch.no_grad():
        w2.sub_(0.1 * w2.grad)
    w2.grad.zero_()

print(w1)
print(w2)
print(torch.allclose(w1, w2))
