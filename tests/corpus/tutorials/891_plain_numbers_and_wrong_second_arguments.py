# Notebook cells mixing Python numbers and tensors: which torch calls take plain numbers,
# and what PyTorch says when the second argument has the wrong type.
import torch

print(torch.add(3, 5), torch.sub(10, 4), torch.mul(2.0, 3), torch.div(3, 5))
print(torch.true_divide(7, 2), torch.floor_divide(7, 2), torch.multiply(1.5, 4))
print(torch.add(3, 5).dtype, torch.mul(2, 0.5).dtype, torch.add(2, 3, alpha=10))

w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
calls = {
    "torch.add(w, [1.0, 2.0, 3.0])": lambda: torch.add(w, [1.0, 2.0, 3.0]),
    "torch.mul(w, 'scale')": lambda: torch.mul(w, "scale"),
    "torch.clamp(w, 'min')": lambda: torch.clamp(w, "min"),
    "torch.clamp(w, min=[0.0])": lambda: torch.clamp(w, min=[0.0]),
    "torch.max(w, 'dim')": lambda: torch.max(w, "dim"),
    "torch.sum(w, 'all')": lambda: torch.sum(w, "all"),
    "torch.pow(w, '2')": lambda: torch.pow(w, "2"),
    "torch.where(w > 0, w, 'zero')": lambda: torch.where(w > 0, w, "zero"),
    "torch.lerp(w, w, [0.5])": lambda: torch.lerp(w, w, [0.5]),
    "torch.sub(True, 2)": lambda: torch.sub(True, 2),
}
for text, call in calls.items():
    try:
        print(text, "->", call())
    except (TypeError, RuntimeError) as e:
        print(text, "->", type(e).__name__)
        print(e)

# the fixes: a tensor for the list, a number for the string
y = torch.add(w, torch.tensor([1.0, 2.0, 3.0])) * torch.clamp(w, min=0.0)
y.sum().backward()
print(y, w.grad)
