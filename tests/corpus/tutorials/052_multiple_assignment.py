import torch

a = b = torch.zeros(2)
print(a is b)
a += 1  # in place: b sees it too
print(b)

x, y = torch.tensor(2.0, requires_grad=True), torch.tensor(5.0, requires_grad=True)
x, y = y, x  # swap names
z = x * 10 + y
z.backward()
print(x.grad, y.grad)

(p, q), r = (1, 2), 3
print(p, q, r)
first, *rest = [4, 5, 6]
print(first, rest)

counter = 0
counter += 5
counter -= 2
counter *= 3
counter //= 2
counter **= 2
print(counter)

t = torch.tensor([1.0, 2.0])
t *= 3
t /= 2
t -= 0.5
print(t)
