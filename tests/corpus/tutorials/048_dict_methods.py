import torch

params = {
    "w": torch.tensor([1.0, 2.0], requires_grad=True),
    "b": torch.tensor(0.5, requires_grad=True),
}
x = torch.tensor([3.0, -1.0])
out = (params["w"] * x).sum() + params["b"]
out.backward()

for name, p in params.items():
    print(name, p.grad)

print(list(params.keys()))
print(len(params), "w" in params, "v" in params)
history = {}
history.setdefault("loss", []).append(out.item())
history["loss"].append(out.item() / 2)
history.update({"epochs": 2})
print(history)
print(history.get("acc", "missing"))
print(history.pop("epochs"), history)
grads = dict((k, v.grad.tolist()) for k, v in params.items())
print(grads)
print([v.shape for v in params.values()])
