import torch

square = lambda t: t ** 2
cube = lambda t: t * t * t
f = lambda a, b=2.0: a * b + 1

x = torch.tensor([1.0, 2.0], requires_grad=True)
for name, fn in [("square", square), ("cube", cube), ("affine", f)]:
    x.grad = None
    fn(x).sum().backward()
    print(name, x.grad)

losses = {"a": 0.31, "b": 0.12, "c": 0.57}
best = min(losses, key=lambda k: losses[k])
print("best:", best)
print(sorted(losses.items(), key=lambda kv: kv[1], reverse=True))

(g,) = torch.autograd.grad((lambda t: torch.sin(t).sum())(x), x)
print(g)
