import torch

w = torch.tensor([0.25, -1.5], requires_grad=True)
loss = (w ** 2).sum()
loss.backward()
print(f"loss = {loss.item():.4f}")
print(f"loss = {loss:.3f}")
print(f"loss = {loss}")
print(f"grad = {w.grad}")
print(f"grad norm = {w.grad.norm():.5f}")
print("loss: {:.2e}".format(loss.item()))
print("loss: %.6f" % loss.item())
print(f"{w.grad[0].item()=}")
try:
    print(f"{w.grad:.2f}")
except TypeError as e:
    print("TypeError:", e)
try:
    print(w.item())
except RuntimeError as e:
    print("RuntimeError:", e)
print(f"{w.detach().tolist()}")
print(f"{w.requires_grad!r} {w.dtype} {tuple(w.shape)}")
