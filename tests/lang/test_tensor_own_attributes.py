"""Attributes of the program's own on a tensor (`x.tag = "input"`, `p.lr_scale = 0.5`), as
PyTorch 2.13 (a tensor has a __dict__): read back before the tensor's methods, not carried to
results, views or clones, deleted by `del`, copied deeply by copy.deepcopy (in PyTorch's
order), not by a Parameter's; the tensor's read-only properties answer in PyTorch's words."""

from __future__ import annotations

from tests.helpers.programs import error, out

X = "import copy\nx = torch.ones(3, requires_grad=True)\n"


def test_an_attribute_is_kept_and_read_back() -> None:
    text = out(
        X + "x.note = [1, 2]\nx.note.append(3)\ny = x * 2\n"
        "print(x.note, getattr(x, 'note', None), hasattr(y, 'note'))\n"
        "print(hasattr(x.clone(), 'note'), hasattr(x.detach(), 'note'), hasattr(x[:2], 'note'))\n"
        "y.step = 1\ny.step += 1\nprint(y.step)\n"
        "x.scale = 2.0\nx.sum().backward()\nprint(x.grad, x.scale)\n"
    )
    assert text == ("[1, 2, 3] [1, 2, 3] False\nFalse False False\n2\ntensor([1., 1., 1.]) 2.0\n")


def test_an_own_attribute_comes_before_a_method() -> None:
    text = out(X + "x.sum = lambda: 'mine'\nprint(x.sum())\ndel x.sum\nprint(x.sum())\n")
    assert text == "mine\ntensor(3., grad_fn=<SumBackward0>)\n"


def test_parameters_take_attributes_and_name_their_type() -> None:
    text = out(
        "m = torch.nn.Linear(2, 2)\nm.weight.custom = 'w'\np = torch.nn.Parameter(torch.zeros(1))\n"
        "p.lr_scale = 0.5\nprint(m.weight.custom, p.lr_scale, hasattr(p.data, 'lr_scale'))\n"
        "import copy\nprint(hasattr(copy.deepcopy(m).weight, 'custom'))\n"
    )
    assert text == "w 0.5 False\nFalse\n"
    e = error("p = torch.nn.Parameter(torch.zeros(1))\nprint(p.nope)\n")
    assert "'Parameter' object has no attribute 'nope'" in str(e)
    e = error("p = torch.nn.Parameter(torch.zeros(1))\ndel p.nope\n")
    assert "'Parameter' object has no attribute 'nope'" in str(e)


def test_read_only_properties_and_deletion_errors_are_pytorchs() -> None:
    for line in ("x.shape = (3,)", "x.is_leaf = False", "x.grad_fn = None", "del x.shape"):
        name = line.split(".")[1].split(" ")[0]
        e = error(X + line + "\n")
        assert f"attribute '{name}' of 'torch._C.TensorBase' objects is not writable" in str(e)
    e = error(X + "x.tag = 1\ndel x.tag\ndel x.tag\n")
    assert "'Tensor' object has no attribute 'tag'" in str(e)
    e = error(X + "del x.sum\n")
    assert "'Tensor' object has no attribute 'sum'" in str(e)


def test_names_with_an_underscore_and_settable_properties_stay_refused() -> None:
    assert "cannot set attribute `_tag` of a tensor" in str(error(X + "x._tag = 1\n"))
    # PyTorch copies into the real part: not stored as an attribute of the program's
    assert "cannot set attribute `real` of a tensor" in str(error(X + "x.real = x\n"))


def test_deepcopy_copies_the_attributes_in_pytorchs_order() -> None:
    text = out(
        X + "z = torch.zeros(1)\nz.a = {'k': [1, 2]}\nw = copy.deepcopy(z)\n"
        "w.a['k'].append(3)\nprint(z.a, w.a)\n"
        "x.me = x\nx.lst = [x, 1]\ny = copy.deepcopy(x)\n"
        "print(y.me is y, y.lst[0] is y, y.me is x, y.me.me is y.me, y.lst[0] is y.me)\n"
        "y.me.new = 5\nprint(y.new)\n"
    )
    assert text == "{'k': [1, 2]} {'k': [1, 2, 3]}\nFalse False False True True\n5\n"
