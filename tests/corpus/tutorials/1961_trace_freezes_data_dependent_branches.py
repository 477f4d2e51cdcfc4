# torch.jit.trace records the operations that ran on the example input: an `if` on a
# tensor's value, an int() or .item() taken from a tensor, become constants of the trace
# (PyTorch warns with a TracerWarning), so later calls follow the example's path.
import torch


class Gate(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = torch.nn.Parameter(torch.tensor(3.0, dtype=torch.float64))

    def forward(self, x):
        if x.sum() > 0:
            return x * self.scale
        return x - self.scale


gate = Gate()
example = torch.tensor([1.0, 2.0], dtype=torch.float64)
traced = torch.jit.trace(gate, example)

negative = torch.tensor([-1.0, -4.0], dtype=torch.float64)
print("eager :", gate(negative))
print("traced:", traced(negative))  # the branch taken for the example

out = traced(negative).sum()
out.backward()
print("grad of scale:", gate.scale.grad)


def head(x):
    n = int(x.max())  # frozen at 2 by the example
    return x[:n] * x[0].item()


traced_head = torch.jit.trace(head, torch.tensor([2.0, 1.0, 0.0]))
print(head(torch.tensor([3.0, 1.0, 0.0, 5.0])))
print(traced_head(torch.tensor([3.0, 1.0, 0.0, 5.0])))


def as_list(x):
    values = x.tolist()
    return x * values[0]


traced_list = torch.jit.trace(as_list, torch.tensor([4.0, 1.0]))
print(traced_list(torch.tensor([0.5, 2.0])))

# a module without data-dependent Python gives the same answers traced and eager
lin = torch.nn.Linear(2, 1).double()
t_lin = torch.jit.trace(lin, example)
print(torch.equal(lin(negative), t_lin(negative)))
