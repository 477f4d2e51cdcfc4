# Generators are lazy: a pipeline of generator functions and expressions runs one item at a
# time, interleaved with the loop that consumes it (the prints show the order).
import torch


def read_numbers(values):
    for v in values:
        print("read", v)
        yield v


def scaled(items, k):
    for v in items:
        print("scale", v)
        yield v * k


pipeline = scaled(read_numbers([1, 2, 3]), 10)
print("pipeline built")
for out in pipeline:
    print("got", out)

evens = (v for v in read_numbers(range(6)) if v % 2 == 0)
print(next(evens))
print(next(evens))

for i, (a, b) in enumerate(zip(read_numbers("ab"), scaled(read_numbers([5, 6, 7]), 2))):
    print(i, a, b)

print(4 in read_numbers([1, 4, 9]))
print(list(map(lambda t: t * 2, read_numbers([1, 2]))))
print(list(filter(lambda t: t > 1, read_numbers([1, 2, 3]))))


def noisy_batches(n):
    for i in range(n):
        x = torch.randn(2)
        print("batch", i)
        yield x


torch.manual_seed(0)
for x in noisy_batches(3):
    y = torch.dropout(x, 0.5, True)
    print(x, y)
print(any(v > 2 for v in read_numbers([1, 3, 5])))
print(all(v > 2 for v in read_numbers([3, 1, 5])))
