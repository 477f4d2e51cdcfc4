# Named tuples for a batch of transitions: typing.NamedTuple and collections.namedtuple
from typing import NamedTuple
from collections import namedtuple
import torch


class Transition(NamedTuple):
    state: torch.Tensor
    action: int
    reward: float = 0.0


t = Transition(torch.zeros(2), 1)
print(t)
print(t.reward, t[1], len(t), Transition._fields)
s, a, r = t
print(a, r)
batch = [Transition(torch.full((2,), float(i)), i, i * 0.5) for i in range(3)]
states, actions, rewards = zip(*batch)
print(torch.stack(states), actions, rewards)
b = Transition(*zip(*batch))
print(b.action, type(b).__name__)
print(t._replace(reward=2.0), t._asdict()["action"])
Pair = NamedTuple("Pair", [("a", int), ("b", int)])  # noqa: UP014 - the functional form
print(Pair(1, 2), Pair(1, 2) == (1, 2))
d = {Pair(1, 2): "x"}
print(d[(1, 2)])
try:

    class Bad(NamedTuple):
        a: int = 0
        b: int
except TypeError as e:
    print("TypeError:", e)
try:
    t.action = 3
except AttributeError as e:
    print("AttributeError:", e)
try:
    Transition(1)
except TypeError as e:
    print("TypeError:", e)
Point = namedtuple("Point", "x y z", defaults=[0.0])
p = Point(1.0, 2.0)
print(p, Point._fields, p._asdict())
x, y, z = p
print(torch.tensor(p), torch.tensor([p, Point(3.0, 4.0, 5.0)]).sum(0))
print(isinstance(p, tuple), isinstance(p, Point), p == (1.0, 2.0, 0.0), p + (9,))
try:
    namedtuple("Bad", ["x", "x"])
except ValueError as e:
    print("ValueError:", e)
