"""A program's tensor takes attributes of its own, as a torch.Tensor keeps them in its
__dict__ (`p.group = "decay"` to sort parameters, `w.retain_grad = True` by mistake, which
hides the method as in Python): read back, tested with hasattr/getattr, deleted, copied by
copy.copy (shared) and copy.deepcopy (copied), never carried to a view, .detach(), .data or
.clone(). PyTorch's properties without a setter keep its AttributeError; the names whose
assignment would change the tensor gradcli does not model stay refused; dunders stay out of
reach; the number of attributes is bounded. Expected text is PyTorch 2.13's (checked with
/work/torchenv)."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base import limits
from gradcli.base.errors import GradcliError, LimitError, NotSupported
from gradcli.lang.program import parse


def out(text: str) -> str:
    return "".join(parse(text, "t.py").run().output).strip()


HEAD = "import torch\nw = torch.ones(3, requires_grad=True)\n"


def test_kept_read_and_deleted() -> None:
    text = HEAD + (
        "w.tag = 'weights'\nw.seen = []\nfor i in range(3):\n    w.seen.append(i)\n"
        "print(w.tag, w.seen, hasattr(w, 'tag'), hasattr(w, 'other'), getattr(w, 'no', 7))\n"
        "w.count = 0\nw.count += 2\nprint(w.count)\n"
        "del w.tag\nprint(hasattr(w, 'tag'))\n"
        "try:\n    del w.tag\nexcept AttributeError as e:\n    print(e)\n"
        "try:\n    print(w.missing)\nexcept AttributeError as e:\n    print(e)\n"
    )
    assert out(text) == (
        "weights [0, 1, 2] True False 7\n2\nFalse\n"
        "'Tensor' object has no attribute 'tag'\n'Tensor' object has no attribute 'missing'"
    )


def test_an_attribute_hides_a_method_of_the_same_name() -> None:
    # The method call `w.retain_grad()` is the attribute's call then, in both call paths.
    text = HEAD + (
        "w.retain_grad = True\nprint(w.retain_grad)\n"
        "try:\n    w.retain_grad()\nexcept TypeError as e:\n    print(e)\n"
        "w.sum = lambda: 'mine'\nprint(w.sum(), getattr(w, 'sum')())\n"
        "del w.retain_grad, w.sum\n"
        "y = w * 2\ny.retain_grad()\ny.sum().backward()\nprint(y.grad, w.grad)\n"
    )
    assert out(text) == (
        "True\n'bool' object is not callable\nmine mine\ntensor([1., 1., 1.]) tensor([2., 2., 2.])"
    )


def test_other_tensors_have_none_and_copies_follow_python() -> None:
    text = HEAD + (
        "import copy\nw.seen = [1]\n"
        "print([hasattr(t, 'seen') for t in (w.detach(), w.data, w.clone(), w[1:], w.view(3),"
        " w * 1)])\n"
        "c = copy.copy(w)\nd = copy.deepcopy(w)\n"
        "print(c.seen is w.seen, d.seen is w.seen, d.seen == w.seen)\n"
        # a tensor among its own attributes: PyTorch's __deepcopy__ memoizes the tensor after
        # its __dict__, so the copy holds a second copy that shares the first one's dict
        "w.me = w\nw.lst = [w, 1]\ne = copy.deepcopy(w)\n"
        "print(e.me is e, e.me is w, e.me.me is e.me, e.lst[0] is e.me, e.me.lst is e.lst)\n"
        "f = copy.deepcopy([w, w])\nprint(f[0] is f[1], f[0].me is f[0])\n"
    )
    assert out(text) == (
        "[False, False, False, False, False, False]\nTrue False True\n"
        "False False True True True\nTrue False"
    )


def test_parameters_take_attributes_that_state_dict_does_not_see() -> None:
    text = (
        "import torch\nimport torch.nn as nn\nlin = nn.Linear(2, 1)\n"
        "lin.weight.group = 'decay'\nlin.bias.group = 'no_decay'\n"
        "print([p.group for p in lin.parameters()], list(lin.state_dict()))\n"
    )
    assert out(text) == "['decay', 'no_decay'] ['weight', 'bias']"


@pytest.mark.parametrize(
    "name", ["shape", "is_leaf", "grad_fn", "dtype", "ndim", "T", "device", "name", "_version"]
)
def test_properties_without_a_setter_keep_pytorchs_error(name: str) -> None:
    text = HEAD + f"try:\n    w.{name} = 1\nexcept AttributeError as e:\n    print(e)\n"
    assert out(text) == f"attribute '{name}' of 'torch._C.TensorBase' objects is not writable"


@pytest.mark.parametrize("name", ["real", "imag", "volatile"])
def test_names_gradcli_does_not_model_stay_refused(name: str) -> None:
    with pytest.raises(NotSupported, match=f"cannot set attribute `{name}` of a tensor"):
        out(HEAD + f"w.{name} = 1\n")


def test_grad_dtype_casts_the_gradient_reaching_the_leaf() -> None:
    # its own dtype restated changes nothing; a wrong type is PyTorch's error; another dtype:
    # the pass computes in float32 and the gradient is cast as it reaches the leaf (float32's
    # 0.1 widened, not float64's); None: any dtype, as it comes
    text = HEAD + "w.grad_dtype = w.dtype\nprint(w.grad_dtype == w.dtype)\n"
    text += "try:\n    w.grad_dtype = 1\nexcept RuntimeError as e:\n    print(e)\n"
    assert out(text) == "True\ngrad_dtype must be a torch.dtype or None, but got int"
    text = "import torch\nw = torch.ones(3, dtype=torch.float32, requires_grad=True)\n"
    text += "w.grad_dtype = torch.float64\n(w * 0.1).sum().backward()\n"
    text += "print(w.grad.dtype, w.grad[0].item())\n"
    assert out(text) == f"torch.float64 {float(np.float32(0.1))!r}"
    text = HEAD + "w.grad_dtype = None\nprint(w.grad_dtype)\n"
    text += "w.grad = torch.zeros(3, dtype=torch.float64)\nprint(w.grad.dtype)\n"
    assert out(text) == "None\ntorch.float64"


def test_internal_slots_are_not_reached() -> None:
    # gradcli's own fields on its tensor (node, _attrs, _hooks, ...) are not what a program's
    # names reach: a name with an underscore is refused in plain words, the graph unchanged.
    with pytest.raises(NotSupported, match="cannot set attribute `_attrs` of a tensor"):
        out(HEAD + "y = w * 2\ny._attrs = 5\n")
    text = HEAD + "y = w * 2\ny.node = None\nprint(y.grad_fn is not None, y.node)\n"
    text += "y.sum().backward()\nprint(w.grad)\n"
    assert out(text) == "True None\ntensor([2., 2., 2.])"


def test_dunder_names_stay_out_of_reach() -> None:
    with pytest.raises(GradcliError, match="not accessible"):
        out(HEAD + "setattr(w, '__class__', int)\n")
    with pytest.raises(GradcliError, match="not accessible|not supported"):
        out(HEAD + "w.__dict__ = {}\n")
    with pytest.raises(GradcliError, match="not accessible|not supported"):
        out(HEAD + "print(w.__dict__)\n")


def test_the_number_of_attributes_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(limits.LIST_ITEMS.env, "100")
    text = HEAD + "for i in range(200):\n    setattr(w, 'a' + str(i), i)\n"
    with pytest.raises(LimitError, match="the number of attributes of a tensor"):
        out(text)
    # rebinding the same names does not count again
    assert out(HEAD + "for i in range(200):\n    w.a = i\nprint(w.a)\n") == "199"
