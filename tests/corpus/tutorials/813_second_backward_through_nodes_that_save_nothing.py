# A second backward without retain_graph is allowed through nodes that saved nothing:
# a causal mask made with tril, a lerp by a number, an upsampling, a fill or a copy in place;
# a product with the input itself saved it and stops the second pass.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
scores = torch.randn(4, 4, requires_grad=True)


def twice(name, y):
    scores.grad = None
    y.backward()
    try:
        y.backward()
        print(f"{name:>12}: twice, grad sum {scores.grad.sum().item():.4f}")
    except RuntimeError as e:
        print(f"{name:>12}: {str(e)[:48]}")


twice("tril", scores.tril().sum())
twice("triu", scores.triu(1).sum())
twice("lerp", torch.lerp(scores, torch.ones(4, 4), 0.25).sum())
twice("upsample", F.interpolate(scores[None], scale_factor=2, mode="linear").sum())
twice("nearest", F.interpolate(scores[None, None], size=(8, 8), mode="nearest").sum())

b = scores.clone()
b[...] = 2.0
twice("fill", b.sum() + scores.sum())

c = scores.clone()
c.copy_(scores.flip(0))
twice("copy_", c.sum())

twice("tril @ self", (scores.tril() @ scores).sum())
