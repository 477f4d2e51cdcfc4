import torch

x = torch.tensor([-1.5, 0.25, 2.0], requires_grad=True)
y = x * 3
print(type(y))
print(isinstance(y, torch.Tensor), isinstance(3.0, float), isinstance(len(y), int))
print(type(x.sum().item()))

vals = x.tolist()
print(abs(vals[0]), round(vals[1], 1), round(2.675, 2), round(7.5), round(-0.5))
print(min(vals), max(vals), min(3, 1, 2), max([4, 9, 2]))
print(list(reversed(vals)))
print(sorted(vals, reverse=True))
print(list(zip(["a", "b", "c"], vals)))
for i, v in enumerate(vals, start=1):
    print(i, v)
print(len(x), sum([1, 2, 3]), int(3.9), float(2), str(5) + "!", bool(0))
print(divmod(17, 5), 17 // 5, 17 % 5, -7 // 2, 2 ** 10)
print(list(range(10, 0, -3)))
