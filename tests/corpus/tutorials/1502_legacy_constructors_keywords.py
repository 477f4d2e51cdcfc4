# The old constructors (torch.Tensor, torch.FloatTensor, ...) take data or sizes and a
# device, nothing else: requires_grad and dtype belong to torch.tensor.
import torch

print(torch.Tensor([1.0, 2.0]), torch.Tensor(2, 3).shape)
print(torch.Tensor(torch.Size([4])).shape, torch.LongTensor(torch.Size([2, 1])).shape)
print(torch.DoubleTensor([1, 2]), torch.Tensor([3.0], device="cpu"))

attempts = [
    ("Tensor(list, requires_grad)", lambda: torch.Tensor([1.0], requires_grad=True)),
    ("FloatTensor(list, requires_grad)", lambda: torch.FloatTensor([[1.0, 2.0]], requires_grad=True)),
    ("LongTensor(list, requires_grad)", lambda: torch.LongTensor([1], requires_grad=True)),
    ("Tensor(2, 3, requires_grad)", lambda: torch.Tensor(2, 3, requires_grad=True)),
    ("Tensor(list, dtype)", lambda: torch.Tensor([1.0], dtype=torch.float64)),
    ("Tensor(list, 2)", lambda: torch.Tensor([1.0], 2)),
    ("Tensor(2.5)", lambda: torch.Tensor(2.5)),
    ("DoubleTensor(3, requires_grad, device)", lambda: torch.DoubleTensor(3, requires_grad=True, device="cpu")),
]
for name, make in attempts:
    try:
        make()
    except TypeError as e:
        print(name, "->", e)

# what the tutorials that meant it write instead
w = torch.tensor([1.0, 2.0], requires_grad=True)
v = torch.Tensor([1.0, 2.0]).requires_grad_()
(w * v).sum().backward()
print(w.grad, v.grad)
