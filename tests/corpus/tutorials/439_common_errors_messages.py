import torch

a = torch.randn(2, 3)
b = torch.randn(2, 3)
try:
    a @ b
except RuntimeError as e:
    print("1", e)
try:
    torch.mm(a, torch.ones(4, 2))
except RuntimeError as e:
    print("2", e)
try:
    torch.matmul(torch.ones(3), torch.ones(4))
except RuntimeError as e:
    print("3", e)
try:
    torch.dot(torch.ones(3), torch.ones(3, dtype=torch.int64))
except RuntimeError as e:
    print("4", e)
try:
    torch.mm(torch.ones(2, 2), torch.ones(2, 2, dtype=torch.int64))
except RuntimeError as e:
    print("5", e)
try:
    a.view(4, 2)
except RuntimeError as e:
    print("6", e)
try:
    torch.tensor([1, 2, 3])[5]
except IndexError as e:
    print("7", e)
try:
    torch.ones(2).backward()
except RuntimeError as e:
    print("8", e)
try:
    x = torch.ones(2, requires_grad=True)
    (x * 2).backward()
except RuntimeError as e:
    print("9", e)
try:
    torch.tensor([1, 2], requires_grad=True)
except RuntimeError as e:
    print("10", e)
try:
    torch.zeros(2, 3).sum(dim=5)
except IndexError as e:
    print("11", e)
try:
    torch.randn(2, 3).reshape(4, 4)
except RuntimeError as e:
    print("12", e)
try:
    torch.tensor([[1, 2], [3]])
except ValueError as e:
    print("13", e)
try:
    torch.tensor("abc")
except TypeError as e:
    print("14", e)
try:
    torch.ones(2, 3).unsqueeze(5)
except IndexError as e:
    print("15", e)
try:
    torch.cat([torch.ones(2), torch.ones(2, 2)])
except RuntimeError as e:
    print("16", e)
try:
    torch.arange(0, 10, 0)
except RuntimeError as e:
    print("17", e)
try:
    torch.ones(-1)
except RuntimeError as e:
    print("18", e)
try:
    torch.linspace(0, 1, -2)
except RuntimeError as e:
    print("19", e)
try:
    torch.eye(-2)
except RuntimeError as e:
    print("20", e)
