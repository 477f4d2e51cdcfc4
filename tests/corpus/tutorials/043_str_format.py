import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x * x).sum()
y.backward()

print("y = {}".format(y.item()))
print("grad: {}".format(x.grad))
print("{0} squared sums to {1:.1f}".format(x.tolist(), y.item()))
print("{name}: {val:.3f}".format(name="mean grad", val=x.grad.mean().item()))
print("{:>10}|{:<10}|{:^10}|".format("right", "left", "mid"))
print("{:08.3f}".format(3.14159))
print("{:.2e}".format(0.000123))
print("{:d} of {:d}".format(2, 10))
template = "layer {}: {} params"
for i, n in enumerate([12, 6]):
    print(template.format(i, n))
print("{{literal braces}} {}".format(1))
