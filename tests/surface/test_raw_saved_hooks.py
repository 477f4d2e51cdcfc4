"""Hooks a program registers on one saved tensor (`grad_fn._raw_saved_<name>.register_hooks`),
as PyTorch's SavedVariable runs them: pack_hook at once on the saved tensor's data outside the
graph (no requires_grad, no grad_fn), unpack_hook on every read of `_saved_<name>` and when
backward uses it."""

from __future__ import annotations

from gradcli.lang.program import parse


def out(text: str) -> str:
    return "".join(parse(text, "t.py").run(dtype="float32").output)


def test_pack_sees_the_data_and_every_read_unpacks() -> None:
    got = out(
        "import torch\n"
        "def pack(t):\n"
        "    print('pack', t, t.requires_grad, t.grad_fn)\n"
        "    return t * 10\n"
        "def unpack(t):\n"
        "    print('unpack', t)\n"
        "    return t / 10\n"
        "x = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "y = x.pow(2)\n"
        "y.grad_fn._raw_saved_self.register_hooks(pack, unpack)\n"
        "s = y.grad_fn._saved_self\n"
        "print(s, s is x, s.requires_grad, s.grad_fn)\n"
        "y.sum().backward()\n"
        "print(x.grad)\n"
        "e = x.exp()\n"
        "e.grad_fn._raw_saved_result.register_hooks(pack, unpack)\n"
        "r = e.grad_fn._saved_result\n"
        "print(r.requires_grad, r.grad_fn.name())\n"
    )
    assert got == (
        "pack tensor([1., 2.]) False None\n"
        "unpack tensor([10., 20.])\n"
        "tensor([1., 2.], requires_grad=True) False True None\n"
        "unpack tensor([10., 20.])\n"
        "tensor([2., 4.])\n"
        "pack tensor([2.7183, 7.3891]) False None\n"
        "unpack tensor([27.1828, 73.8906])\n"
        "True ExpBackward0\n"
    )
