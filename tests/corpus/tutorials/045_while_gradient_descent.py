import torch

x = torch.tensor([3.0, -2.0], requires_grad=True)
lr = 0.2
loss = torch.tensor(float('inf'))
steps = 0

while loss.item() > 1e-3:
    loss = (x ** 2).sum()
    loss.backward()
    with torch.no_grad():
        x.sub_(lr * x.grad)
        x.grad.zero_()
    steps += 1

print("converged after", steps, "steps")
print(x)
print(loss)
