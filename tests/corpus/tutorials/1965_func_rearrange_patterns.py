# torch.func.rearrange (einops-style patterns, also functorch.einops.rearrange): transposes,
# merges and splits of dimensions, ellipsis, unit axes, a list of tensors stacked first; the
# gradient flows back through the reordering; pattern mistakes are PyTorch's errors.
import torch
from torch.func import rearrange
from functorch.einops import rearrange as rearrange2

images = torch.arange(2 * 4 * 4 * 3, dtype=torch.float64).reshape(2, 4, 4, 3)
print(rearrange(images, "b h w c -> b c h w").shape)
print(rearrange(images, "b h w c -> (b h) w c").shape)
print(rearrange(images, "b (h h1) (w w1) c -> b h w (c h1 w1)", h1=2, w1=2).shape)
print(rearrange(images, "b (h1 h) (w1 w) c -> (b h1 w1) h w c", h1=2, w1=2)[3, :, :, 0])
print(rearrange2(images, "b ... c -> c b ...").shape)

x = torch.linspace(-1.0, 1.0, 12, dtype=torch.float64).reshape(3, 4).requires_grad_()
y = rearrange(x, "r (c two) -> two r c", two=2)
print(y)
print(y.grad_fn.name())
weights = torch.arange(12, dtype=torch.float64).reshape(2, 3, 2)
(y * weights).sum().backward()
print(x.grad)

t = rearrange(x, "r c -> c r")
print(t.grad_fn.name(), t.is_contiguous())
flat = rearrange(x, "r c -> (c r)")
print(flat.grad_fn.name(), flat[:5])
print(rearrange(x, "r c -> r 1 c ()").shape)
print(rearrange(x, "1 c -> c") if x.shape[0] == 1 else rearrange(x[:1], "1 c -> c"))

vectors = [torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]), torch.tensor([5.0, 6.0])]
print(rearrange(vectors, "n d -> d n"))

for pattern, lengths in [
    ("r c", {}),
    ("r c -> r", {}),
    ("r c r -> c", {}),
    ("r c -> c r", {"k": 2}),
    ("r (c k) -> r c k", {"k": 3}),
    ("r (c k) -> r c k", {}),
    ("r c -> r c ...", {}),
    ("r (c -> r c", {}),
    ("r 2 -> r", {}),
    ("r c -> c r", {"c": 2.0}),
]:
    try:
        rearrange(x, pattern, **lengths)
    except (ValueError, TypeError) as e:
        print(type(e).__name__ + ":", e)
    except Exception as e:
        print(type(e).__name__ + ":", e)
