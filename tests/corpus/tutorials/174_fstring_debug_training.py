import torch

w = torch.tensor([0.0, 0.0], requires_grad=True)
X = torch.tensor([[1.0, 2.0], [2.0, 0.5], [0.0, 1.0]])
y = torch.tensor([5.0, 3.0, 2.0])


@torch.no_grad()
def evaluate(weights):
    return ((X @ weights - y) ** 2).mean().item()


history = []
for epoch in range(4):
    loss = ((X @ w - y) ** 2).mean()
    loss.backward()
    w.data -= 0.1 * w.grad.data
    w.grad.data.zero_()
    history.extend([round(loss.item(), 4)])
    print(f"{epoch=} {loss=}")

final = evaluate(w)
print(f"{final=:.5f}")
print(f"{w.data=}")
assert history[-1] < history[0], "loss should go down"
print(list(reversed(history)))
