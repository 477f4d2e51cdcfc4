import torch

w = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)

for step in range(3):
    loss = (w * w).sum()
    loss.backward()
    print(step, w.grad)

# gradients add up until they are zeroed
w.grad.zero_()
print(w.grad)
loss = (3 * w).sum()
loss.backward()
print(w.grad)
