# Calling torch with keyword arguments, and reading the TypeError when a call is wrong:
# the way a tutorial on "understanding PyTorch error messages" walks through them.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
logits = torch.tensor([[2.0, -1.0, 0.5], [0.1, 0.2, 3.0]])
labels = torch.tensor([0, 2])
w = torch.tensor([[1.0, 0.5, -0.5], [0.0, 1.0, 2.0]])
b = torch.tensor([0.1, -0.2])

# Every argument named, as the documentation names it.
print(F.cross_entropy(input=logits, target=labels))
print(torch.zeros_like(input=logits))
print(F.relu(input=logits))
print(torch.sum(input=logits, dim=0))
print(torch.cat(tensors=[logits, logits], dim=0).shape)
print(logits.add(other=logits, alpha=2))
print(F.linear(logits, weight=w, bias=b))
print(torch.matmul(input=logits, other=w.T))
print(torch.clamp(input=logits, min=0.0, max=1.0))
print(torch.softmax(input=logits, dim=1))
print(logits.pow(exponent=2))
print(torch.transpose(input=logits, dim0=0, dim1=1))
print(torch.where(logits > 0, input=logits, other=torch.zeros_like(logits)))
print(F.one_hot(input=labels, num_classes=3))
print(torch.argmax(input=logits, dim=1), torch.max(input=logits))


def show(title, f):
    try:
        f()
    except TypeError as e:
        print(f"{title:>14}: TypeError: {e}")


# Too many, too few, or unknown arguments.
show("exp extra", lambda: torch.exp(logits, 2))
show("exp none", lambda: torch.exp())
show("exp keyword", lambda: torch.exp(logits, base=2))
show("exp twice", lambda: torch.exp(logits, input=logits))
show("softmax", lambda: torch.softmax(logits))
show("dot", lambda: torch.dot())
show("unsqueeze", lambda: logits.unsqueeze(0, 1))
show("method", lambda: logits.exp(1))
show("mse_loss", lambda: F.mse_loss(logits))
show("relu", lambda: F.relu())
show("Linear", lambda: nn.Linear(3))
show("Linear many", lambda: nn.Linear(3, 2, True, None, None, 1))
show("SGD", lambda: torch.optim.SGD())
show("grad", lambda: torch.autograd.grad(logits))


class Tiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)

    def forward(self, x):
        return self.fc(x)


model = Tiny()
show("forward", lambda: model(logits, logits))
show("forward none", lambda: model())


def scale(x, factor=2.0, *, shift):
    return x * factor + shift


show("own f", lambda: scale())
show("own f extra", lambda: scale(1, 2, 3))
show("own f kw", lambda: scale(1, shift=1, offset=2))
show("own f twice", lambda: scale(1, x=2, shift=0))
show("own kwonly", lambda: scale(1))

# A value of the wrong type.
show("add str", lambda: logits.add("a"))
show("torch.add", lambda: torch.add(logits, "a"))
show("mul None", lambda: logits.mul(None))
show("matmul list", lambda: torch.matmul(logits, [1.0, 2.0, 3.0]))
show("unsqueeze str", lambda: logits.unsqueeze("0"))
show("topk str", lambda: logits.topk("2"))
show("transpose", lambda: logits.transpose(0, "1"))
show("softmax None", lambda: torch.softmax(logits, dim=None))
show("exp number", lambda: torch.exp(2.0))
show("exp keyword", lambda: torch.exp(input=2.0))
show("relu number", lambda: F.relu(1.0))
show("index_select", lambda: logits.index_select(0, [0]))
show("stack", lambda: torch.stack([labels, 1]))
show("cat", lambda: torch.cat(tensors=logits))
show("one_hot", lambda: F.one_hot(tensor=labels))
