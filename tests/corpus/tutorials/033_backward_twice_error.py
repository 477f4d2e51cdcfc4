import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x.exp() * 2).sum()
y.backward()
print(x.grad)

try:
    y.backward()
except RuntimeError as e:
    print("RuntimeError:", e)

# keeping the graph allows a second pass, and gradients accumulate
z = (x.exp() * 2).sum()
z.backward(retain_graph=True)
z.backward()
print(x.grad)
