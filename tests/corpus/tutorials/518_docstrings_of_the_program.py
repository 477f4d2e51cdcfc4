# Printing the docstrings a script wrote for its own classes and functions
import torch
import torch.nn as nn


class Swish(torch.autograd.Function):
    """x * sigmoid(x), with its derivative written by hand."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * torch.sigmoid(x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        s = torch.sigmoid(x)
        return grad * (s + x * s * (1 - s))


class Block(nn.Module):
    "A linear layer followed by Swish."

    def __init__(self, n):
        super().__init__()
        self.lin = nn.Linear(n, n)

    def forward(self, x):
        """Apply the block.

        x: (batch, n)
        """
        return Swish.apply(self.lin(x))


class Deeper(Block):
    pass


def train_step(model, x):
    '''One step of plain gradient descent on the squared output.'''
    loss = model(x).pow(2).sum()
    loss.backward()
    with torch.no_grad():
        for p in model.parameters():
            p -= 0.1 * p.grad
    return loss.item()


for thing in (Swish, Block, Deeper, train_step, Block.forward):
    print(thing.__name__, "->", repr(thing.__doc__))

torch.manual_seed(0)
block = Block(3)
print(block.__doc__)
print(round(train_step(block, torch.randn(2, 3)), 5))
print(block.lin.bias.grad)
