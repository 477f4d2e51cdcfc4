# Modules that behave like containers (len, indexing, assignment by index, membership, their
# own repr and str, iteration by __getitem__ until IndexError, __bool__), a method named like
# a dunder that Python gives no meaning (__init_weights__), a plain callable class with
# __len__/__iter__/__repr__, and an autograd.Function's static helper.
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.width = width
        self.__init_weights__()

    def __init_weights__(self):
        self.fc = nn.Linear(self.width, self.width)
        nn.init.constant_(self.fc.weight, 0.1)
        nn.init.zeros_(self.fc.bias)

    def __repr__(self):
        return f"Block(width={self.width})"

    def forward(self, x):
        return torch.relu(self.fc(x))


class Tower(nn.Module):
    def __init__(self, depth, width=3):
        super().__init__()
        self.blocks = nn.ModuleList([Block(width) for _ in range(depth)])

    def __len__(self):
        return len(self.blocks)

    def __getitem__(self, i):
        return self.blocks[i]

    def __setitem__(self, i, block):
        self.blocks[i] = block

    def __contains__(self, block):
        return any(b is block for b in self.blocks)

    def __str__(self):
        return f"Tower of {len(self)} blocks"

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x


class Stepper(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.tensor(2.0))

    def __getitem__(self, i):
        if i >= 3:
            raise IndexError(i)
        return self.scale * i

    def __bool__(self):
        return False

    def forward(self, x):
        return x * self.scale


tower = Tower(3)
print(len(tower))
print(tower[0])
print(tower)
print(repr(tower))
print(str(tower), f"{tower}")
b = Block(3)
tower[1] = b
print(b in tower, Block(3) in tower)
x = torch.ones(1, 3, requires_grad=True)
y = tower(x).sum()
y.backward()
print(y, x.grad)
s = Stepper()
print([v for v in s])
print(bool(s), "empty" if not s else "full")
print(hasattr(tower, "__init_weights__"), hasattr(s, "__init_weights__"))
tower[0].__init_weights__()
print(tower[0].fc.bias)
try:
    len(s)
except TypeError as e:
    print(e)
try:
    s["a"] if False else Block(2)[0]
except TypeError as e:
    print(e)
try:
    for blk in Block(2):
        pass
except TypeError as e:
    print(e)
try:
    s.__not_there__()
except AttributeError as e:
    print(e)



class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g

    @staticmethod
    def __helper__(x):
        return x + 1


class Counter:
    def __init__(self):
        self.n = 0

    def __call__(self, x):
        self.n += 1
        return x * 2

    def __repr__(self):
        return f"Counter(n={self.n})"

    def __len__(self):
        return self.n

    def __iter__(self):
        return iter(range(self.n))

    def __init_state__(self):
        self.n = 10


c = Counter()
print(c(torch.ones(2)), c)
c.__init_state__()
print(len(c), list(c)[:3])
x = torch.tensor(3.0, requires_grad=True)
Square.apply(x).backward()
print(x.grad)
print(Square.__helper__(1) if hasattr(Square, "__helper__") else None)
