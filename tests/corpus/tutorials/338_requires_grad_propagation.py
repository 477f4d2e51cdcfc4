import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
c = torch.tensor([1.0, 0.0, 1.0])
cases = {
    "x + c": x + c,
    "c * 2": c * 2,
    "x > 1": x > 1,
    "x.argmax()": x.argmax(),
    "x.long()": x.long(),
    "x.detach() * x": x.detach() * x,
    "x.sum().item()": x.sum().item(),
    "x.max(dim=0).indices": x.max(dim=0).indices,
    "torch.where(c > 0, x, c)": torch.where(c > 0, x, c),
    "x.floor()": x.floor(),
    "x.sign()": x.sign(),
    "x.round()": x.round(),
    "torch.zeros_like(x)": torch.zeros_like(x),
    "x.new_ones(2)": x.new_ones(2),
    "x.double()": x.double(),
}
for name, value in cases.items():
    if isinstance(value, torch.Tensor):
        fn = value.grad_fn.name() if value.grad_fn is not None else None
        print(f"{name:26s} requires_grad={value.requires_grad!s:5s} grad_fn={fn} dtype={value.dtype}")
    else:
        print(f"{name:26s} {type(value).__name__}")
