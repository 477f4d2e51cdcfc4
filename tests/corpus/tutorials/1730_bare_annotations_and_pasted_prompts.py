import torch
import torch.nn as nn

# An annotation without a value stores nothing; on an attribute or an item Python still
# evaluates the object (and the key), so a missing name fails there.
model = nn.Linear(3, 2)
model.scale: float
print("scale stored:", hasattr(model, "scale"))

history = {"loss": []}
history["loss"]: list
print(history)

# A notebook's output prompt pasted along with the code is such an annotation.
try:
    Out[3]: torch.Tensor
except NameError as err:
    print("pasted prompt:", err)


def train_step(w: torch.Tensor) -> torch.Tensor:
    grads: dict  # a local annotation is not evaluated at all
    loss = (w**2).sum() + 3 * w[0]
    loss.backward()
    return w.grad


w = torch.tensor([1.0, -2.0], requires_grad=True)
print(train_step(w))
