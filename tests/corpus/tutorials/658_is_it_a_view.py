# "Is this a view or a copy?" -- checking `_base`, as forum answers do.
import torch

x = torch.arange(6.0)
w = torch.ones(3, requires_grad=True)


def kind(t, of):
    if t._base is None:
        return "owns its storage"
    return "view of x" if t._base is of else "view of another tensor"


examples = {
    "x[0]": x[0],
    "x[1:]": x[1:],
    "x[1:][0]": x[1:][0],
    "x.view(2, 3)": x.view(2, 3),
    "x.view(2, 3).t()": x.view(2, 3).t(),
    "x.reshape(3, 2)": x.reshape(3, 2),
    "x.view(2, 3).t().reshape(6)": x.view(2, 3).t().reshape(6),
    "x.clone()": x.clone(),
    "x.detach()": x.detach(),
    "x[[0, 1]]": x[[0, 1]],
    "x[x > 2]": x[x > 2],
    "x.chunk(2)[1]": x.chunk(2)[1],
    "x[:1].expand(4)": x[:1].expand(4),
}
for text, t in examples.items():
    print(f"{text:30s} {kind(t, x)}")

print(w.data._base is w, (w * 2)._base, w[0]._base is w)
v = x.view(3, 2)
v[0, 0] = 100.0
print(x[0], v._base.shape)
