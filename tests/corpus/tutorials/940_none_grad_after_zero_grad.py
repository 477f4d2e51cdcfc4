# After optimizer.zero_grad() (set_to_none=True by default since PyTorch 2.0) a parameter's
# .grad is None again: indexing it, iterating it or testing membership fails with Python's
# own words, which tutorials written for older PyTorch run into.
import torch

torch.manual_seed(0)

model = torch.nn.Linear(3, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loss = model(torch.ones(1, 3)).pow(2).sum()
loss.backward()
print(model.weight.grad[0][0:2])
opt.step()
opt.zero_grad()
print(model.weight.grad)

attempts = [
    ("index", lambda: model.weight.grad[0]),
    ("slice", lambda: model.bias.grad[0:1]),
    ("iterate", lambda: [g for g in model.bias.grad]),
    ("membership", lambda: 1.0 in model.bias.grad),
    ("unpack", lambda: tuple(model.bias.grad)),
]
for name, attempt in attempts:
    try:
        attempt()
    except TypeError as e:
        print(f"{name}: TypeError: {e}")

grads = {"w": model.weight.grad}
try:
    grads["w"]["row"]
except TypeError as e:
    print("dict value:", e)
