# What a generator function does, step by step: the body runs only when a value is asked
# for, next() with and without a default, yield from, return inside a generator, and a
# generator that never ends consumed with break.
import torch


def countdown(n):
    print("  countdown starts")
    while n > 0:
        yield n
        n -= 1
    print("  countdown is done")


g = countdown(3)
print("made the generator, nothing ran yet")
print(next(g))
print(next(g))
print(list(g))
print(next(g, "exhausted"))
try:
    next(g)
except StopIteration:
    print("StopIteration raised")


def squares_then_cubes(n):
    yield from (i * i for i in range(n))
    yield from [i ** 3 for i in range(n)]
    yield


print(list(squares_then_cubes(3)))


def first_negative(values):
    for v in values:
        if v < 0:
            yield v
            return
    yield None


print(list(first_negative([3, 1, -4, -1])), list(first_negative([1, 2])))


def naturals():
    k = 0
    while True:
        yield k
        k += 1


total = 0
for k in naturals():
    if k > 10:
        break
    total += k
print("sum of 0..10:", total)

it = naturals()
print([next(it) for _ in range(5)])


def tensor_rows(t):
    for row in t:
        yield row.sum()


t = torch.arange(12.0).reshape(4, 3)
print(list(tensor_rows(t)))
print(sum(tensor_rows(t)), max(tensor_rows(t)), sorted(tensor_rows(t), reverse=True)[0])
print(torch.stack(list(tensor_rows(t))))
print(type(countdown(1)).__name__, isinstance(countdown(1), type(countdown(2))))
