"""Names imported from PyTorch's submodule files (`from torch.distributions.normal import
Normal`): the recorded table `gradcli/surface/torch_submodules.py` says which names a file
shares with its package; those are the package's objects, the file's other names are refused
on use, and a name the file lacks is Python's ImportError with what gradcli has from it."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError, NotSupported
from gradcli.lang.program import parse
from gradcli.surface import public


def out(text: str) -> str:
    return "".join(parse(text, "t.py").run(dtype="float32").output)


def test_the_table_names_the_package_a_file_shares_its_classes_with() -> None:
    shared, names = public.submodule("torch.distributions.one_hot_categorical")
    assert "OneHotCategorical" in shared["torch.distributions"].split()
    assert "OneHotCategoricalStraightThrough" in shared["torch.distributions"].split()
    assert public.has("torch.distributions.utils", "lazy_property") is True
    assert public.has("torch.distributions.utils", "no_such_name") is False
    assert public.submodule("torch.distributions.no_such_file") is None


def test_every_class_of_a_file_is_the_package_s_object() -> None:
    got = out(
        "import torch\n"
        "from torch.distributions.one_hot_categorical import OneHotCategorical as A, "
        "OneHotCategoricalStraightThrough as B\n"
        "import torch.autograd.grad_mode as gm\n"
        "print(A is torch.distributions.OneHotCategorical,"
        " B is torch.distributions.OneHotCategoricalStraightThrough, gm.no_grad is torch.no_grad)\n"
    )
    assert got == "True True True\n"


def test_a_name_the_file_has_but_gradcli_lacks_is_refused_on_use() -> None:
    program = "from torch.distributions.utils import lazy_property\n"
    assert out(program) == ""
    with pytest.raises(NotSupported, match="lazy_property` is not supported"):
        out(program + "lazy_property(print)\n")


def test_a_name_the_file_lacks_is_an_import_error_naming_what_gradcli_has() -> None:
    with pytest.raises(GradcliError) as err:
        out("from torch.distributions.normal import Gaussian\n")
    assert "cannot import name 'Gaussian' from 'torch.distributions.normal'" in str(err.value)
    assert "Normal" in (err.value.hint or "")
