# Walking grad_fn.next_functions: a leaf used twice shows one AccumulateGrad node, whose
# variable is the leaf itself.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([0.5, -1.0], requires_grad=True)
y = x * x + w * x
loss = y.sum()


def walk(fn, depth=0, seen=None):
    seen = [] if seen is None else seen
    if fn is None:
        return seen
    again = any(fn is s for s in seen)
    print("  " * depth + fn.name(), "(seen before)" if again else "")
    if not again:
        seen.append(fn)
        for nxt, _ in fn.next_functions:
            walk(nxt, depth + 1, seen)
    return seen


nodes = walk(loss.grad_fn)
leaves = [n for n in nodes if n.name().endswith("AccumulateGrad")]
print(len(nodes), len(leaves), [n.variable is x for n in leaves], [n.variable is w for n in leaves])
mul = y.grad_fn.next_functions[0][0]
print(mul.next_functions[0][0] is mul.next_functions[1][0])
