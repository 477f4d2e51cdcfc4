# A scalar reverse-mode autograd engine built on operator overloading (the "micrograd" way of
# teaching backprop), checked against torch on the same expressions and a tiny MLP.
import math
import random

import torch


class Scalar:
    def __init__(self, data, children=(), op=""):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(children)
        self._op = op

    def __add__(self, other):
        other = other if isinstance(other, Scalar) else Scalar(other)
        out = Scalar(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Scalar) else Scalar(other)
        out = Scalar(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def __pow__(self, k):
        if not isinstance(k, (int, float)):
            return NotImplemented
        out = Scalar(self.data**k, (self,), f"**{k}")

        def _backward():
            self.grad += k * self.data ** (k - 1) * out.grad

        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Scalar(t, (self,), "tanh")

        def _backward():
            self.grad += (1 - t * t) * out.grad

        out._backward = _backward
        return out

    def relu(self):
        out = Scalar(max(0.0, self.data), (self,), "relu")

        def _backward():
            self.grad += (out.data > 0) * out.grad

        out._backward = _backward
        return out

    def backward(self):
        order, seen = [], set()

        def visit(v):
            if v not in seen:
                seen.add(v)
                for child in v._prev:
                    visit(child)
                order.append(v)

        visit(self)
        self.grad = 1.0
        for v in reversed(order):
            v._backward()

    def __neg__(self):
        return self * -1

    def __radd__(self, other):
        return self + other

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):
        return other + (-self)

    def __rmul__(self, other):
        return self * other

    def __truediv__(self, other):
        return self * other**-1

    def __rtruediv__(self, other):
        return other * self**-1

    def __abs__(self):
        return self.relu() + (-self).relu()

    def __repr__(self):
        return f"Scalar(data={self.data:.6f}, grad={self.grad:.6f})"


a, b = Scalar(-4.0), Scalar(2.0)
c = a + b
d = a * b + b**3
c = c + c + 1
c = c + 1 + c + (-a)
d = d + d * 2 + (b + a).relu()
d = d + 3 * d + (b - a).relu()
e = c - d
f = e**2
g = f / 2.0
g = g + 10.0 / f
g.backward()
print(g, a, b)

at = torch.tensor(-4.0, dtype=torch.double, requires_grad=True)
bt = torch.tensor(2.0, dtype=torch.double, requires_grad=True)
ct = at + bt
dt = at * bt + bt**3
ct = ct + ct + 1
ct = ct + 1 + ct + (-at)
dt = dt + dt * 2 + (bt + at).relu()
dt = dt + 3 * dt + (bt - at).relu()
et = ct - dt
ft = et**2
gt = ft / 2.0
gt = gt + 10.0 / ft
gt.backward()
print(f"{gt.item():.6f} {at.grad.item():.6f} {bt.grad.item():.6f}")

x = Scalar(0.5)
y = abs(x - 2) + 1 - x + 2 * x / 4 - 1 / x
y.backward()
print(y, x, sum([x, x, Scalar(1.0)]))
try:
    x ** Scalar(2.0)
except TypeError as err:
    print("TypeError:", err)
try:
    x @ x
except TypeError as err:
    print("TypeError:", err)


class Neuron:
    def __init__(self, nin):
        self.w = [Scalar(random.uniform(-1, 1)) for _ in range(nin)]
        self.b = Scalar(0.0)

    def __call__(self, xs):
        return sum((wi * xi for wi, xi in zip(self.w, xs)), self.b).tanh()

    def parameters(self):
        return self.w + [self.b]


random.seed(1)
hidden = [Neuron(2) for _ in range(3)]
top = Neuron(3)
data = [([2.0, 3.0], 1.0), ([3.0, -1.0], -1.0), ([0.5, 1.0], -1.0), ([1.0, 1.0], 1.0)]
params = [p for n in hidden + [top] for p in n.parameters()]
W1 = torch.tensor([[p.data for p in n.w] for n in hidden], dtype=torch.double, requires_grad=True)
b1 = torch.tensor([n.b.data for n in hidden], dtype=torch.double, requires_grad=True)
W2 = torch.tensor([p.data for p in top.w], dtype=torch.double, requires_grad=True)
b2 = torch.tensor(top.b.data, dtype=torch.double, requires_grad=True)
for step in range(3):
    loss = sum((top([h(xs) for h in hidden]) - ys) ** 2 for xs, ys in data)
    for p in params:
        p.grad = 0.0
    loss.backward()
    X = torch.tensor([xs for xs, _ in data], dtype=torch.double)
    Y = torch.tensor([ys for _, ys in data], dtype=torch.double)
    tloss = ((torch.tanh(torch.tanh(X @ W1.t() + b1) @ W2 + b2) - Y) ** 2).sum()
    tloss.backward()
    print(
        step,
        f"{loss.data:.10f}",
        f"{tloss.item():.10f}",
        f"{top.w[0].grad:.8f}",
        f"{W2.grad[0].item():.8f}",
    )
    for p in params:
        p.data -= 0.05 * p.grad
    with torch.no_grad():
        for t in (W1, b1, W2, b2):
            t -= 0.05 * t.grad
            t.grad = None
