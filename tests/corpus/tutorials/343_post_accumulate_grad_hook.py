import torch

w = torch.tensor([1.0, -1.0, 2.0], requires_grad=True)
lr = 0.1


def sgd_in_hook(p):
    with torch.no_grad():
        p -= lr * p.grad
    p.grad = None


h = w.register_post_accumulate_grad_hook(sgd_in_hook)
for _ in range(3):
    loss = (w ** 2).sum()
    loss.backward()
    print(w, w.grad)
h.remove()
(w ** 2).sum().backward()
print(w.grad)

y = w * 2
try:
    y.register_post_accumulate_grad_hook(lambda t: None)
except RuntimeError as e:
    print(e)
