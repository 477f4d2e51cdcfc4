"""`torch.func.stack_module_state` (the model-ensembling tutorial), `copy.deepcopy` of a module
and of a program's object, as PyTorch 2.13 does them (checked by hand with /work/torchenv)."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

HEAD = (
    "import copy\nimport torch\nimport torch.nn as nn\nfrom torch.func import stack_module_state\n"
)


def out(text: str) -> str:
    return "".join(parse(HEAD + text, "t.py").run(dtype="float32").output)


def fails(text: str) -> GradcliError:
    with pytest.raises(GradcliError) as e:
        out(text)
    return e.value


def test_stacked_parameters_are_new_leaves_by_dotted_name() -> None:
    got = out(
        "ms = [nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3)) for _ in range(4)]\n"
        "ms[1][0].weight.data.fill_(7.0)\n"
        "p, b = stack_module_state(ms)\n"
        "w = p['0.weight']\n"
        "print(list(p), list(b), w.shape, w.is_leaf, w.requires_grad, w.grad_fn)\n"
        "print(w[1].sum().item(), torch.equal(w[2], ms[2][0].weight), b['1.running_var'].shape)\n"
        "w.sum().backward()\nprint(ms[0][0].weight.grad, w.grad.shape)\n"
        "f = [nn.Linear(1, 1).requires_grad_(False) for _ in range(2)]\n"
        "print(stack_module_state(f)[0]['bias'].requires_grad)\n"
    )
    assert got == (
        "['0.weight', '0.bias', '1.weight', '1.bias'] "
        "['1.running_mean', '1.running_var', '1.num_batches_tracked'] "
        "torch.Size([4, 3, 2]) True True None\n"
        "42.0 True torch.Size([4, 3])\nNone torch.Size([4, 3, 2])\nFalse\n"
    )


@pytest.mark.parametrize(
    "call, message",
    [
        ("stack_module_state([])", "Expected at least one model, got 0."),
        ("stack_module_state([nn.Linear(1, 1), nn.ReLU()])", "to be of the same class."),
        ("stack_module_state([nn.Linear(1, 1), nn.Linear(1, 1).eval()])", "training/eval mode"),
        ("stack_module_state([torch.ones(1)])", "'Tensor' object has no attribute 'training'"),
        ("stack_module_state(nn.Linear(1, 1))", "object of type 'Linear' has no len()"),
        ("stack_module_state([nn.Linear(1, 1), nn.Linear(2, 1)])", "stack expects each tensor"),
        (
            "a = nn.Linear(1, 1)\na.bias.requires_grad_(False)\n"
            "stack_module_state([a, nn.Linear(1, 1)])",
            "Expected bias from each model to have the same .requires_grad",
        ),
    ],
)
def test_stack_module_state_errors_are_pytorchs(call: str, message: str) -> None:
    assert message in fails(call).message


def test_a_programs_modules_of_two_classes_are_not_stacked() -> None:
    text = (
        "class A(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.l = nn.Linear(1, 1)\n"
        "class B(A):\n    pass\n"
    )
    assert "same class" in fails(text + "stack_module_state([A(), B()])").message
    assert (
        out(text + "print(list(stack_module_state([A(), A()])[0]))\n") == "['l.weight', 'l.bias']\n"
    )


def test_deepcopy_of_a_module_is_a_new_module_of_new_parameters() -> None:
    got = out(
        "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.fc = nn.Linear(2, 2)\n        self.tied = self.fc\n        self.tag = ['a']\n"
        "    def forward(self, x):\n        return self.fc(x)\n"
        "net = Net()\nnet(torch.ones(1, 2)).sum().backward()\nbest = copy.deepcopy(net)\n"
        "print(best.tied is best.fc, best.fc is net.fc, best.fc.weight.grad, type(best).__name__)\n"
        "with torch.no_grad():\n    net.fc.bias.add_(1.0)\n"
        "best.tag.append('b')\n"
        "print(torch.equal(best.fc.bias + 1, net.fc.bias), net.tag, best.tag)\n"
        "print(type(best.fc.weight).__name__, best(torch.zeros(1, 2)).grad_fn is not None)\n"
    )
    assert got == ("True False None Net\nTrue ['a'] ['a', 'b']\nParameter True\n")


def test_shallow_copy_of_a_tensor_is_a_leaf_on_the_same_storage() -> None:
    # PyTorch's copy.copy rebuilds a tensor on its storage (Tensor.__reduce_ex__): a new leaf
    # sharing the values, requiring grad as the original, without its graph or .grad; a
    # Parameter stays one. Expected text from PyTorch 2.13.
    got = out(
        "a = torch.tensor([1., 2.], requires_grad=True)\n"
        "(a * a).sum().backward()\n"
        "c = copy.copy(a)\n"
        "print(c.grad, c.requires_grad, c is a, c.is_leaf, c.grad_fn)\n"
        "p = nn.Parameter(torch.ones(2))\n"
        "q = copy.copy(p)\n"
        "with torch.no_grad():\n    q.mul_(3)\n"
        "print(type(q).__name__, p)\n"
        "x = torch.zeros(3)\n"
        "w = copy.copy(x[1:])\n"
        "w.add_(1)\n"
        "print(x, w.is_leaf)\n"
        "b = torch.ones(2, requires_grad=True)\n"
        "y = b * 3\n"
        "z = copy.copy(y)\n"
        "(z * 2).sum().backward()\n"
        "print(z, z.grad, b.grad)\n"
        "n = torch.tensor([1., 2.], requires_grad=True)\n"
        "loss = (n * n).sum()\n"
        "with torch.no_grad():\n    copy.copy(n).mul_(3)\n"
        "loss.backward()\n"
        "print(n.grad)\n"
        "print(copy.copy(torch.tensor([1, 2])))\n"
    )
    assert got == (
        "None True False True None\n"
        "Parameter Parameter containing:\ntensor([3., 3.], requires_grad=True)\n"
        "tensor([0., 1., 1.]) True\n"
        "tensor([3., 3.], requires_grad=True) tensor([2., 2.]) None\n"
        "tensor([ 6., 12.])\n"
        "tensor([1, 2])\n"
    )


def test_shallow_copy_of_a_leaf_requiring_grad_refuses_a_change_in_place() -> None:
    e = fails("a = torch.ones(2, requires_grad=True)\nc = copy.copy(a)\nc.add_(1)\n")
    assert "a leaf Variable that requires grad is being used in an in-place operation" in (
        e.message
    )
