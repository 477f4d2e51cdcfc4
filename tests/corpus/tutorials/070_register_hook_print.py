import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
h = x * 2
h.register_hook(lambda grad: print("grad at h:", grad))
y = (h ** 2).sum()


def report(grad):
    print("grad at x:", grad)


handle = x.register_hook(report)
y.backward()
print(x.grad)

handle.remove()
x.grad = None
(x * 4).sum().backward()
print(x.grad)
