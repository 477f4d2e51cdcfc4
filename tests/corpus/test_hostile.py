"""A corpus of hostile and broken programs and command lines.

Every case must end within seconds in one clear message on stderr with the right exit status:
no traceback, nothing on stdout, no file written, no network. Where the error has a place in
the program, the message starts with `prog.py:LINE:COL:` and shows the line with a caret
under the place.
"""

from __future__ import annotations

import socket
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gradcli.base.limits import RunBudget
from gradcli.cli.main import app

from .hostile2.judge import continued


def _wall_bound(env: dict) -> float:
    """Seconds of wall clock a case may take: 8, or, where the case sets a time limit (of CPU
    time), what a busy machine may stretch it to (its wall-clock backstop) and start-up."""
    seconds = env.get("GRADCLI_TIME_SECONDS")
    return 8.0 if seconds is None else max(8.0, RunBudget.WALL_FACTOR * float(seconds) + 4.0)


BASE = """\
import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
c = torch.ones(3)
y = x * 2 + c
z = y.sum()
"""

# The imports of the nn.functional cases (their error lines count from 3).
NNF = "import torch\nimport torch.nn.functional as F\n"
NN = "import torch\nimport torch.nn as nn\n"
# The forward-AD cases (their lines count from 4).
FWD = "import torch\nimport torch.autograd.forward_ad as fwAD\nx = torch.ones(3)\n"
# The torch.distributions cases (their lines count from 3).
DS = "import torch\nimport torch.distributions as D\n"


@dataclass
class Case:
    id: str
    program: str | bytes | None  # written to prog.py; None: the command line alone matters
    message: str  # a piece of the first line of the message
    at: tuple[int, int] | None = None  # (line, column), 1-based, where the error points
    code: int = 1
    argv: list[str] = field(default_factory=lambda: ["run", "prog.py"])
    env: dict[str, str] = field(default_factory=dict)
    caret: str | None = None  # the caret line (after ` N | `) where it is not plain ASCII
    printed: bool = False  # the program printed before the error (stdout is its output)


def cli(
    id: str,
    argv: list[str],
    message: str,
    code: int = 1,  # noqa: A002
    program: str | bytes | None = BASE,
) -> Case:
    return Case(id, program, message, None, code, argv)


CASES: list[Case] = [
    # --- shape, selection and running statistics: sizes checked before any work -----------
    Case(
        "tile_huge",
        "x = torch.ones(3)\ny = torch.tile(x, (10**6, 10**6))",
        "over the limit of 10,000,000",
        (2, 5),
    ),
    Case(
        "tile_huge_of_empty",
        "x = torch.ones(0)\ny = x.tile((10**18, 10**18))",
        "over the limit of 10,000,000",
        (2, 5),
    ),
    Case("tile_negative", "x = torch.ones(3)\ny = x.tile((-5,))", "negative dimension -5", (2, 5)),
    Case(
        "repeat_interleave_huge",
        "x = torch.ones(3)\ny = x.repeat_interleave(10**9)",
        "the repeated tensor is 3,000,000,000, over the limit",
        (2, 5),
    ),
    Case(
        "repeat_interleave_huge_counts",
        "y = torch.repeat_interleave(torch.ones(2), torch.tensor([10**12, 1]))",
        "over the limit",
        (1, 5),
    ),
    Case(
        "diff_order_huge_loop",
        "x = torch.ones(10**6, requires_grad=True)\ny = torch.diff(x, n=10**6)",
        "differences diff(n=1000000) makes is 499,999,500,000, over the limit",
        (2, 5),
    ),
    Case(
        "diff_prepend_huge",
        "x = torch.ones(3)\ny = torch.diff(x, prepend=torch.ones(10**8))",
        "over the limit",
        (2, 27),
    ),
    Case(
        "diff_order_negative", "y = torch.diff(torch.ones(3), n=-1)", "order must be non-negative"
    ),
    Case(
        "narrow_huge",
        "x = torch.ones(3)\ny = x.narrow(0, 0, 10**18)",
        "exceeds dimension size (3)",
        (2, 5),
    ),
    Case(
        "flip_many_dims",
        "x = torch.ones(3)\ny = x.flip(list(range(10**5)))",
        "Dimension out of range",
        (2, 5),
    ),
    Case(
        "roll_shift_huge",
        "x = torch.ones(3, requires_grad=True)\ny = torch.roll(x, 10**30, 0)",
        "Overflow when unpacking long",
        (2, 5),
    ),
    Case(
        "take_huge_index",
        "y = torch.take(torch.ones(3), torch.tensor([10**18]))",
        "tried to access index 1000000000000000000 on a tensor of 3 elements",
        (1, 5),
    ),
    Case(
        "index_select_empty_dim",
        "y = torch.index_select(torch.ones(2, 0), 1, torch.tensor([0]))",
        "out of DATA bounds",
        (1, 5),
    ),
    Case(
        "median_empty_dim",
        "y = torch.ones(2, 0).median(dim=1)",
        "median(): Expected reduction dim 1 to have non-zero size",
        (1, 5),
    ),
    Case("mode_empty", "y = torch.mode(torch.zeros(0))", "Expected reduction dim 0", (1, 5)),
    Case(
        "cummax_dim_str",
        "y = torch.cummax(torch.ones(3), 'a')",
        "cummax(): argument 'dim' (position 2) must be int, not str",  # (PyTorch 2.13's words)
        (1, 5),
    ),
    Case(
        "scatter_index_out_of_bounds",
        "y = torch.zeros(3).scatter(0, torch.tensor([5]), 1.0)",
        "index 5 is out of bounds for dimension 0 with size 3",
        (1, 5),
    ),
    Case(
        "masked_select_float_mask",
        "x = torch.ones(3)\ny = x.masked_select(x)",
        "expected BoolTensor for mask",
        (2, 5),
    ),
    Case(
        "quantile_int_input",
        "y = torch.quantile(torch.tensor([1, 2]), 0.5)",
        "must be either float or double",
        (1, 5),
    ),
    Case("flip_dunder", "x = torch.ones(3)\ny = x.flip.__self__", "`.__self__` is not accessible"),
    Case(
        "cumprod_dunder",
        "f = torch.cumprod.__globals__",
        "`.__globals__` is not accessible",
        (1, 18),
    ),
    # --- sandbox escapes: refused before anything runs ------------------------------------
    Case(
        # `.__class__` is type(x), a class value: the escape stops at its next step
        "dunder_class",
        "x = torch.tensor(1.).__class__.__bases__",
        "`.__bases__` is not accessible",
        (1, 31),
    ),
    Case(
        "dunder_subclasses",
        "x = ().__class__.__bases__[0].__subclasses__()",
        "`.__subclasses__` is not accessible",
        (1, 30),
    ),
    # `.__class__` is what type() gives (a class value, never Python's): each escape through it
    # stops at its next step; a dunder method is the program's own or refused
    Case(
        "class_mro", "x = torch.ones(1).__class__.__mro__", "`.__mro__` is not accessible", (1, 28)
    ),
    Case("class_dict", "x = ().__class__.__dict__", "`.__dict__` is not accessible", (1, 17)),
    Case(
        "class_init",
        "x = torch.ones(1).__class__.__init__",
        "`.__init__` of a value of class 'type' is not supported",
        (1, 28),
    ),
    Case(
        "class_called",
        "x = torch.ones(1).__class__([1.0])",
        "calling the class torch.Tensor that type() gave is not supported",
        (1, 5),
    ),
    Case(
        "class_of_class_subclasses",
        "x = (1).__class__.__class__.__subclasses__(int)",
        "`.__subclasses__` is not accessible",
        (1, 28),
    ),
    Case(
        "class_in_format_field",
        "m = torch.nn.Linear(1, 1)\ns = '{0.__class__.__name__}'.format(m)",
        "attribute and item lookups in format strings are not supported",
        (2, 5),
    ),
    Case(
        "class_getattr_bases",
        "c = torch.ones(1).__class__\nb = getattr(c, '__bases__')",
        "getattr(..., '__bases__') is not accessible",
        (2, 5),
    ),
    Case("class_deleted", "x = torch.ones(1)\ndel x.__class__", "not supported", (2, 5)),
    Case(
        "class_augmented", "x = torch.ones(1)\nx.__class__ += 1", "`.__class__` is not accessible"
    ),
    Case(
        "class_init_globals",
        "m = torch.nn.Linear(1, 1)\ng = m.__class__.__init__.__globals__",
        "`.__globals__` is not accessible",
        (2, 25),
    ),
    Case(
        "dunder_len_of_list",
        "n = [1, 2].__len__()",
        "`.__len__` of a value of class 'list' is not supported",
        (1, 11),
    ),
    Case(
        "dunder_call_of_builtin",
        "f = print.__call__",
        "`.__call__` of a value of class 'builtin_function_or_method' is not supported",
        (1, 10),
    ),
    Case(
        "dunder_repr_of_tensor",
        "s = torch.ones(1).__repr__.__self__",  # (the method itself is read: feat24)
        "`.__self__` is not accessible",
        (1, 27),
    ),
    Case(
        "dunder_not_defined",
        "class A:\n    pass\nn = A().__len__()",
        "'A' object has no attribute '__len__'",
        (3, 8),
    ),
    Case(
        "dunder_add_of_own_class",
        "class A:\n    pass\nn = A().__add__(1)",
        "'A' object has no attribute '__add__'",  # (Python's, as for __len__: feat24)
        (3, 8),
    ),
    Case(
        "dunder_method_globals",
        "class P(torch.utils.data.Dataset):\n    def __len__(self):\n        return 2\n"
        "g = P().__len__.__globals__",
        "`.__globals__` is not accessible",
        (4, 16),
    ),
    Case(
        "dunder_method_calls_itself",
        "class A:\n    def __len__(self):\n        return self.__len__()\nn = A().__len__()",
        "the depth of function calls",
    ),
    Case(
        "module_init_of_a_tensor",
        "torch.nn.Module.__init__(torch.ones(1))",
        "descriptor '__init__' of 'Module' object needs an argument",
        (1, 1),
    ),
    Case(
        "tensor_getitem_huge",
        "x = torch.ones(2).__getitem__(10**20)",
        "is out of bounds for dimension 0",
        (1, 5),
    ),
    Case(
        "dunder_globals",
        "def f():\n    pass\ng = f.__globals__",
        "`.__globals__` is not accessible",
        (3, 6),
    ),
    Case(
        "bound_method_func",
        "x = torch.ones(2, requires_grad=True)\nm = x.backward.__func__",
        "`.__func__` is not accessible",
        (2, 15),
    ),
    Case("dunder_builtins", "b = __builtins__", "name '__builtins__' is not defined", (1, 5)),
    Case(
        "import_os", "import os\nos.system('touch pwned')", "`os.system` is not supported", (2, 1)
    ),
    Case(
        "from_os",
        "from os import system\nsystem('ls')",
        "`os.system` is not supported",
        (2, 1),
    ),
    Case(
        "import_subprocess", "import torch\nimport subprocess", "cannot import `subprocess`", (2, 1)
    ),
    Case(
        "dunder_import",
        "__import__('os').system('touch pwned')",
        "Python's `__import__` is not supported",
        (1, 1),
    ),
    Case("eval", "x = 1\neval('x + 1')", "Python's `eval` is not supported", (2, 1)),
    Case("exec", "exec('import os')", "Python's `exec` is not supported", (1, 1)),
    Case("compile", "c = compile('1', 'f', 'eval')", "Python's `compile` is not supported", (1, 5)),
    Case("open", "f = open('/etc/passwd')", "Python's `open` is not supported", (1, 5)),
    Case(
        "getattr",
        "g = getattr(torch, '__loader__')",
        "getattr(..., '__loader__') is not accessible",
        (1, 5),
    ),
    Case("globals", "g = globals()", "Python's `globals` is not supported", (1, 5)),
    Case("type", "t = type", "`type` is only supported as a call", (1, 5)),
    Case("type_call_result", "t = type(1)('5')", "calling the class int that type()", (1, 5)),
    Case(
        "print_to_file", "print('hi', file='pwned.txt')", "print(file=...) is not supported", (1, 1)
    ),
    Case("str_method", "s = 'abc'.translate({})", "str.translate() is not supported", (1, 5)),
    Case("list_ctypes", "l = [1]\nl.ctypes(2)", "'list' object has no attribute 'ctypes'", (2, 1)),
    Case("format_map", "s = '{x}'.format_map({'x': 1})", "format_map() is not supported", (1, 5)),
    Case(
        "format_attribute_walk",
        "x = torch.ones(1)\ns = '{0.grad}'.format(x)",
        "attribute and item lookups in format strings are not supported",
        (2, 5),
    ),
    Case(
        "format_item_walk",
        "s = '{0[0]}'.format([1])",
        "attribute and item lookups in format strings are not supported",
        (1, 5),
    ),
    Case("torch_load", "m = torch.load('model.pt')", "No such file or directory", (1, 5)),
    Case(
        "numpy_ctypes",
        "import numpy as np\nx = np.ctypeslib",
        "`numpy.ctypeslib` is not supported",
        (2, 5),
    ),
    # NumPy arrays (np.array and its kin make arrays): sized first, only torch's dtypes.
    Case("np_zeros_huge", "import numpy as np\nx = np.zeros(10**12)", "over the limit", (2, 5)),
    Case("np_arange_huge", "import numpy as np\nx = np.arange(10**12)", "over the limit", (2, 5)),
    Case(
        "np_linspace_huge",
        "import numpy as np\nx = np.linspace(0, 1, 10**12)",
        "over the limit",
        (2, 5),
    ),
    Case("np_eye_huge", "import numpy as np\nx = np.eye(10**7)", "over the limit", (2, 5)),
    Case(
        "np_array_object_dtype",
        "import numpy as np\nx = np.array([1.0], dtype='O')",
        "the NumPy dtype 'O' is not supported by gradcli",
        (2, 5),
    ),
    Case(
        "np_array_nested_deep",
        "import numpy as np\nl = [1.0]\nfor i in range(40):\n    l = [l]\nx = np.array(l)",
        "nested too deeply",
        (5, 5),
    ),
    # numpy.set_printoptions: checked values; an unsummarized array's text sized first.
    Case(
        "np_printoptions_fixed_huge_text",
        "import numpy as np\nnp.set_printoptions(threshold=10**9, floatmode='fixed', "
        "precision=10**5)\nx = np.zeros(100000)\nprint(x)",
        "over the limit",
        (4, 1),
    ),
    Case(
        "np_printoptions_formatter",
        "import numpy as np\nnp.set_printoptions(formatter={'float': print})",
        "numpy.set_printoptions(formatter=...) is not supported by gradcli",
        (2, 1),
    ),
    Case(
        "np_printoptions_nanstr_huge",
        "import numpy as np\nnp.set_printoptions(nanstr='x' * 10**6)",
        "nanstr is longer than 100 characters",
        (2, 1),
    ),
    Case(
        "np_printoptions_linewidth_str",
        "import numpy as np\nnp.set_printoptions(linewidth='x')",
        "linewidth must be an integer, not str",
        (2, 1),
    ),
    Case(
        "np_exp_of_string",
        "import numpy as np\nx = np.exp('a')",
        "numpy.exp() takes arrays, numbers or lists",
        (2, 5),
    ),
    Case(
        "from_numpy_of_list",
        "x = torch.from_numpy([1.0])",
        "expected np.ndarray (got list)",
        (1, 5),
    ),
    # size= of the constructors.
    Case("zeros_size_huge", "x = torch.zeros(size=(10**6, 10**6))", "over the limit", (1, 5)),
    Case(
        "randn_size_int",
        "x = torch.randn(size=3)",
        "argument 'size' must be tuple of ints, not int",
        (1, 5),
    ),
    Case(
        "ones_size_twice",
        "x = torch.ones(2, size=(2,))",
        "got multiple values for argument 'size'",
        (1, 5),
    ),
    Case(
        "rand_size_negative",
        "x = torch.rand(size=(-1, 2))",
        "negative dimension -1",
        (1, 5),
    ),
    Case(
        "format_spec_not_str",
        "s = format(1.5, 2)",
        "format() argument 2 must be str, not int",
        (1, 5),
    ),
    Case(
        "lambda_recursion",
        "f = lambda n: f(n + 1)\ny = f(0)",
        "the depth of function calls is 51",
        (1, 15),
    ),
    Case(
        "listcomp",
        "x = [i for i in range(10**7)]",
        "the number of loop iterations is 1,001",
        (1, 5),
        env={"GRADCLI_LOOP_ITERATIONS": "1000"},
    ),
    Case(
        "genexp",
        "x = sum(i for i in range(10**7))",
        "the number of loop iterations is 1,001",
        (1, 5),
        env={"GRADCLI_LOOP_ITERATIONS": "1000"},
    ),
    Case(
        "class_of_tensor",
        "class A(torch.Tensor):\n    pass",
        "classes are only supported as subclasses of torch.nn.Module or torch.autograd.Function",
        (1, 9),
    ),
    Case(
        "with_no_grad",
        "x = torch.ones(2)\nwith x:\n    y = x * 2",
        "`with` is only supported for torch.no_grad()",
        (2, 6),
    ),
    Case(
        "while_true",
        "while True:\n    pass",
        "the number of loop iterations is 1,001",
        (1, 1),
        env={"GRADCLI_LOOP_ITERATIONS": "1000"},
    ),
    Case(
        "try_except",
        "try:\n    x = torch.zeros(100000, 100000)\nexcept Exception:\n    pass",
        "over the limit",
        (2, 9),
    ),
    Case(
        "star_star_kwargs",
        "kw = [1]\nx = torch.ones(2, **kw)",
        "argument after ** must be a mapping, not list",
        (2, 21),
    ),
    Case("star_args", "a = 5\nx = torch.ones(*a)", "'int' object is not iterable", (2, 16)),
    Case("fstring", "x = 1\nprint(f'{x!a}')", "the `!a` conversion is not supported", (2, 10)),
    Case(
        "walrus_rebinds_comprehension_variable",
        "print([x := 1 for x in range(3)])",
        "cannot rebind comprehension iteration variable 'x'",
        (1, 8),
    ),
    Case("walrus_while_forever", "while (n := 1):\n    pass", "over the limit"),
    Case(
        "walrus_comprehension_huge",
        "ys = [(last := torch.ones(10**6)) for i in range(10**9)]",
        "over the limit",
    ),
    Case(
        "decorator",
        "@classmethod\ndef f(x):\n    return x",
        "@classmethod is not supported here",
        (1, 2),
    ),
    Case(
        "global_reaches_no_builtins_object",
        "def f():\n    global __builtins__\n    return __builtins__.open\nf()",
        "name '__builtins__' is not defined",
        (3, 12),
    ),
    Case(
        "nonlocal_without_binding",
        "def f():\n    nonlocal x",
        "syntax error: no binding for nonlocal 'x' found",
        (2, 5),
    ),
    Case("raise", "raise SystemExit(3)", "name 'SystemExit' is not defined", (1, 7)),
    Case(
        "logging_message_over_the_string_limit",
        "import logging\nlogging.basicConfig(level=logging.INFO)\n"
        "logging.info('%s%s', 'a' * 600000, 'b' * 600000)",
        "over the limit of 1,000,000",
        (3, 1),
    ),
    Case(
        "logging_loggers_over_the_limit",
        "import logging\nfor i in range(101):\n    logging.getLogger(str(i))",
        "the number of loggers is 101, over the limit of 100",
        (3, 5),
        env={"GRADCLI_LIST_ITEMS": "100"},
    ),
    Case(
        "logging_logger_dict",
        "import logging\nd = logging.getLogger('x').__dict__",
        "`.__dict__` is not accessible",
        (2, 27),
    ),
    Case(
        "logging_stream_stdout",
        "import logging\nlogging.basicConfig(stream=None, level=logging.INFO)",
        "logging.basicConfig(stream=...) is not supported by gradcli",
        (2, 1),
    ),
    Case(
        "set_union_over_the_limit",
        "a = set(range(600000))\nb = set(range(600000, 1200000))\nc = a | b",
        "the size of the set is 1,200,000, over the limit of 1,000,000",
        (3, 5),
    ),
    Case(
        "set_in_place_union_over_the_limit",
        "a = set(range(600000))\na |= set(range(600000, 1200000))",
        "the size of the set is 1,200,000, over the limit of 1,000,000",
        (2, 1),
    ),
    Case(
        "dict_keys_minus_list",
        "d = {'a': 1}\nk = d.keys() - ['a']",
        "operator - of a dict's keys and a list is not supported by gradcli",
        (2, 5),
    ),
    Case(
        "set_minus_tensor",
        "k = {1} - torch.ones(1)",
        "unsupported operand type(s) for -: 'set' and 'Tensor'",
        (1, 5),
    ),
    Case(
        "numpy_finfo_long_string",
        "import numpy as np\nf = np.finfo('f4,' * 10**5)",
        "numpy.finfo() of a string of over 32 characters is not supported",
        (2, 5),
    ),
    Case(
        "numpy_finfo_private_attribute",
        "import numpy as np\nf = np.finfo(np.float32)._info",
        "'finfo' object has no attribute '_info'",
        (2, 5),
    ),
    Case(
        "copy_copy_batched",
        "import copy\nf = torch.func.vmap(lambda t: copy.copy(t) * 2)\nf(torch.ones(3, 2))",
        "Cannot access storage of BatchedTensorImpl",
        (2, 31),
    ),
    Case(
        "copy_copy_leaf_in_place",
        "import copy\nc = copy.copy(torch.ones(2, requires_grad=True))\nc.add_(1)",
        "a leaf Variable that requires grad is being used in an in-place operation",
        (3, 1),
    ),
    Case(
        "raise_from_tensor",
        "raise ValueError('x') from torch.ones(1)",
        "exception causes must derive from BaseException",
        (1, 1),
    ),
    Case(
        "raise_from_function",
        "def f():\n    pass\nraise ValueError('x') from f",
        "exception causes must derive from BaseException",
        (3, 1),
    ),
    Case(
        "raise_from_cause_dunder",
        "try:\n    raise ValueError('x') from KeyError('k')\nexcept ValueError as e:\n"
        "    c = e.__cause__",
        "`.__cause__` is not accessible in gradcli programs",
        (4, 10),
    ),
    Case(
        "raise_from_undefined",
        "raise ValueError('x') from undefined_cause",
        "name 'undefined_cause' is not defined",
        (1, 28),
    ),
    Case("bytearray_value", "x = bytearray(b'abc')", "`bytearray` is not supported", (1, 5)),
    # complex numbers: Python's and the tensors' under the same limits, the rest refused
    Case("complex_power_overflow", "x = (1 + 1j) ** 10**6", "complex exponentiation", (1, 5)),
    Case("complex_division_by_zero", "x = 1j / 0", "complex division by zero", (1, 5)),
    Case("complex_half", "x = torch.zeros(2, dtype=torch.chalf)", "torch.chalf", (1, 26)),
    Case(
        "complex_fft_padded_past_the_limit",
        "x = torch.fft.rfft(torch.ones(4), n=10**10)",
        "over the limit",
        (1, 5),
    ),
    Case(
        "complex_tensor_elements",
        "x = torch.zeros(10**9, dtype=torch.cfloat)",
        "over the limit",
        (1, 5),
    ),
    Case(
        "complex_randn_elements",
        "x = torch.randn(10**5, 10**4, dtype=torch.cdouble)",
        "over the limit",
        (1, 5),
    ),
    Case(
        "complex_broadcast_elements",
        "z = torch.ones(10**4, 1, dtype=torch.cfloat)\nx = z * torch.ones(10**4) * 1j",
        "over the limit",
        (2, 5),
    ),
    Case(
        "complex_no_rule",
        "x = torch.logcumsumexp(torch.tensor([1j]), 0)",
        "complex tensors are not supported by torch.logcumsumexp() yet",
        (1, 5),
    ),
    Case(
        "complex_record_without_rule",
        "z = torch.tensor([1j])\nx = z // z",
        "complex tensors are not supported by floor_divide yet",
        (2, 5),
    ),
    Case("complex_ordering", "x = torch.tensor([1j]) < 1", '"lt_cpu" not implemented', (1, 5)),
    Case("complex_python_ordering", "x = 1j < 2j", "'<' not supported", (1, 5)),
    Case(
        "complex_format_precision",
        'x = f"{1j:.999999999f}"',
        "over the limit",
        (1, 8),
    ),
    Case(
        "complex_format_zero_padding",
        'x = f"{1j:010}"',
        "Zero padding is not allowed in complex format specifier",
        (1, 8),
    ),
    Case(
        "complex_format_attribute",
        'x = "{0.real.__class__}".format(1j)',
        "not supported",
        (1, 5),
    ),
    Case(
        "complex_to_real",  # (.to(torch.float32) is PyTorch's cast with its warning)
        "x = torch.logaddexp(torch.tensor([1 + 2j]), torch.tensor([1j]))",
        "complex tensors are not supported by",
        (1, 5),
    ),
    Case(
        "complex_numpy_cast",
        "x = torch.ones(3, dtype=torch.cfloat).numpy().astype(float)",
        "complex tensors are not supported by",
        (1, 5),
    ),
    Case(
        "complex_implicit_grad",
        "x = torch.tensor(1j, requires_grad=True).exp().backward()",
        "grad can be implicitly created only for real scalar outputs",
        (1, 5),
    ),
    Case("complex_dunder", "x = (1j).__reduce__()", "is not accessible", (1, 9)),
    Case(
        "complex_numpy_arithmetic",
        "import numpy as np\nx = 1j % np.arange(3)",  # (1j * np.arange(3): NumPy's complex)
        "ufunc 'remainder' not supported for the input types",
        (2, 5),
    ),
    Case(
        "complex_class_dunder",
        "x = (1j).__class__.__subclasses__()",
        "is not accessible",
        (1, 19),
    ),
    Case("yield", "def f():\n    x = yield 1", "`yield` is supported as a statement", (2, 9)),
    # --- resource exhaustion: refused before the work, or stopped by a budget ---------------
    Case(
        "zeros_huge",
        "x = torch.zeros(100000, 100000)",
        "a tensor of shape [100000, 100000] is 10,000,000,000, over the limit",
        (1, 5),
    ),
    Case("randn_huge", "x = torch.randn(10**5, 10**5)", "over the limit of 10,000,000", (1, 5)),
    Case(
        "broadcast_huge",
        "a = torch.ones(100000, 1)\nb = torch.ones(1, 100000)\nc = a + b",
        "the broadcast result is 10,000,000,000",
        (3, 5),
    ),
    Case(
        "matmul_huge",
        "a = torch.ones(100000, 1)\nc = a @ a.T",
        "the matmul result is 10,000,000,000",
        (2, 5),
    ),
    Case("expand_huge", "x = torch.ones(3)\ny = x.expand(10**9, 3)", "over the limit", (2, 5)),
    Case(
        "cat_huge",
        "x = torch.ones(10**6)\ny = torch.cat([x] * 20)",
        "the concatenated tensor is 20,000,000",
        (2, 5),
    ),
    Case("arange_huge", "x = torch.arange(0, 10**12)", "arange's length", (1, 5)),
    Case(
        "doubling_loop",
        "x = torch.ones(2)\nfor i in range(40):\n    x = torch.cat([x, x])",
        "over the limit of 10,000,000",
        (3, 9),
    ),
    Case("list_repeat", "x = [0] * 10**9", "the length of the list is 1,000,000,000", (1, 5)),
    Case(
        "list_doubling",
        "l = [1]\nfor i in range(40):\n    l = l + l",
        "the length of the list is 1,048,576",
        (3, 9),
    ),
    Case(
        "string_doubling",
        "s = 'ab'\nfor i in range(40):\n    s = s + s",
        "the length of the string is 1,048,576",
        (3, 9),
    ),
    Case(
        "range_loop",
        "for i in range(10**18):\n    pass",
        "this loop would run 1,000,000,000,000,000,000 times",
        (1, 10),
    ),
    Case(
        "nested_loops",
        "for i in range(10**4):\n    for j in range(10**4):\n        pass",
        "the number of loop iterations is 1,000,001",
        (2, 5),
    ),
    Case("int_tower", "x = 10**10**10", "the size of an integer in bits", (1, 5)),
    Case(
        "int_squaring",
        "x = 2**200\nfor i in range(10):\n    x = x * x",
        "the size of an integer in bits is 401",
        (3, 9),
    ),
    Case("float_pow_overflow", "x = 2.0 ** 10000", "Numerical result out of range", (1, 5)),
    Case(
        "float32_pow_broadcast_huge",
        "import torch\ny = torch.ones(5000, 1) ** torch.ones(1, 5000)",
        "the broadcast result is 25,000,000",
        (2, 5),
    ),
    Case(
        "float32_pow_long_stopped_by_clock",
        "import torch\nx = torch.ones(10000000) * 0.5\ny = x ** x",
        "gradcli has run for over 1 seconds",
        (3, 5),
        env={"GRADCLI_TIME_SECONDS": "1"},
    ),
    Case(
        "class_assigned_refused",  # hooks print module.__class__.__name__: read, never set
        "import torch\nc = torch.ones(1)\nc.__class__ = int",
        "`.__class__` is not accessible",
        (3, 2),
    ),
    Case(
        # the power series of I_1: 100 passes over the array (46 s past a 1 s limit before
        # the clock was read between them)
        "bessel_i1_long_stopped_by_clock",
        "import torch\nx = torch.ones(10000000, dtype=torch.float64)\ny = torch.special.i1(x)",
        "gradcli has run for over 1 seconds",
        (3, 5),
        env={"GRADCLI_TIME_SECONDS": "1"},
    ),
    Case(
        # (erf of 10M float64 elements takes 0.3-1 s, by machine: several of them, on values
        # that are not all equal)
        "erf_float64_long_stopped_by_clock",
        "import torch\nx = torch.linspace(-3, 3, 10000000, dtype=torch.float64)\n"
        "for i in range(30):\n    y = torch.erf(x)",
        "gradcli has run for over 1 seconds",
        None,  # (in linspace or in an erf, by machine)
        env={"GRADCLI_TIME_SECONDS": "1"},
    ),
    Case(
        "float32_pow_empty_and_wrong_type",
        "import torch\ne = torch.ones(0, 3) ** torch.ones(3)\nprint(e.shape)\n"
        "y = torch.ones(3) ** 'a'",
        "unsupported operand type(s) for ** or pow(): 'Tensor' and 'str'",
        (4, 5),
        printed=True,
    ),
    Case(
        "recursion",
        "def f(n):\n    return f(n + 1)\ny = f(0)",
        "the depth of function calls is 51",
        (2, 12),
    ),
    Case(
        "recursion_tree",
        "def f(n):\n    if n == 0:\n        return 1\n    return f(n - 1) + f(n - 1)\ny = f(40)",
        "gradcli has run for over 2 seconds",
        env={"GRADCLI_TIME_SECONDS": "2"},
    ),
    Case(
        "graph_growth",
        "x = torch.ones(1, requires_grad=True)\nfor i in range(10**6):\n    x = x * 1.0",
        "gradcli has run for over 2 seconds",
        None,  # the clock may run out in the loop's header or in its body
        env={"GRADCLI_TIME_SECONDS": "2"},
    ),
    Case(
        "graph_nodes",
        "x = torch.ones(1, requires_grad=True)\nfor i in range(1000):\n    x = x * 1.0",
        "the number of operations recorded in the graph is 101",
        (3, 9),
        env={"GRADCLI_GRAPH_NODES": "100"},
    ),
    Case(
        # graphs kept in a list, each step's freed name notwithstanding: the live ones count
        "graph_nodes_held",
        "x = torch.ones(1, requires_grad=True)\nk = []\nfor i in range(1000):\n"
        "    y = x * 2\n    k.append(y.sum())\n    y.backward()",
        "the number of operations recorded in the graph is 101",
        None,
        env={"GRADCLI_GRAPH_NODES": "100"},
    ),
    Case("list_of_range", "x = list(range(10**12))", "1,000,000,000,000, over the limit", (1, 5)),
    Case("size_of_range", "s = torch.Size(range(10**9))", "over the limit of 1,000,000", (1, 5)),
    Case(
        "print_shared_list",
        "l = [1]\nfor i in range(64):\n    l = [l, l]\nprint(l)",
        "the number of items print() would visit",
        (4, 1),
    ),
    Case(
        "print_deep_list",
        "l = [1]\nfor i in range(5000):\n    l = [l]\nprint(l)",
        "the list is nested over 100 levels deep",
        (4, 1),
    ),
    Case(
        "tensor_deep_list",
        "l = [1.0]\nfor i in range(5000):\n    l = [l]\nx = torch.tensor(l)",
        "nested too deeply",
        (4, 5),
    ),
    Case(
        "print_flood",
        "s = 'y'\nfor i in range(19):\n    s = s + s\nfor i in range(100):\n    print(s)",
        "the output the program prints",
        (5, 5),
        printed=True,
    ),
    Case(
        "memory_growth",
        "xs = []\nfor i in range(100):\n    xs = xs + [torch.ones(10**6)]",
        "the memory the program has taken",
        (3, 16),
        env={"GRADCLI_MEMORY_MB": "30"},
    ),
    Case(
        "deep_parens", "x = " + "(" * 500 + "1" + ")" * 500, "too many nested parentheses", (1, 205)
    ),
    Case("deep_unary", "x = " + "-" * 50_000 + "1", "nested too deeply to parse"),
    Case("long_chain", "x = 1" + " + 1" * 5000, "nested too deeply to parse"),
    Case("chain_over_limit", "x = 1" + " + 1" * 150, "nested too deeply (over 100 levels)", (1, 5)),
    Case(
        "deep_indent",
        "if 1:\n" + "".join(" " * (i + 1) + "if 1:\n" for i in range(150)) + " " * 152 + "pass",
        "too many levels of indentation",
        (101, 1),
    ),
    Case("huge_int_literal", "x = 0x" + "f" * 200, "the size of an integer in bits is 800", (1, 5)),
    # --- syntax errors from real snippets ----------------------------------------------------
    Case(
        "py2_print",
        "import torch\nx = torch.ones(2)\nprint x",
        "syntax error: Missing parentheses in call to 'print'",
        (3, 1),
    ),
    Case(
        "unclosed_paren",
        "x = torch.tensor([1., 2.], requires_grad=True\ny = x * 2",
        "syntax error: '(' was never closed",
        (1, 17),
    ),
    Case("missing_colon", "for i in range(3)\n    x = i", "syntax error: expected ':'", (1, 18)),
    Case("unexpected_indent", "x = 1\n    y = 2", "syntax error: unexpected indent", (2, 4)),
    Case(
        "tabs_and_spaces",
        "if True:\n\tx = 1\n        y = 2",
        "inconsistent use of tabs and spaces",
        (3, 1),
    ),
    Case(
        "unterminated_string",
        "x = torch.tensor([1.])\nprint('done)",
        "unterminated string literal",
        (2, 7),
    ),
    Case(
        "smart_quotes",
        "x = torch.tensor([1., 2.])\nprint(‘hello’)",
        "invalid character '‘' (U+2018)",
        (2, 7),
    ),
    Case("times_sign", "x = 1\ny = x × 2", "invalid character '×' (U+00D7)", (2, 7)),
    Case("leading_zero", "x = torch.ones(07)", "leading zeros in decimal integer", (1, 16)),
    Case("repl_prompt", ">>> x = torch.ones(2)", "syntax error: invalid syntax", (1, 1)),
    Case("ipython_magic", "%matplotlib inline\nx = 1", "syntax error", (1, 1)),
    Case("markdown_fence", "```python\nx = torch.ones(2)\n```", "syntax error", (1, 1)),
    Case(
        "assign_to_call", "x = torch.ones(2)\nx.sum() = 3", "cannot assign to function call", (2, 1)
    ),
    Case("keyword_as_name", "lambda = 0.1", "syntax error: invalid syntax", (1, 8)),
    Case("break_outside_loop", "x = 1\nbreak", "`break` outside a loop", (2, 1)),
    Case("return_outside_def", "return 1", "`return` outside a function", (1, 1)),
    # Columns are characters, and the caret is under them as a terminal shows them.
    Case(
        "non_ascii_syntax",
        "x = '日本語'; y = ((1",
        "'(' was never closed",
        (1, 17),
        caret=" " * 19 + "^",
    ),
    Case(
        "leading_zero_after_cjk",
        "x = '日本'; y = 0777",
        "leading zeros",
        (1, 15),
        caret=" " * 16 + "^",
    ),
    Case(
        "cjk_names",
        "値 = torch.ones(2)\n結果 = 値 * 未定義",
        "name '未定義' is not defined",
        (2, 10),
        caret=" " * 12 + "^" * 6,
    ),
    Case(
        "tab_indent",
        "if 1:\n\ty = undefined_name",
        "name 'undefined_name' is not defined",
        (2, 6),
        caret=" " * 8 + "^" * 14,
    ),
    Case("accented", "é = 1\nprint(é + 'a')", "unsupported operand type(s) for +", (2, 7)),
    # --- wrong shapes and values ------------------------------------------------------------
    Case(
        "shape_mismatch",
        "a = torch.ones(2, 3, requires_grad=True)\nb = torch.ones(3, 2)\nc = a + b",
        "must match the size of tensor b (2) at non-singleton dimension 1",
        (3, 5),
    ),
    Case(
        "matmul_mismatch",
        "a = torch.ones(2, 3)\nb = torch.ones(2, 3)\nc = a @ b",
        "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)",
        (3, 5),
    ),
    Case(
        "view_invalid",
        "a = torch.ones(2, 3)\nb = a.view(4, 2)",
        "shape '[4, 2]' is invalid for input of size 6",
        (2, 5),
    ),
    Case(
        "dim_out_of_range",
        "a = torch.ones(2, 3)\nb = a.sum(dim=5)",
        "Dimension out of range",
        (2, 5),
    ),
    Case(
        "index_out_of_range",
        "a = torch.ones(2, 3)\nb = a[5]",
        "index 5 is out of bounds for dimension 0 with size 2",
        (2, 5),
    ),
    Case(
        "ragged_tensor",
        "a = torch.tensor([[1, 2], [3]])",
        "expected sequence of length 2 at dim 1 (got 1)",
        (1, 5),
    ),
    Case(
        "backward_non_scalar",
        "x = torch.ones(3, requires_grad=True)\ny = x * 2\ny.backward()",
        "grad can be implicitly created only for scalar outputs",
        (3, 1),
    ),
    Case(
        "backward_twice",
        "x = torch.ones(3, requires_grad=True)\ny = (x.exp() * 2).sum()\n"
        "y.backward()\ny.backward()",
        "Trying to backward through the graph a second time",
        (4, 1),
    ),
    Case(
        "gradient_wrong_shape",
        "x = torch.ones(3, requires_grad=True)\ny = x * 2\ny.backward(torch.ones(4))",
        "Mismatch in shape",
        (3, 1),
    ),
    Case(
        "gradient_ragged",
        "x = torch.ones(1, requires_grad=True)\ny = x * 2\ny.backward(gradient=[[1, 2], [3]])",
        "gradients can be either Tensors or None, but got list",
        (3, 1),
    ),
    Case(
        "gradient_string",
        "x = torch.ones(1, requires_grad=True)\ny = x * 2\ny.backward(gradient='abc')",
        "gradients can be either Tensors or None, but got str",
        (3, 1),
    ),
    Case(
        "backward_inputs_ints",
        "x = torch.ones(1, requires_grad=True)\ny = x * 2\ny.backward(inputs=[1, 2])",
        "all inputs have to be Tensors or GradientEdges, but got int",
        (3, 1),
    ),
    Case(
        "backward_no_graph",
        "x = torch.ones(3)\ny = x.sum()\ny.backward()",
        "does not require grad",
        (3, 1),
    ),
    Case("undefined_name", "x = torch.ones(2)\ny = z * 2", "name 'z' is not defined", (2, 5)),
    Case(
        "misspelt_method",
        "x = torch.ones(2)\ny = x.summ()",
        "'Tensor' object has no attribute 'summ'",
        (2, 5),
    ),
    Case(
        "misspelt_function",
        "x = torch.ones(2)\ny = torch.sigmod(x)",
        "module 'torch' has no attribute 'sigmod'",
        (2, 5),
    ),
    Case(  # a name PyTorch has and gradcli does not: a refusal, not Python's error
        "pytorch_name_gradcli_lacks",
        "x = torch.ones(2)\ny = x.pin_memory()",
        "`Tensor.pin_memory` is not supported by gradcli",
        (2, 5),
    ),
    Case(
        "autograd_name_pytorch_lacks",
        "g = torch.autograd.jacobian",
        "module 'torch.autograd' has no attribute 'jacobian'",
        (1, 5),
    ),
    Case(
        "wrong_arity",
        "x = torch.ones(2)\ny = torch.exp(x, x, x)",
        "exp() takes 1 positional argument but 3 were given",
        (2, 5),
    ),
    # PyTorch's (or Python's) words for a call that does not fit, whatever its size or names
    Case(
        "call_dunder_keyword",
        "x = torch.ones(2)\ny = torch.exp(x, __class__=1)",
        "exp() got an unexpected keyword argument '__class__'",
        (2, 5),
    ),
    Case(
        "call_huge_number_of_arguments",
        "x = torch.ones(2)\ny = torch.exp(*([x] * 100000))",
        "exp() takes 1 positional argument but 100000 were given",
        (2, 5),
    ),
    Case(
        "module_call_huge_number_of_inputs",
        "m = torch.nn.MSELoss()\ny = m(*([torch.ones(1)] * 50000))",
        "MSELoss.forward() takes 3 positional arguments but 50001 were given",
        (2, 5),
    ),
    Case(
        "own_function_dunder_keyword",
        "def f(a):\n    return a\ny = f(**{'__dict__': 1})",
        "f() got an unexpected keyword argument '__dict__'",
        (3, 5),
    ),
    Case(
        "dim_keyword_a_dunder_string",
        "x = torch.ones(2)\ny = torch.unsqueeze(x, dim='__class__')",
        "unsqueeze(): argument 'dim' must be int, not str",
        (2, 5),
    ),
    Case(
        "numpy_keyword_and_torch_keyword",
        "x = torch.ones(2)\ny = x.sum(axis=0, dim=0)",
        "got an unexpected keyword argument 'axis'",
        (2, 5),
    ),
    Case(
        "bad_keyword",
        "x = torch.ones(2)\ny = x.sum(axes=0)",
        "sum() received an invalid combination of arguments",  # (PyTorch's parser's words)
        (2, 5),
    ),
    Case(
        "numel_of_int",
        "n = torch.numel(5)",
        "numel(): argument 'input' (position 1) must be Tensor, not int",
        (1, 5),
    ),
    Case("int_of_inf", "n = int(float('inf'))", "cannot convert float infinity to integer", (1, 5)),
    Case("division_by_zero", "x = 1 / 0", "division by zero", (1, 5)),
    Case("arange_inf", "x = torch.arange(0, float('inf'))", "unsupported range: 0 -> inf", (1, 5)),
    Case("eye_negative", "x = torch.eye(-1)", "n must be greater or equal to 0, got -1", (1, 5)),
    Case(
        "full_of_string",
        "x = torch.full((2,), 'a')",
        "full(): argument 'fill_value' (position 2) must be Number, not str",
        (1, 5),
    ),
    Case(
        "seed_string",
        "torch.manual_seed('abc')",
        "invalid literal for int() with base 10: 'abc'",  # torch.manual_seed calls int()
        (1, 1),
    ),
    Case(
        "rand_out_huge",
        "o = torch.empty(2)\ntorch.rand(10**9, out=o)",
        "over the limit of 10,000,000",
        (2, 1),
    ),
    Case(
        "zeros_out_huge",
        "o = torch.empty(2)\ntorch.zeros(10**5, 10**5, out=o)",
        "over the limit of 10,000,000",
        (2, 1),
    ),
    Case(
        "normal_out_huge",
        "torch.normal(0.0, 1.0, (10**10,), out=torch.empty(1))",
        "over the limit of 10,000,000",
        (1, 1),
    ),
    Case(
        "randn_out_not_a_tensor",
        "torch.randn(3, out=5)",
        "randn(): argument 'out' must be Tensor, not int",
        (1, 1),
    ),
    Case(
        "rand_out_dtype_mismatch",
        "torch.rand(3, dtype=torch.float64, out=torch.empty(3))",
        "dtype Double does not match dtype of out parameter (Float)",
        (1, 1),
    ),
    Case(
        "fork_rng_cuda_devices",
        "with torch.random.fork_rng(devices=[0]):\n    x = torch.rand(2)",
        "fork_rng(): gradcli has only the CPU generator",
        (1, 6),
    ),
    Case(
        "fork_rng_decorator",
        "@torch.random.fork_rng()\ndef f():\n    return torch.rand(2)",
        "fork_rng",
        None,
    ),
    Case(
        "default_dtype_int",
        "torch.set_default_dtype(torch.int64)",
        "only floating-point types are supported as the default type",
        (1, 1),
    ),
    # --- dtypes and the generator: only PyTorch's dtypes, only the generator's methods ---
    Case(
        "dtype_object_string",
        'x = torch.zeros(2, dtype="O")',
        "zeros(): argument 'dtype' must be torch.dtype, not str",
        (1, 5),
    ),
    Case(
        "dtype_huge_string",
        'x = torch.tensor([1], dtype="U1000000")',
        "tensor(): argument 'dtype' must be torch.dtype, not str",
        (1, 5),
    ),
    Case(
        "dtype_subarray_string",
        'x = torch.ones(3).to("(100000,)f8")',
        "Invalid device string: '(100000,)f8'",
        (1, 5),
    ),
    Case(
        "int_overflow",
        "x = torch.tensor([2**63], dtype=torch.int64)",
        "Overflow when unpacking long long",
        (1, 5),
    ),
    Case("int_overflow_says_range", "x = torch.tensor(2**70)", "out of range for int64", (1, 5)),
    Case("device_object_dtype", 'x = torch.ones(2).to("O")', "NumPy's code for its dtype", (1, 5)),
    Case(
        "device_kwarg_dtype", 'x = torch.ones(2, device="float64")', "the name of a dtype", (1, 5)
    ),
    Case("device_kwarg_cuda", "x = torch.zeros(2, device=0)", "none is available", (1, 5)),
    Case(
        "clamp_list_bound",
        "x = torch.ones(10**6)\nx.clamp_(min=[[0.0]] * 200)",
        "clamp_() received an invalid combination of arguments - got (min=list, )",
        (2, 1),
    ),
    Case(
        "clamp_tensor_bound_broadcast",
        "x = torch.ones(10**6)\nx.clamp_(min=torch.zeros(200, 1))",
        "the broadcast result is 200,000,000, over the limit",
        (2, 1),
    ),
    Case(
        "reduction_of_empty_huge",
        "e = torch.zeros(0, 10**12)\ns = e.logsumexp(0)",
        "the result of logsumexp is 1,000,000,000,000, over the limit",
        (2, 5),
    ),
    Case(
        "any_of_empty_huge",
        "e = torch.zeros(0, 10**12)\ns = e.any(0)",
        "the result of any is 1,000,000,000,000, over the limit",
        (2, 5),
    ),
    Case(
        "one_hot_classes_huge",
        "t = torch.zeros(0, dtype=torch.int64)\no = torch.nn.functional.one_hot(t, 10**13)",
        "one_hot's number of classes is 10,000,000,000,000, over the limit",
        (2, 5),
    ),
    Case(
        "int_matmul_past_the_time",
        "a = torch.full((2500, 2500), 2**40, dtype=torch.int64)\nb = a @ a",
        "the time limit",
        (2, 5),
        env={"GRADCLI_TIME_SECONDS": "1"},
    ),
    Case(
        # float32 products past 2^24 multiply-adds are MKL's blocked chains in tiles of BLAS
        # calls where NumPy's BLAS is proven to compute them (ops/blas32.py): the clock is read
        # between tiles and in the emulation that proves them
        "blocked_float32_products_past_the_time",
        "x = torch.randn(2000, 1000)\nw = torch.randn(1000, 1000)\n"
        "for i in range(10000):\n    y = x @ w",
        "the time limit",
        env={"GRADCLI_TIME_SECONDS": "1"},
    ),
    Case(
        # the single-column product mirrors MKL's order in NumPy passes (16 lanes a row): a
        # loop of them still stops at the time limit
        "single_column_products_past_the_time",
        "x = torch.randn(600000, 16)\nw = torch.randn(1, 16)\n"
        "for i in range(10000):\n    y = torch.nn.functional.linear(x, w)",
        "the time limit",
        env={"GRADCLI_TIME_SECONDS": "1"},
    ),
    Case(
        # MKL's blocked chain at its bound on work (64 x 1024 x 256: a pass per 32 inner, the
        # clock read between them): a loop of them stops at the time limit
        "blocked_chain_products_past_the_time",
        "x = torch.randn(64, 1024)\nw = torch.randn(256, 1024)\n"
        "for i in range(10000):\n    y = torch.nn.functional.linear(x, w)",
        "the time limit",
        env={"GRADCLI_TIME_SECONDS": "1"},
    ),
    Case(
        # the few-rows kernels (16 lanes a product): the same
        "few_rows_lanes_past_the_time",
        "x = torch.randn(3, 20000)\nw = torch.randn(250, 20000)\n"
        "for i in range(10000):\n    y = torch.nn.functional.linear(x, w)",
        "the time limit",
        env={"GRADCLI_TIME_SECONDS": "1"},
    ),
    Case(
        # the same for the column kernel of a gradient (a row times a wide matrix)
        "column_kernel_products_past_the_time",
        "g = torch.randn(1, 2000)\nx = torch.randn(2000, 4000)\n"
        "for i in range(10000):\n    y = g @ x",
        "the time limit",
        env={"GRADCLI_TIME_SECONDS": "1"},
    ),
    Case(
        # float32 convs in oneDNN's order (a NumPy step per fused multiply-add, the clock read
        # between kernel offsets) and their gradients (a pass per 32 output positions): a loop
        # of them stops at the time limit
        "conv_gradients_past_the_time",
        NNF + "x = torch.randn(8, 16, 32, 32, requires_grad=True)\n"
        "w = torch.randn(16, 16, 3, 3, requires_grad=True)\n"
        "for i in range(10000):\n    F.conv2d(x, w, padding=1).sum().backward()",
        "the time limit",
        env={"GRADCLI_TIME_SECONDS": "1"},
    ),
    Case(
        "int_requires_grad",
        "x = torch.tensor([1, 2], requires_grad=True)",
        "Only Tensors of floating point and complex dtype can require gradients",
        (1, 5),
    ),
    Case(
        "numpy_of_grad_tensor",
        "x = torch.ones(2, requires_grad=True)\ny = x.numpy()",
        "Can't call numpy() on Tensor that requires grad",
        (2, 5),
    ),
    Case(
        "softmax_without_dim",
        "x = torch.ones(2)\ny = torch.softmax(x)",
        "missing",
        (2, 5),
    ),
    Case(
        "nll_weight_of_another_size",
        NNF + "y = F.nll_loss(torch.ones(2, 3), torch.tensor([0, 1]), weight=torch.ones(4))",
        "weight tensor should be defined either for all 3 classes or no classes",
        (3, 5),
    ),
    Case(
        "cross_entropy_weight_2d",
        NNF
        + "y = F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 1]), weight=torch.ones(2, 3))",
        "but got weight tensor of shape: [2, 3]",
        (3, 5),
    ),
    Case(
        "cross_entropy_prob_target_weight",
        NNF + "y = F.cross_entropy(torch.ones(2, 3), torch.ones(2, 3) / 3, weight=torch.ones(4))",
        "cross_entropy: weight tensor should be defined",
        (3, 5),
    ),
    Case(
        "cross_entropy_target_out_of_bounds",
        NNF + "y = F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 5]))",
        "Target 5 is out of bounds.",
        (3, 5),
    ),
    Case(
        "log_softmax_dim_out_of_range",
        "y = torch.ones(2, 3).log_softmax(2)",
        "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
        (1, 5),
    ),
    Case(
        "silu_of_integers",
        NNF + "y = F.silu(torch.arange(3))",
        "\"silu_cpu\" not implemented for 'Long'",
        (3, 5),
    ),
    Case(
        "logsigmoid_of_integers",
        NNF + "y = F.logsigmoid(torch.tensor([1, 2]))",
        "\"log_sigmoid_cpu\" not implemented for 'Long'",
        (3, 5),
    ),
    Case(
        "silu_of_a_string",
        NNF + "y = F.silu('x')",
        "silu(): argument 'input' (position 1) must be Tensor, not str",
        (3, 5),
    ),
    Case(
        "layer_norm_weight_of_another_shape",
        NNF + "y = F.layer_norm(torch.ones(2, 4), [4], torch.ones(3))",
        "Expected weight to be of same shape as normalized_shape",
        (3, 5),
    ),
    Case(
        "softmax_of_integers",
        "y = torch.arange(3).softmax(0)",
        "not implemented for 'Long'",
        (1, 5),
    ),
    Case(
        "generator_private",
        "g = torch.Generator()\nb = g.gen",
        "'Generator' object has no attribute 'gen'",
        (2, 5),
    ),
    Case(
        "generator_dunder",
        "g = torch.Generator()\nb = g.__dict__",
        "`.__dict__` is not accessible",
        (2, 6),
    ),
    Case(
        "generator_bad_state",
        "torch.set_rng_state(torch.zeros(10, dtype=torch.uint8))",
        "Expected a CPUGeneratorImplState of size 5056",
        (1, 1),
    ),
    Case(
        "generator_wrong_object",
        "x = torch.randn(3, generator=5)",
        "generator must be a torch.Generator, not int",
        (1, 5),
    ),
    Case("randint_huge", "x = torch.randint(0, 5, (10**5, 10**5))", "over the limit", (1, 5)),
    # --- samplers that compute values one at a time: refused before the work --------------
    Case(
        "multinomial_huge_samples",
        "x = torch.multinomial(torch.ones(3), 10**9, True)",
        "over the limit of 10,000,000",
        (1, 5),
    ),
    Case(
        "poisson_too_many_draws",
        "x = torch.poisson(torch.full((10**6,), 9.0))",
        "poisson: about 10,000,000 values",
        (1, 5),
    ),
    Case(
        "log_normal_too_many",
        "x = torch.empty(10**7).log_normal_()",
        "log_normal_: about 10,000,000 values",
        (1, 5),
    ),
    Case("cauchy_too_many", "x = torch.empty(10**7).cauchy_()", "more than the time limit", (1, 5)),
    Case(
        "strided_normal_too_many",
        "x = torch.empty(4000, 2500).t().normal_()",
        "normal_: about 10,000,000 values",
        (1, 5),
    ),
    Case(
        "sparse_init_huge",
        "import torch.nn as nn\nx = nn.init.sparse_(torch.empty(2000, 2000), 0.1)",
        "more than gradcli draws one by one",
        (2, 5),
    ),
    Case(
        "sparse_init_1d",
        "import torch.nn as nn\nx = nn.init.sparse_(torch.empty(3), 0.1)",
        "Only tensors with 2 dimensions are supported",
        (2, 5),
    ),
    Case(
        "dirac_bad_groups",
        "import torch.nn as nn\nx = nn.init.dirac_(torch.empty(3, 2, 2), 2)",
        "dim 0 must be divisible by groups",
        (2, 5),
    ),
    Case(
        "dirac_groups_not_int",
        "import torch.nn as nn\nx = nn.init.dirac_(torch.empty(3, 2, 2), '__class__')",
        "groups must be a positive int",
        (2, 5),
    ),
    Case(
        "geometric_p_nan",
        "x = torch.empty(3).geometric_(float('nan'))",
        "geometric_ expects p to be in (0, 1)",
        (1, 5),
    ),
    Case(
        "poisson_negative_rate",
        "x = torch.poisson(torch.tensor([1.0, -2.0]))",
        "invalid Poisson rate",
        (1, 5),
    ),
    Case(
        "poisson_wrong_generator",
        "x = torch.poisson(torch.ones(3), generator=torch)",
        "generator must be a torch.Generator",
        (1, 5),
    ),
    Case(
        "dropout1d_wrong_dims",
        "import torch.nn.functional as F\nx = F.dropout1d(torch.ones(2, 3, 4, 5), 0.5)",
        "dropout1d: Expected 2D or 3D input",
        (2, 5),
    ),
    Case(
        "alpha_dropout_bad_p",
        "import torch.nn.functional as F\nx = F.alpha_dropout(torch.ones(3), 2.0, True)",
        "dropout probability has to be between 0 and 1",
        (2, 5),
    ),
    Case(
        "uniform_on_expanded",
        "x = torch.ones(3, 1).expand(3, 10**6).uniform_()",
        "more than one element of the written-to tensor refers to a single memory location",
        (1, 5),
    ),
    Case(
        "uniform_from_underscore",  # PyTorch's keyword is `from`: from_= was taken as nothing
        "x = torch.empty(10**6)\nx.uniform_(from_=1, to=2)",
        "uniform_() got an unexpected keyword argument 'from_'",
        (2, 1),
    ),
    Case(
        "random_unknown_keyword",
        "x = torch.empty(10**6, dtype=torch.int64)\nx.random_(frm=1, to=10**6)",
        "random_() received an invalid combination of arguments - got (frm=int, )",
        (2, 1),
    ),
    Case(
        "trunc_normal_huge_strided_view",  # a view takes the serial path: sized first
        "import torch.nn as nn\nw = torch.empty(2500, 4000).t()\nnn.init.trunc_normal_(w)",
        "values computed one at a time",
        (3, 1),
    ),
    Case(
        "feature_dropout_empty_dims",
        "import torch.nn.functional as F\nx = F.dropout2d(torch.ones(0, 3, 2, 2), 0.5)\n"
        "y = F.dropout1d(torch.ones(10**6, 0, 3), 0.5)\nz = x.shape[5]",
        "Size index out of range",
        (4, 5),
    ),
    Case(
        "seed_huge",
        "torch.manual_seed(10**30)",
        "Overflow when unpacking long long",
        (1, 1),
    ),
    Case("randperm_huge", "x = torch.randperm(10**9)", "over the limit", (1, 5)),
    Case(
        # within the element limit, but its swaps (a Python loop) check the clock as they go
        "randperm_past_the_time",
        "x = torch.randperm(9_000_000)",
        "the time limit",
        (1, 5),
        env={"GRADCLI_TIME_SECONDS": "1"},
    ),
    Case(
        "randint_bad_range",
        "x = torch.randint(5, 2, (3,))",
        "random_ expects 'from' to be less than 'to'",
        (1, 5),
    ),
    Case(
        "unpack_mismatch", "a, b = torch.ones(3)", "too many values to unpack (expected 2)", (1, 1)
    ),
    Case("call_a_number", "x = 3\ny = x(2)", "'int' object is not callable", (2, 5)),
    Case(
        "item_of_vector",
        "x = torch.ones(3)\nv = x.item()",
        "a Tensor with 3 elements cannot be converted to Scalar",
        (2, 5),
    ),
    Case(
        "custom_backward_shape",
        "def f(x):\n    return x * 2\ndef f_backward(x, g):\n"
        "    return torch.ones(5)\nx = torch.ones(2, requires_grad=True)\ny = f(x).sum()\n"
        "y.backward()",
        "returned an invalid gradient at index 0",
        (7, 1),
    ),
    Case(
        # (the class itself is allowed, as in PyTorch: Function's own backward raises)
        "function_class_without_backward",
        "class F(torch.autograd.Function):\n"
        "    @staticmethod\n    def forward(ctx, x):\n        return x * 1\n"
        "x = torch.ones(2, requires_grad=True)\nF.apply(x).sum().backward()",
        "You must implement either the backward or vjp method",
        (6, 1),
    ),
    # --- torch.autograd.gradcheck: the entry limit before the work, the clock during it ------
    Case(
        "gradcheck_huge",
        "x = torch.ones(10**4, dtype=torch.float64, requires_grad=True)\n"
        "ok = torch.autograd.gradcheck(torch.sin, (x,))",
        "the entries gradcheck compares is 100,000,000, over the limit",
        (2, 6),
    ),
    Case(
        "gradcheck_slow",
        "x = torch.ones(2500, dtype=torch.float64, requires_grad=True)\n"
        # (a dense Jacobian: an elementwise function's rows are found cheap enough to finish)
        "ok = torch.autograd.gradgradcheck(lambda t: torch.tanh(t).cumsum(0), (x,))",
        "gradcli has run for over 2 seconds",
        None,  # (the call, or the lambda inside it: where the clock is read)
        env={"GRADCLI_TIME_SECONDS": "2"},
    ),
    Case(
        "gradcheck_not_a_function",
        "x = torch.ones(2, dtype=torch.float64, requires_grad=True)\n"
        "ok = torch.autograd.gradcheck(3, (x,))",
        "'int' object is not callable",
        (2, 6),
    ),
    # --- torch.autograd.functional / torch.func: sizes before the work, the clock in the loops,
    # the call depth through recursion, the program's own errors from inside a transform -----
    Case(
        "func_jacobian_recursion",
        "from torch.autograd.functional import jacobian\ndef f(x):\n    return jacobian(f, x)\n"
        "y = f(torch.ones(2))",
        "the depth of function calls is 51, over the limit of 50",
        (3, 12),
    ),
    Case(
        "func_grad_recursion",
        "from torch.func import grad\ndef f(x):\n    return grad(f)(x)\ny = f(torch.tensor(1.0))",
        "the depth of function calls is 51, over the limit of 50",
        (3, 12),
    ),
    Case(
        "func_jacobian_huge_output",
        "from torch.autograd.functional import jacobian\n"
        "J = jacobian(lambda t: t.sum() * torch.ones(10**5), torch.ones(1000))",
        "the number of entries of the Jacobian torch.autograd.functional.jacobian computes is "
        "100,000,000, over the limit",
        (2, 5),
    ),
    Case(
        "func_hessian_huge",
        "H = torch.func.hessian(lambda t: (t ** 3).sum())(torch.ones(6000))",
        "the number of entries of the Jacobian jacfwd computes is 36,000,000, over the limit",
        (1, 5),
    ),
    Case(
        "func_jacrev_rows_slow",
        # Forty terms a row: well past a second on any machine (one term ran in under a second
        # on an idle one).
        "def f(t):\n    s = 0\n    for i in range(40):\n        s = s + (t.exp() * t.sin()).sum()\n"
        "    return s\n"
        "H = torch.autograd.functional.hessian(f, torch.ones(3000, dtype=torch.float64))",
        "gradcli has run for over 1 seconds",
        (6, 5),
        env={"GRADCLI_TIME_SECONDS": "1"},
    ),
    Case(
        "func_vmap_huge_batch",
        "y = torch.func.vmap(torch.sin)(torch.ones(3 * 10**6, 1))",
        "gradcli has run for over 1 seconds",
        (1, 5),
        env={"GRADCLI_TIME_SECONDS": "1"},
    ),
    Case(
        "func_vmap_huge_stack",
        "y = torch.func.vmap(lambda t: torch.ones(10**4) * t)(torch.ones(10**4))",
        "the stacked tensor is 100,000,000, over the limit",
        (1, 5),
    ),
    Case(
        "func_lambda_raises",
        "g = torch.func.grad(lambda t: t.sum() + [1][5])(torch.ones(2))",
        "list index out of range",
        (1, 41),
    ),
    Case(
        "func_lambda_divides_by_zero",
        "J = torch.autograd.functional.jacobian(lambda t: t * (1 // 0), torch.ones(2))",
        "integer division or modulo by zero",
        (1, 55),
    ),
    Case(
        "func_not_callable",
        "y = torch.func.vmap(3)(torch.ones(2))",
        "'int' object is not callable",
        (1, 5),
    ),
    Case(
        "func_vmap_of_a_scalar",
        "y = torch.func.vmap(torch.sin)(torch.tensor(1.0))",
        "Got in_dim=0 for some input, but that input is a Tensor of dimensionality 0",
        (1, 5),
    ),
    Case(
        "func_grad_of_a_vector",
        "g = torch.func.grad(lambda t: t * 2)(torch.ones(3))",
        "Expected f(*args) to return a scalar Tensor, got tensor with 1 dims",
        (1, 5),
    ),
    Case(
        # Later elements print nothing (PyTorch runs the function once): the time they spend
        # printing in silence is still the run's.
        # (a list of an enclosing function's: one of the module's is refused from changing)
        "func_vmap_quiet_prints",
        "def make():\n    n = [0]\n    def f(t):\n        n[0] += 1\n        while n[0] > 1:\n"
        "            print(1)\n        return t\n    return f\n"
        "y = torch.func.vmap(make())(torch.ones(3, 1))",
        # (feat17: the closure's list changed again by the second element's run is refused
        # before the loop it would make endless)
        "when the run for an earlier batch element changed it too",
        (4, 9),
        env={"GRADCLI_TIME_SECONDS": "1"},
    ),
    Case(
        "func_vmap_draw",
        "y = torch.func.vmap(lambda t: t + torch.randn(2))(torch.ones(2, 2))",
        "vmap: called random operation while in randomness error mode",
        (1, 35),
    ),
    Case(
        "func_transform_internals",
        "g = torch.func.grad(torch.sin)\nf = g.fn",
        "'function' object has no attribute 'fn'",
        (2, 5),
    ),
    Case(
        "func_vjp_fn_dunder",
        "out, f = torch.func.vjp(torch.sin, torch.ones(2))\nc = f.__closure__",
        "`.__closure__` is not accessible",
        (2, 6),
    ),
    # `functorch` is torch.func's functions under the old name; nothing else of it.
    Case("func_functorch_dict", "import functorch\nd = functorch.__dict__", "__dict__", (2, 14)),
    Case(
        "func_functorch_private",
        "from functorch import _C",
        "cannot import name '_C' from 'functorch'",
        (1, 1),
    ),
    Case("func_functorch_submodule", "import functorch.compile", "unknown module", (1, 1)),
    # NumPy beside PyTorch: lists of arrays are counted before they are listed, corrcoef's
    # work and np.random.choice's population are checked before NumPy runs.
    Case(
        "np_list_of_arrays_huge",
        "import numpy as np\na = np.ones(1000)\nb = np.array([a] * 2000)",
        "the number of numbers in the tensor data",
        (3, 5),
    ),
    Case(
        "np_corrcoef_huge_work",
        "import numpy as np\na = np.ones((3000, 3000))\nc = np.corrcoef(a)",
        "the work of numpy.corrcoef()",
        (3, 5),
    ),
    Case(
        "np_choice_huge_range",
        "import numpy as np\nc = np.random.choice(range(10**12), 3)",
        "the population of numpy.random.choice",
        (2, 5),
    ),
    Case(
        "np_where_of_dict",
        "import numpy as np\nc = np.where({'a': 1})",
        "numpy.where() takes arrays, numbers or lists, not dict",
        (2, 5),
    ),
    Case(
        "np_shape_of_module",
        "import numpy as np\nc = np.shape(np)",
        "numpy.shape() takes arrays, numbers or lists",
        (2, 5),
    ),
    Case(
        "np_array_index_float",
        "import numpy as np\nx = torch.ones(3)\ny = x[np.array([0.5])]",
        "are valid indices (got ndarray)",
        (3, 5),
    ),
    Case(
        "np_corrcoef_requires_grad",
        "import numpy as np\nw = torch.ones(3, requires_grad=True)\nc = np.corrcoef(w)",
        "Can't call numpy() on Tensor that requires grad",
        (3, 5),
    ),
    # torch.Size arithmetic (`(1, 1) + x.shape`, `x.shape * 2`) counts its items first.
    Case(
        "size_repeat_huge",
        "s = torch.ones(2).shape\nt = s * 10**9",
        "the length of the Size is 1,000,000,000",
        (2, 5),
    ),
    Case(
        "size_doubling",
        "t = torch.ones(2).shape\nfor i in range(40):\n    t = (1,) + t + t",
        "over the limit",
        (3, 9),
    ),
    Case(
        "size_concat_not_int",
        "s = (1.5,) + torch.ones(2).shape",
        "torch.Size() takes an iterable of 'int' (item 0 is 'float')",
        (1, 5),
    ),
    Case(
        "scheduler_get_lr_dunder",
        "o = torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=1.0)\n"
        "s = torch.optim.lr_scheduler.StepLR(o, 1)\nf = s.get_lr.__self__",
        "`.__self__` is not accessible",
        (3, 13),
    ),
    Case(
        "subscript_assign_type",
        "x = torch.ones(3)\nx[0] = 'a'",
        "can't assign a str to a torch.FloatTensor",
        (2, 1),
    ),
    Case(
        "subscript_assign_nested_list",
        "x = torch.ones(3)\nl = [1]\nfor i in range(30):\n    l = [l, l]\nx[0] = l",
        "can't assign a list to a torch.FloatTensor",
        (5, 1),
    ),
    Case(
        "subscript_assign_array",
        "import numpy as np\nx = torch.ones(3)\nx[:] = np.ones(3)",
        "can't assign a numpy.ndarray to a torch.FloatTensor",
        (3, 1),
    ),
    # --- the tensor basics (surface/basics.py, bit shifts, numpy arrays, out=, indexing) -----
    Case("tensor_split_huge", "torch.arange(3).tensor_split(10**9)", "over the limit", (1, 1)),
    Case("logspace_huge", "torch.logspace(0, 1, 10**10)", "logspace's length", (1, 1)),
    Case("bincount_huge", "torch.bincount(torch.tensor([10**12]))", "bincount's result", (1, 1)),
    Case("histc_bins_huge", "torch.histc(torch.ones(2), bins=10**10)", "histc's bins", (1, 1)),
    Case("lshift_int_huge", "x = 1 << 10**9", "the size of an integer in bits", (1, 5)),
    Case("lshift_negative", "x = 1 << -1", "negative shift count", (1, 5)),
    Case(
        "broadcast_tensors_huge",
        "torch.broadcast_tensors(torch.ones(1, 1), torch.ones(1, 10**5).expand(10**5, 10**5))",
        "over the limit",
        (1, 43),
    ),
    Case("out_not_a_tensor", "torch.add(torch.ones(2), 1, out=[1])", "argument 'out'", (1, 1)),
    Case(
        "array_setitem_out_of_range",
        "import numpy as np\na = np.zeros(3)\na[10**20] = 1",
        "is out of bounds for dimension 0 with size 3",
        (3, 1),
    ),
    Case(
        "array_setitem_read_only",
        "t = torch.ones(1).expand(3)\na = t.numpy()\na[0] = 5",
        "assignment destination is read-only",
        (3, 1),
    ),
    Case(
        "np_add_huge_broadcast",
        "import numpy as np\nnp.add(np.zeros((10**5, 1)), np.zeros((1, 10**5)))",
        "the result of numpy.add",
        (2, 1),
    ),
    Case(
        "np_scalar_int_huge", "import numpy as np\nnp.float64(10**400)", "over the limit", (2, 12)
    ),
    Case("np_scalar_out_of_range", "import numpy as np\nnp.int8(1000)", "out of bounds", (2, 1)),
    Case("unflatten_huge", "torch.ones(2).unflatten(0, (10**9, -1))", "is invalid", (1, 1)),
    Case("unsqueeze_inplace_dim_huge", "torch.ones(2).unsqueeze_(10**9)", "out of range", (1, 1)),
    Case("size_dunder", "s = torch.ones(2).shape.__class__.__mro__", "`.__mro__`", (1, 34)),
    Case("index_too_many_nones", "x = torch.ones(2)[(None,) * 70]", "invalid index", (1, 5)),
    Case("ragged_data", "torch.tensor([[1], 2])", "not a sequence", (1, 1)),
    Case("kthvalue_k_huge", "torch.kthvalue(torch.ones(3), 10**20)", "out of range", (1, 1)),
    # --- the language as it grew: each new construct's hostile variants --------------------
    Case("fstring_width_huge", "s = f'{1:>{10**9}}'", "the width in a format spec", (1, 8)),
    Case("percent_width_huge", "s = '%1000000000d' % 1", "the width in a format spec", (1, 5)),
    Case("format_width_huge", "s = '{:>1000000000}'.format(1)", "the width", (1, 5)),
    Case(
        "fstring_precision_huge",
        "s = f'{1e308:.1000000f}'",
        "the length of the string is 1,000,310",
        (1, 8),
    ),
    # `typing` names are type hints: subscripted and printed, nothing else.
    Case(
        "typing_hint_of_shared_lists",
        "from typing import List\nl = [1]\nfor i in range(40):\n    l = [l, l]\nT = List[l]",
        "the number of items a type hint would visit",
        (5, 5),
    ),
    Case("typing_dunder", "import typing\nx = typing.List.__args__", "`.__args__`", (2, 16)),
    Case(
        "typing_other_name",
        "from typing import get_type_hints",
        "cannot import name 'get_type_hints'",
        (1, 1),
    ),
    Case("future_unknown", "from __future__ import braces", "future feature braces", (1, 1)),
    # A built-in module's class (what `type(m)` gives) makes modules under the same limits,
    # and is not a way into Python's classes.
    Case(
        "module_class_from_type_huge",
        "m = type(torch.nn.Linear(1, 1))(10**6, 10**6)",
        "over the limit",
        (1, 5),
    ),
    # (`torch.nn.ReLU.__init__` itself is the library's constructor, as in PyTorch: a
    # subclass may call it by name; what lies behind it stays out of reach)
    Case(
        "module_class_dunder",
        "b = torch.nn.ReLU.__subclasses__",
        "`.__subclasses__` is not accessible",
        (1, 18),
    ),
    Case(
        "module_class_init_globals",
        "b = torch.nn.ReLU.__init__.__globals__",
        "`.__globals__` is not accessible",
        (1, 27),
    ),
    Case(
        "module_class_subclass",
        "class R(torch.Generator):\n    pass",
        "classes are only supported as subclasses of torch.nn.Module",
        (1, 9),
    ),
    Case(
        "format_nested_spec_walk",
        "s = '{0:{1.__class__}}'.format(1, 9)",
        "attribute and item lookups",
        (1, 5),
    ),
    Case("format_map_walk", "s = '{x.__class__}'.format_map({'x': 1})", "format_map", (1, 5)),
    Case(
        "percent_mapping_defaultdict",
        "import collections\ns = '%(a)s' % collections.defaultdict(int)",
        "with a defaultdict",
        (2, 5),
    ),
    Case("percent_ascii_tensor", "s = '%a' % (torch.ones(1),)", "`%a` formatting", (1, 5)),
    Case("str_center_huge", "s = 'x'.center(10**9)", "the length of the string", (1, 5)),
    Case(
        "str_join_huge", "s = ('x' * 1000).join(['y'] * 10**6)", "the length of the string", (1, 5)
    ),
    Case("str_of_big_list", "s = str([1.5] * 10**6)", "(at least)", (1, 5)),
    Case("repr_of_big_string", "s = repr('x' * 10**6)", "the length of the string", (1, 5)),
    Case("star_args_huge", "print(*range(10**7))", "the number of items", (1, 7)),
    Case("sorted_huge", "l = sorted(range(10**7))", "the number of items for sorted()", (1, 5)),
    Case("sum_huge_range", "s = sum(range(10**12))", "the number of items for sum()", (1, 5)),
    Case(
        "dictcomp_huge",
        "d = {i: i for i in range(10**12)}",
        "loop iterations",
        (1, 5),
        env={"GRADCLI_LOOP_ITERATIONS": "1000"},
    ),
    Case(
        "nested_listcomp",
        "x = [[y for y in range(100)] for z in range(100)]",
        "loop iterations",
        (1, 6),
        env={"GRADCLI_LOOP_ITERATIONS": "1000"},
    ),
    Case(
        "except_swallows_loop_limit",
        "while True:\n    try:\n        pass\n    except:\n        pass",
        "loop iterations",
        (1, 1),
        env={"GRADCLI_LOOP_ITERATIONS": "1000"},
    ),
    Case(
        "except_swallows_recursion",
        "def f():\n    try:\n        return f()\n    except Exception:\n        return f()\nf()",
        "the depth of function calls is 51",
        (3, 16),
    ),
    Case(
        "finally_after_limit",
        "try:\n    x = torch.zeros(10**9)\nfinally:\n    print('escaped')",
        "over the limit",
        (2, 9),
    ),
    Case(
        "module_calls_itself",
        "class M(torch.nn.Module):\n    def forward(self, x):\n        return self(x)\ny = M()(1)",
        "the depth of function calls is 51",
        (3, 16),
    ),
    Case(
        "sort_key_recursion",
        "def k(v):\n    return sorted([v], key=k)\ny = sorted([1], key=k)",
        "the depth of function calls is 51",
        (2, 12),
    ),
    Case(
        "class_init_subclass",
        "class F(torch.autograd.Function):\n    def __init_subclass__(cls):\n        pass",
        "method `__init_subclass__` is not supported",
        (2, 5),
    ),
    Case(
        "class_dunder_getattr",
        "class M(torch.nn.Module):\n    def __getattribute__(self, n):\n        return 1",
        "method `__getattribute__` is not supported",
        (2, 5),
    ),
    Case(
        "class_body_statement",
        "class M(torch.nn.Module):\n    k = open('pwned', 'w')",
        "Python's `open` is not supported",
        (2, 9),
    ),
    Case(
        "class_metaclass",
        "class M(torch.nn.Module, metaclass=type):\n    pass",
        "class keywords (metaclass=...) are not supported",
        (1, 26),
    ),
    Case(
        "class_of_a_class",
        "class A(torch.nn.Module):\n    pass\nclass B(A.__class__):\n    pass",
        "classes are only supported as subclasses of torch.nn.Module",
        (3, 9),
    ),
    Case(
        "self_dunder",
        # (a module's __dict__ reads as a snapshot, as PyTorch's; writing into it is refused)
        "class M(torch.nn.Module):\n    def forward(self, x):\n"
        "        self.__dict__['forward'] = None\ny = M()(1)",
        "changing a module's __dict__ is not supported",
        (3, 9),
    ),
    Case(
        "module_private_attribute",
        "class M(torch.nn.Module):\n    pass\nm = M()\np = m._parameters\ndel p['w']",
        "changing a module's _modules, _parameters or _buffers directly is not supported",
        (5, 5),
    ),
    Case(
        "super_outside_method",
        "def f():\n    return super()\ny = f()",
        "super() is only supported inside a method",
        (2, 12),
    ),
    Case(
        "assign_before_init",
        "class M(torch.nn.Module):\n    def __init__(self):\n"
        "        self.w = torch.nn.Parameter(torch.ones(1))\nm = M()",
        "cannot assign parameters before Module.__init__() call",
        (3, 9),
    ),
    # a program's decorator is a call (`g = d(g)`): what it returns is what `g` is
    Case(
        "decorator_user",
        "def d(f):\n    return None\n@d\ndef g():\n    pass\ng()",
        "'NoneType' object is not callable",
        (6, 1),
    ),
    Case(
        "decorator_staticmethod_top",
        "@staticmethod\ndef f():\n    pass",
        "@staticmethod is not supported here",
        (1, 2),
    ),
    Case(
        "with_open_file",
        "with open('pwned', 'w') as f:\n    pass",
        "Python's `open` is not supported",
        (1, 6),
    ),
    Case("lambda_code", "c = (lambda: 0).__code__", "`.__code__` is not accessible", (1, 16)),
    Case(
        "lambda_default_import",
        "f = lambda m=__import__('os'): m",
        "Python's `__import__` is not supported",
        (1, 14),
    ),
    Case(
        "exception_args",
        "try:\n    1 / 0\nexcept ZeroDivisionError as e:\n    a = e.__traceback__",
        "`.__traceback__` is not accessible in gradcli programs",
        (4, 10),
    ),
    Case("raise_non_exception", "raise torch.ones(1)", "must derive from BaseException", (1, 1)),
    Case("type_bare", "t = type\nx = t(1)", "`type` is only supported as a call", (1, 5)),
    Case(
        "getattr_unsupported", "f = getattr(torch, 'hub')", "`torch.hub` is not supported", (1, 5)
    ),
    # (dict.fromkeys is supported: the type's other attributes are not there)
    Case("dict_type_attribute", "d = dict.mro()", "has no attribute 'mro'", (1, 5)),
    Case(
        "numpy_view_write",
        "a = torch.ones(2).numpy()\na[0] = 'x'",
        "cannot assign a str into a NumPy array",
        (2, 1),
    ),
    Case(
        "numpy_array_huge_product",
        "a = torch.ones(10**6).numpy()\nb = a[:, None] * a[None, :]",
        "over the limit",
        (2, 5),
    ),
    # --- torch.optim and nn.init: values checked, work bounded -------------------------------
    Case(
        "optim_lr_string",
        "w = torch.ones(2, requires_grad=True)\nopt = torch.optim.SGD([w], lr='fast')",
        "lr must be a number, not str",
        (2, 7),
    ),
    Case(
        "optim_not_a_list",
        "w = torch.ones(2, requires_grad=True)\nopt = torch.optim.Adam(w)",
        "should be an iterable of Tensors or dicts, but got torch.FloatTensor",
        (2, 7),
    ),
    Case(
        "optim_private_attribute",
        "w = torch.ones(2, requires_grad=True)\nopt = torch.optim.Adam([w])\ns = opt._state",
        "has no attribute '_state'",
        (3, 5),
    ),
    Case(
        "optim_group_spoiled",
        "w = torch.ones(2, requires_grad=True)\nopt = torch.optim.SGD([w], lr=0.1)\n"
        "w.sum().backward()\nopt.param_groups[0]['lr'] = [1]\nopt.step()",
        "lr must be a number, not list",
        (5, 1),
    ),
    Case(
        "optim_foreach",
        "w = torch.ones(2, requires_grad=True)\nopt = torch.optim.SGD([w], lr=0.1, foreach=True)",
        "foreach=True is not supported by gradcli",
        (2, 7),
    ),
    # --- LBFGS: the closure is the program's, the iterations and the history bounded ---------
    Case(
        "lbfgs_closure_loops",
        "w = torch.ones(2, requires_grad=True)\nopt = torch.optim.LBFGS([w])\n"
        "def closure():\n    while True:\n        pass\nopt.step(closure)",
        "the number of loop iterations is 1,001",
        (4, 5),
        env={"GRADCLI_LOOP_ITERATIONS": "1000"},
    ),
    Case(
        "lbfgs_closure_steps_again",
        "w = torch.ones(2, requires_grad=True)\nopt = torch.optim.LBFGS([w])\n"
        "def closure():\n    return opt.step(closure)\nopt.step(closure)",
        "the depth of function calls is 51",
        (4, 12),
    ),
    Case(
        "lbfgs_endless_iterations",
        "w = torch.ones(2, requires_grad=True)\n"
        "opt = torch.optim.LBFGS([w], max_iter=10**15, max_eval=10**15, tolerance_change=0)\n"
        "def closure():\n    opt.zero_grad()\n    loss = w.sum()\n    loss.backward()\n"
        "    return loss\nopt.step(closure)",
        "gradcli has run for over 1 seconds",
        env={"GRADCLI_TIME_SECONDS": "1"},
    ),
    Case(
        "lbfgs_huge_history",
        "w = torch.ones(2, requires_grad=True)\nopt = torch.optim.LBFGS([w], history_size=10**12)\n"
        "def closure():\n    opt.zero_grad()\n    loss = (w * w).sum()\n    loss.backward()\n"
        "    return loss\nopt.step(closure)",
        "LBFGS's history_size is 1,000,000,000,000, over the limit",
        (8, 1),
    ),
    Case(
        "lbfgs_history_not_a_number",
        "w = torch.ones(2, requires_grad=True)\nopt = torch.optim.LBFGS([w], history_size='all')\n"
        "def closure():\n    return w.sum()\nopt.step(closure)",
        "can't multiply sequence by non-int of type 'str'",
        (5, 1),
    ),
    Case(
        "lbfgs_closure_returns_a_list",
        "w = torch.ones(2, requires_grad=True)\nopt = torch.optim.LBFGS([w])\n"
        "opt.step(lambda: [1, 2])",
        "float() argument must be a string or a real number, not 'list'",
        (3, 1),
    ),
    Case(
        "lbfgs_closure_returns_a_vector",
        "w = torch.ones(2, requires_grad=True)\nopt = torch.optim.LBFGS([w])\n"
        "opt.step(lambda: w * 2)",
        "only one element tensors can be converted to Python scalars",
        (3, 1),
    ),
    Case(
        "lbfgs_closure_not_a_function",
        "w = torch.ones(2, requires_grad=True)\nopt = torch.optim.LBFGS([w])\nopt.step(3)",
        "'int' object is not callable",
        (3, 1),
    ),
    Case(
        "lbfgs_two_groups",
        "w = torch.ones(2, requires_grad=True)\nb = torch.ones(1, requires_grad=True)\n"
        "opt = torch.optim.LBFGS([{'params': [w]}, {'params': [b]}])",
        "LBFGS doesn't support per-parameter options (parameter groups)",
        (3, 7),
    ),
    Case(
        "lbfgs_mixed_dtypes",
        "w = torch.ones(2, requires_grad=True)\n"
        "v = torch.ones(2, dtype=torch.float64, requires_grad=True)\n"
        "opt = torch.optim.LBFGS([w, v])\nopt.step(lambda: (w.sum() + v.sum()))",
        "gradcli computes LBFGS for float32 or float64 parameters, all of one dtype",
        (4, 1),
    ),
    Case(
        "lbfgs_empty_parameter",
        "w = torch.ones(0, requires_grad=True)\nopt = torch.optim.LBFGS([w])\n"
        "opt.step(lambda: w.sum())",
        "max(): Expected reduction dim to be specified for input.numel() == 0",
        (3, 1),
    ),
    Case(
        "lbfgs_no_evaluation_left",
        "w = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "opt = torch.optim.LBFGS([w], max_eval=0, line_search_fn='strong_wolfe')\n"
        "def closure():\n    opt.zero_grad()\n    loss = (w * w).sum()\n    loss.backward()\n"
        "    return loss\nopt.step(closure)",
        "cannot access local variable 'bracket' where it is not associated with a value",
        (8, 1),
    ),
    Case(
        "lbfgs_history_fills_memory",
        "w = torch.ones(1000000, requires_grad=True)\nopt = torch.optim.LBFGS([w])\n"
        "def closure():\n    opt.zero_grad()\n    loss = (w * w * w * w).sum()\n"
        "    loss.backward()\n    return loss\nopt.step(closure)",
        "the memory the program has taken, in MB,",
        env={"GRADCLI_MEMORY_MB": "30"},
    ),
    Case(
        "lbfgs_dunder",
        "w = torch.ones(2, requires_grad=True)\nopt = torch.optim.LBFGS([w])\n"
        "f = opt.__class__.__init__.__globals__",
        "`.__globals__` is not accessible in gradcli programs",
        (3, 27),
    ),
    # --- the nn tutorials' constructs: schedulers, RMSprop/Adagrad, state dicts, apply -------
    Case(
        "rmsprop_negative_alpha",
        "w = torch.ones(2, requires_grad=True)\nopt = torch.optim.RMSprop([w], alpha=-1)",
        "Invalid alpha value: -1",
        (2, 7),
    ),
    Case(
        "adagrad_negative_lr_decay",
        "w = torch.ones(2, requires_grad=True)\nopt = torch.optim.Adagrad([w], lr_decay=-0.5)",
        "Invalid lr_decay value: -0.5",
        (2, 7),
    ),
    Case(
        "lambdalr_not_a_function",
        "w = torch.ones(2, requires_grad=True)\nopt = torch.optim.SGD([w], lr=0.1)\n"
        "s = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda=3)",
        "'int' object is not callable",  # (LambdaLR calls it; MultiplicativeLR checks)
        (3, 5),
    ),
    Case(
        "lambdalr_returns_a_string",
        "w = torch.ones(2, requires_grad=True)\nopt = torch.optim.SGD([w], lr=0.1)\n"
        "s = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda=lambda e: 'x')",
        "lr_lambda's result must be a number, not str",
        (3, 5),
    ),
    Case(
        "multisteplr_huge_range_of_milestones",
        "w = torch.ones(2, requires_grad=True)\nopt = torch.optim.SGD([w], lr=0.1)\n"
        "s = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=range(10**18))",
        "over the limit of 1,000,000",
        (3, 5),
    ),
    Case(
        "plateau_metric_a_word",
        "w = torch.ones(2, requires_grad=True)\nopt = torch.optim.SGD([w], lr=0.1)\n"
        "s = torch.optim.lr_scheduler.ReduceLROnPlateau(opt)\ns.step('low')",
        "could not convert string to float: 'low'",
        (4, 1),
    ),
    Case(
        "plateau_mode_not_a_string",
        "w = torch.ones(2, requires_grad=True)\nopt = torch.optim.SGD([w], lr=0.1)\n"
        "s = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode=3)",
        'can only concatenate str (not "int") to str',
        (3, 5),
    ),
    Case(
        "load_state_dict_a_list",
        NN + "m = nn.Linear(2, 2)\nm.load_state_dict([1, 2])",
        "Expected state_dict to be dict-like, got <class 'list'>.",
        (4, 1),
    ),
    Case(
        "load_state_dict_a_string_value",
        NN + "m = nn.Linear(2, 2)\nm.load_state_dict({'weight': 'w', 'bias': torch.zeros(2)})",
        "expected torch.Tensor or Tensor-like object from checkpoint but received <class 'str'>",
        (4, 1),
    ),
    Case(
        "load_state_dict_exponential_sharing",
        NN + "m = nn.Linear(1, 1)\nfor i in range(60):\n    m = nn.Sequential(m, m)\n"
        "m.load_state_dict(m.state_dict())",
        # state_dict() walks every path to a shared module, as PyTorch's: it stops first
        "module visits of state_dict() is 2,305,843,009,213,693,951",
        (6, 19),
    ),
    Case(
        "load_state_dict_exponential_sharing_given_keys",
        NN + "m = nn.Linear(1, 1)\nfor i in range(60):\n    m = nn.Sequential(m, m)\n"
        "m.load_state_dict({'weight': torch.ones(1, 1)})",
        "module visits of load_state_dict() is 2,305,843,009,213,693,951",
        (6, 1),
    ),
    Case(
        "apply_exponential_sharing",
        NN + "m = nn.ReLU()\nfor i in range(60):\n"
        "    m = nn.Sequential(nn.Sequential(m), nn.Sequential(m))\nm.apply(lambda x: None)",
        "module visits of apply() is 4,611,686,018,427,387,901",
        (6, 1),
    ),
    Case(
        "index_with_a_huge_range",
        "x = torch.ones(3)\ny = x[range(10**20)]",
        "the range used as an index is 100,000,000,000,000,000,000",
        (2, 5),
    ),
    Case(
        "numpy_multiply_huge_broadcast",
        "import numpy as np\nz = np.multiply(np.ones((100000, 1)), np.ones((1, 100000)))",
        "the result of numpy.multiply() is 10,000,000,000",
        (2, 5),
    ),
    Case(
        "ordered_dict_bad_items",
        "from collections import OrderedDict\nd = OrderedDict([(1, 2, 3)])",
        "dictionary update sequence element has length 3; 2 is required",
        (2, 5),
    ),
    Case(
        "collections_other_names",
        "from collections import ChainMap",
        "cannot import name 'ChainMap' from 'collections'",
        (1, 1),
    ),
    Case(
        "init_orthogonal_huge",
        "import torch.nn as nn\nw = torch.empty(3000, 3000)\nnn.init.orthogonal_(w)",
        "its QR decomposition takes about",
        (3, 1),
    ),
    Case(
        "init_trunc_normal_far_tail",
        "import torch.nn as nn\nw = torch.empty(1000)\nnn.init.trunc_normal_(w, a=9.0, b=1e300)",
        "too far in the tail",
        (3, 1),
    ),
    Case(
        "init_not_a_tensor",
        "import torch.nn as nn\nnn.init.xavier_uniform_([1.0, 2.0])",
        "argument 'tensor' must be Tensor, not list",
        (2, 1),
    ),
    Case(
        "init_fans_of_a_vector",
        "import torch.nn as nn\nnn.init.xavier_uniform_(torch.empty(5))",
        "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions",
        (2, 1),
    ),
    # --- elementwise: divisions that round, remainders, rounding --------------------------------
    Case(
        "floordiv_int_by_zero_tensor",
        "a = torch.tensor([7, 3])\nprint(a // torch.tensor([0, 1]))",
        "ZeroDivisionError",
        (2, 7),
    ),
    Case("mod_int_by_zero", "print(torch.tensor([7, 3]) % 0)", "ZeroDivisionError", (1, 7)),
    Case(
        "fmod_int_by_zero",
        "print(torch.fmod(torch.tensor([7]), torch.tensor(0)))",
        "ZeroDivisionError",
        (1, 7),
    ),
    Case(
        "div_floor_int_by_zero",
        "print(torch.div(torch.tensor([7]), 0, rounding_mode='floor'))",
        "ZeroDivisionError",
        (1, 7),
    ),
    Case(
        "floordiv_huge_broadcast",
        "q = torch.ones(5000, 1) // torch.ones(1, 5000000)",
        "the broadcast result is 25,000,000,000, over the limit",
        (1, 5),
    ),
    Case(
        "mod_huge_broadcast",
        "q = torch.ones(5000, 1) % torch.ones(1, 5000000)",
        "the broadcast result is 25,000,000,000, over the limit",
        (1, 5),
    ),
    Case(
        "atan2_huge_broadcast",
        "q = torch.atan2(torch.ones(5000, 1), torch.ones(1, 5000000))",
        "over the limit",
        (1, 5),
    ),
    Case(
        "floordiv_backward",
        "x = torch.tensor([1.5, 2.5], requires_grad=True)\n(x // 2).sum().backward()",
        "derivative for aten::floor_divide is not implemented",
        (2, 1),
    ),
    Case(
        "number_mod_tensor_backward",
        "x = torch.tensor([1.5, 2.5], requires_grad=True)\n(7 % x).sum().backward()",
        "derivative for aten::remainder is not implemented",
        (2, 1),
    ),
    Case(
        "heaviside_backward",
        "x = torch.tensor([1.5, 0.0], requires_grad=True)\n"
        "torch.heaviside(x, torch.tensor(0.5)).sum().backward()",
        "derivative for aten::heaviside is not implemented",
        (2, 1),
    ),
    Case(
        "heaviside_dtypes",
        "print(torch.heaviside(torch.tensor([1.0]), torch.tensor([1])))",
        "heaviside is not yet implemented for tensors with different dtypes",
        (1, 7),
    ),
    Case(
        "round_float_decimals",
        "print(torch.round(torch.tensor([1.0]), decimals=1.5))",
        "argument 'decimals' must be int, not float",
        (1, 7),
    ),
    Case(
        "round_positional_decimals",
        "print(torch.round(torch.tensor([1.0]), 2))",
        "too many positional arguments",
        (1, 7),
    ),
    Case(
        "div_bad_rounding_mode",
        "print(torch.div(torch.tensor([1.0]), 2, rounding_mode='up'))",
        "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'up'",
        (1, 7),
    ),
    Case("frac_of_long", "print(torch.frac(torch.tensor([1, 2])))", '"frac_cpu" not implemented'),
    Case(
        "floor_of_bool",
        "print(torch.floor(torch.tensor([True])))",
        "\"floor_vml_cpu\" not implemented for 'Bool'",
        (1, 7),
    ),
    Case(
        "floordiv_bools",
        "print(torch.tensor([True]) // torch.tensor([True]))",
        "\"div_floor_cpu\" not implemented for 'Bool'",
        (1, 7),
    ),
    Case(
        "atan2_number",
        "print(torch.atan2(torch.tensor([1.0]), 2.0))",
        "atan2(): argument 'other' (position 2) must be Tensor, not float",
        (1, 7),
    ),
    Case(
        "nan_to_num_text",
        "print(torch.nan_to_num(torch.tensor([1.0]), nan='zero'))",
        "argument 'nan' must be float, not str",
        (1, 7),
    ),
    Case(
        "asin_in_place_on_long",
        "a = torch.tensor([7, -7])\na.asin_()",
        "result type Float can't be cast to the desired output type Long",
        (2, 1),
    ),
    Case(
        "floor_in_place_on_leaf",
        "x = torch.ones(3, requires_grad=True)\nx.floor_()",
        "a leaf Variable that requires grad is being used in an in-place operation",
        (2, 1),
    ),
    Case(
        "dunder_mod",
        "x = torch.ones(1)\nf = x.__mod__.__func__",
        "`.__func__` is not accessible",
        (2, 14),
    ),
    Case(
        "dunder_floordiv",
        "x = torch.ones(1)\nf = x.__rfloordiv__.__globals__",
        "`.__globals__` is not accessible",
        (2, 20),
    ),
    # --- the program file itself --------------------------------------------------------------
    Case(
        "binary_file",
        b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)),
        "prog.py is a binary file, not a program",
    ),
    Case("nul_in_text", "x = 1\x00", "prog.py is a binary file"),
    Case("not_utf8", b"x = '\xff\xfe'\n", "prog.py is not UTF-8 text (byte 5)"),
    Case("latin1_file", "x = 'caf\xe9'\n".encode("latin-1"), "is not UTF-8 text"),
    cli("missing_file", ["run", "nope.py"], "no such file: nope.py"),
    cli("directory", ["run", "."], ". is a directory, not a program file"),
    cli("file_and_expr", ["run", "prog.py", "-e", "x = 1"], "not both", code=2),
    cli("no_program", ["backward"], "no program given", code=2),
    cli("unknown_option", ["backward", "prog.py", "--bogus"], "No such option", code=2),
    cli("unknown_command", ["frobnicate"], "No such command", code=2),
    cli("bad_format", ["backward", "prog.py", "--format", "xml"], "'xml' is not one of", code=2),
    cli("bad_dtype", ["backward", "prog.py", "--dtype", "int8"], "'int8' is not one of", code=2),
    cli(
        "seed_text", ["backward", "prog.py", "--seed", "abc"], "Invalid value for '--seed'", code=2
    ),
    # --- --grad / --set / --of / --wrt ------------------------------------------------------
    cli(
        "grad_not_a_number",
        ["backward", "prog.py", "--of", "y", "--grad", "1,x,3"],
        "--grad: `x` (the value at index 1) is not a number",
    ),
    cli(
        "grad_wrong_length",
        ["backward", "prog.py", "--of", "y", "--grad", "1,2"],
        "--grad has 2 values but the output has shape [3]",
    ),
    cli(
        "grad_nan",
        ["backward", "prog.py", "--of", "y", "--grad", "1,nan,3"],
        "values must be finite numbers",
    ),
    cli(
        "grad_ragged",
        ["backward", "prog.py", "--of", "y", "--grad", "[1,[2],3]"],
        "--grad is a ragged list",
    ),
    cli(
        "grad_missing_file",
        ["backward", "prog.py", "--of", "y", "--grad", "@missing.npy"],
        "--grad file `missing.npy` does not exist",
    ),
    cli(
        "grad_onehot_range",
        ["backward", "prog.py", "--of", "y", "--grad", "onehot:9"],
        "onehot index 9 is out of range",
    ),
    cli("grad_empty", ["backward", "prog.py", "--of", "y", "--grad", ""], "--grad is empty"),
    cli(
        "set_no_equals",
        ["backward", "prog.py", "--set", "x"],
        "--set expects NAME=VALUES, but `x` has no `=`",
        code=2,
    ),
    cli(
        "set_wrong_length",
        ["backward", "prog.py", "--set", "x=1,2"],
        "--set x has 2 values but `x` has shape [3]",
    ),
    cli("set_inf", ["backward", "prog.py", "--set", "x=1,inf,3"], "finite"),
    cli("set_unknown", ["backward", "prog.py", "--set", "q=1"], "no tensor named `q`"),
    cli(
        "set_computed",
        ["backward", "prog.py", "--set", "y=1,2,3"],
        "`y` is computed by the program",
    ),
    cli("of_unknown", ["backward", "prog.py", "--of", "yy"], "no tensor named `yy`"),
    cli("wrt_unknown", ["backward", "prog.py", "--wrt", "xx"], "no tensor named `xx`"),
    cli("wrt_constant", ["backward", "prog.py", "--wrt", "c"], "`c` does not require grad"),
    cli("of_constant", ["backward", "prog.py", "--of", "c"], "`c` does not require grad"),
    # --- nn.functional: sizes and work checked before anything is allocated ---------------
    Case(
        "conv_huge_output",
        NNF + "x = torch.ones(1, 1, 3000, 3000)\n" + "y = F.conv2d(x, torch.ones(64, 1, 1, 1))",
        "the output of conv2d is 576,000,000, over the limit",
        (4, 5),
    ),
    Case(
        "conv_huge_work",
        NNF
        + "x = torch.ones(1, 1000, 100, 100)\n"
        + "w = torch.ones(100, 1000, 10, 10)\n"
        + "y = F.conv2d(x, w)",
        "the multiply-adds of conv2d is 82,810,000,000",
        (5, 5),
    ),
    Case(
        "conv_huge_padding",
        NNF + "y = F.conv1d(torch.ones(1, 1, 5), torch.ones(1, 1, 3), padding=10**9)",
        "the output of conv1d is 2,000,000,003",
        (3, 5),
    ),
    Case(
        "conv_huge_dilation",
        NNF + "y = F.conv1d(torch.ones(1, 1, 5), torch.ones(1, 1, 3), dilation=10**12)",
        "Kernel size can't be greater than actual input size",
        (3, 5),
    ),
    Case(
        "conv_weight_not_tensor",
        NNF + "y = F.conv2d(torch.ones(1, 1, 3, 3), [[1.0]])",
        # (PyTorch 2.13's words: conv2d has two overloads, which its parser lists)
        "conv2d() received an invalid combination of arguments - got (Tensor, list)",
        (3, 5),
    ),
    Case(
        "conv_module_huge",
        NN + "c = nn.Conv2d(100000, 100000, 3)",
        "a tensor of shape [100000, 100000, 3, 3]",
        (3, 5),
    ),
    Case(
        "conv_module_dunder",
        NN + "c = nn.Conv2d(1, 1, 3)\n" + "k = c.__class__.__dict__",
        "`.__dict__` is not accessible",
        (4, 16),
    ),
    Case(
        "pad_replicate_huge",
        NNF + 'y = F.pad(torch.ones(1, 1, 3), (10**8, 0), mode="replicate")',
        "the padded tensor is 100,000,003",
        (3, 5),
    ),
    Case(
        "pad_constant_huge",
        NNF + "y = F.pad(torch.ones(2, 2), (10**9, 10**9))",
        "the padded tensor is 4,000,000,004",
        (3, 5),
    ),
    Case(
        "pad_negative_huge",
        NNF + "y = F.pad(torch.ones(2, 2), (-10**12, 0))",
        "resulted in a negative output size",
        (3, 5),
    ),
    Case(
        "max_pool_huge_kernel",
        NNF + "y = F.max_pool2d(torch.ones(1, 1, 4, 4), 10**12)",
        "Output size is too small",
        (3, 5),
    ),
    Case(
        "max_pool_huge_window_reads",
        NNF + "y = F.max_pool2d(torch.ones(1, 1, 3000, 3000), 1000, stride=1)",
        "the window elements the pooling reads is",
        (3, 5),
    ),
    Case(
        "max_pool_empty_dim",
        NNF + "y = F.max_pool2d(torch.ones(1, 0, 4, 4), 2)",
        "non-empty 3D or 4D (batch mode) tensor expected",
        (3, 5),
    ),
    Case(
        "avg_pool_divisor_zero",
        NNF + "y = F.avg_pool2d(torch.ones(1, 1, 4, 4), 2, divisor_override=0)",
        "divisor must be not zero",
        (3, 5),
    ),
    Case(
        "embedding_huge_index",
        NNF + "y = F.embedding(torch.tensor([10**12]), torch.ones(3, 2))",
        "index out of range in self",
        (3, 5),
    ),
    Case(
        "clip_grad_not_parameters",
        NN + "nn.utils.clip_grad_norm_(5, 1.0)",
        "'int' object is not iterable",
        (3, 1),
    ),
    Case(
        "clip_grad_module_itself",
        NN + "m = nn.Linear(2, 2)\nnn.utils.clip_grad.clip_grad_value_(m, 1.0)",
        "'Linear' object is not iterable",
        (4, 1),
    ),
    Case(
        "clip_grad_submodule_dunder",
        NN + "k = nn.utils.clip_grad.__dict__",
        "`.__dict__` is not accessible",
        (3, 23),
    ),
    cli("output_to_directory", ["backward", "prog.py", "--output", "."], "cannot write ."),
    # --- print options: no option makes a text larger than a program may print ---------------
    Case(
        "printoptions_huge_precision",
        "import torch\ntorch.set_printoptions(precision=10**12)\nprint(torch.tensor([1 / 3]))",
        "over the limit",
        (3, 1),
    ),
    Case(
        "printoptions_everything_of_a_big_tensor",
        "import torch\ntorch.set_printoptions(threshold=float('inf'))\nprint(torch.zeros(5000000))",
        "over the limit",
        (3, 1),
    ),
    Case(
        "printoptions_huge_edgeitems_linewidth",
        "import torch\ntorch.set_printoptions(linewidth=10**18, threshold=0, edgeitems=10**18)\n"
        "print(torch.zeros(3000, 3000) + 0.5)",
        "over the limit",
        (3, 1),
    ),
    Case(
        "printoptions_repeated_big_prints",
        "import torch\ntorch.set_printoptions(precision=100000)\nx = torch.tensor([1 / 3])\n"
        "for i in range(1000):\n    print(x)",
        "over the limit",
        (5, 5),
        printed=True,
    ),
    Case(
        "printoptions_negative_precision",
        "import torch\ntorch.set_printoptions(precision=-1)",
        "precision must not be negative",
        (2, 1),
    ),
    Case(
        "printoptions_string_threshold",
        "import torch\ntorch.set_printoptions(threshold='all')",
        "threshold must be a number",
        (2, 1),
    ),
    Case(
        "printoptions_dunder_kwarg",
        "import torch\ntorch.set_printoptions(__class__=1)",
        "__class__",
        (2, 1),
    ),
    # --- the scatter family: indices checked before any work --------------------------------
    Case(
        "scatter_huge_index",
        "import torch\nz = torch.zeros(2, 3)\nz.scatter_(1, torch.tensor([[10**15]]), 7.0)",
        "index 1000000000000000 is out of bounds for dimension 1 with size 3",
        (3, 1),
    ),
    Case(
        "scatter_negative_index",
        "import torch\nz = torch.zeros(3).scatter(0, torch.tensor([-(2**62)]), 1.0)",
        "is out of bounds for dimension 0 with size 3",
        (2, 5),
    ),
    Case(
        "scatter_float_index",
        "import torch\nz = torch.zeros(3).scatter(0, torch.tensor([0.0]), 1.0)",
        "Expected dtype int32/int64 for index",
        (2, 5),
    ),
    Case(
        "scatter_index_larger_than_self",
        "import torch\nz = torch.zeros(3, 4).scatter(0, torch.zeros(1, 5, dtype=torch.long), 1.0)",
        "Expected index [1, 5] to be no larger than self [3, 4]",
        (2, 5),
    ),
    Case(
        "scatter_add_list_src",
        "import torch\nz = torch.zeros(3).scatter_add(0, torch.tensor([0]), [1.0])",
        "must be Tensor, not list",
        (2, 5),
    ),
    Case(
        "scatter_src_gradient_smaller_index",
        "import torch\ns = torch.ones(3, requires_grad=True)\n"
        "torch.zeros(3).scatter(0, torch.tensor([0]), s).sum().backward()",
        "returned an invalid gradient",
        (3, 1),
    ),
    Case(
        "scatter_leaf_in_place",
        "import torch\nx = torch.zeros(3, requires_grad=True)\n"
        "x.scatter_(0, torch.tensor([1]), 2.0)",
        "a leaf Variable that requires grad is being used in an in-place operation",
        (3, 1),
    ),
    Case(
        "index_add_wrong_count",
        "import torch\nz = torch.zeros(3, 4).index_add(0, torch.tensor([0, 1]), torch.ones(1, 4))",
        "Number of indices (2) should be equal to source.size(dim): (1)",
        (2, 5),
    ),
    Case(
        "index_fill_out_of_range",
        "import torch\nz = torch.zeros(3).index_fill(0, torch.tensor([2**40]), 1.0)",
        "is out of bounds for dimension 0 with size 3",
        (2, 5),
    ),
    Case(
        "masked_fill_float_mask",
        "import torch\nz = torch.zeros(3).masked_fill(torch.ones(3), 1.0)",
        "masked_fill_ only supports boolean masks",
        (2, 5),
    ),
    Case(
        "masked_fill_in_place_grows",
        "import torch\nz = torch.zeros(3)\nz.masked_fill_(torch.ones(2, 3, dtype=torch.bool), 1.0)",
        "output with shape [3] doesn't match the broadcast shape [2, 3]",
        (3, 1),
    ),
    Case(
        "view_needs_a_copy",
        "import torch\nv = torch.zeros(2, 3).t().view(6)",
        "view size is not compatible with input tensor's size and stride",
        (2, 5),
    ),
    Case(
        "long_tensor_huge_sizes",
        "import torch\nt = torch.LongTensor(10**6, 10**6)",
        "over the limit",
        (2, 5),
    ),
    Case(
        "isclose_mixed_dtypes",
        "import torch\nb = torch.allclose(torch.ones(2), torch.ones(2).double())",
        "Float did not match Double",
        (2, 5),
    ),
    # --- linear algebra: sizes and work bounded before NumPy or LAPACK start ------------------
    Case(
        "einsum_outer_of_four_vectors",
        "import torch\nv = torch.ones(1000)\ny = torch.einsum('a,b,c,d->abcd', v, v, v, v)",
        "the result of einsum is 1,000,000,000,000, over the limit",
        (3, 5),
    ),
    Case(
        "einsum_intermediate_blowup",
        "import torch\nm = torch.ones(1000, 1000)\ny = torch.einsum('ac,bd,ab,cd->', m, m, m, m)",
        "an intermediate result of einsum is 1,000,000,000,000",
        (3, 5),
    ),
    Case(
        "einsum_implicit_outer",
        "import torch\nv = torch.ones(5000)\ny = torch.einsum('i,j', v, v)",
        "the result of einsum is 25,000,000",
        (3, 5),
    ),
    Case(
        "einsum_equation_not_a_string",
        "import torch\ny = torch.einsum(3, torch.ones(2))",
        "einsum(): argument 'equation' (position 1) must be str, not int",
        (2, 5),
    ),
    Case(
        "einsum_operand_not_a_tensor",
        "import torch\ny = torch.einsum('ij', [[1.0]])",
        "expected Tensor as element 0 in argument 1, but got list",
        (2, 5),
    ),
    Case(
        "einsum_unicode_subscript",
        "import torch\ny = torch.einsum('i\u2192j', torch.ones(2, 2))",
        "einsum(): invalid subscript given at index 1",
        (2, 5),
        caret="    " + "^" * 37,
    ),
    Case(
        "einsum_dunder_subscript",
        "import torch\ny = torch.einsum('__class__', torch.ones(2))",
        "einsum(): invalid subscript given at index 0",
        (2, 5),
    ),
    Case(
        "einsum_too_many_ellipsis_dims",
        "import torch\ny = torch.einsum('...->', torch.ones([1] * 60))",
        "more than 52 distinct subscripts",
        (2, 5),
    ),
    Case(
        "einsum_empty_dims",
        "import torch\ny = torch.einsum('ij,jk->ik', torch.ones(0, 3), torch.ones(4, 2))",
        "subscript j has size 4 for operand 1 which does not broadcast with previously seen size 3",
        (2, 5),
    ),
    Case(
        "tensordot_huge",
        "import torch\nv = torch.ones(5000)\ny = torch.tensordot(v, v, dims=0)",
        "the result of einsum is 25,000,000",
        (3, 5),
    ),
    Case(
        "kron_huge",
        "import torch\ny = torch.kron(torch.ones(4000), torch.ones(4000))",
        "the Kronecker product is 16,000,000",
        (2, 5),
    ),
    Case(
        "cdist_huge",
        "import torch\ny = torch.cdist(torch.ones(5000, 3), torch.ones(5000, 3))",
        "the result of cdist is 25,000,000",
        (2, 5),
    ),
    Case(
        "svd_too_much_work",
        "import torch\ny = torch.linalg.svd(torch.ones(3000, 3000))",
        "the work of linalg.svd on [3000, 3000] is 27,000,000,000",
        (2, 5),
    ),
    Case(
        "eigh_batch_too_much_work",
        "import torch\ny = torch.linalg.eigh(torch.ones(1000, 100, 100))",
        "the work of linalg.eigh on [1000, 100, 100] is 1,000,000,000",
        (2, 5),
    ),
    Case(
        "inv_of_a_big_singular_matrix",
        "import torch\ny = torch.linalg.inv(torch.zeros(600, 600))",
        "linalg.inv: The diagonal element 1 is zero",
        (2, 5),
    ),
    Case(
        "inv_of_a_small_singular_matrix",
        "import torch\ny = torch.linalg.inv(torch.tensor([[1., 2.], [2., 4.]]))",
        "linalg.inv: The diagonal element 2 is zero",
        (2, 5),
    ),
    Case(
        "solve_with_a_singular_batch_element",
        "import torch\nA = torch.stack([torch.eye(3), torch.zeros(3, 3)])\n"
        "y = torch.linalg.solve(A, torch.ones(2, 3, 1))",
        "torch.linalg.solve: (Batch element 1): The solver failed because the input matrix is "
        "singular.",
        (3, 5),
    ),
    Case(
        "det_of_integers",
        "import torch\ny = torch.linalg.det(torch.ones(3, 3, dtype=torch.long))",
        "linalg.det: Expected a floating point or complex tensor as input. Got Long",
        (2, 5),
    ),
    Case(
        "matrix_norm_bad_order",
        "import torch\ny = torch.linalg.matrix_norm(torch.ones(3, 3), ord='__class__')",
        "linalg.matrix_norm: Order __class__ not supported.",
        (2, 5),
    ),
    Case(
        "matrix_power_float_exponent",
        "import torch\ny = torch.linalg.matrix_power(torch.eye(2), 2.5)",
        "argument 'n' (position 2) must be int, not float",
        (2, 5),
    ),
    Case(
        "multi_dot_not_a_list",
        "import torch\ny = torch.linalg.multi_dot(torch.ones(2, 2))",
        "must be tuple of Tensors, not Tensor",
        (2, 5),
    ),
    # --- autograd snippets: module hooks, inference and anomaly modes, batched grads ------
    Case(
        "forward_hook_calls_its_module",
        NN + "lin = nn.Linear(2, 2)\nlin.register_forward_hook(lambda m, i, o: m(i[0]))\n"
        "y = lin(torch.ones(1, 2))",
        "the depth of function calls is 51, over the limit of 50",
        (4, 43),
    ),
    Case(
        # the hook runs in the pass's no-grad mode: p * 1 has no graph (PyTorch's error)
        "post_accumulate_hook_calls_backward",
        "import torch\nw = torch.ones(2, requires_grad=True)\n"
        "w.register_post_accumulate_grad_hook(lambda p: (p * 1).sum().backward())\n"
        "(w * 1).sum().backward()",
        "element 0 of tensors does not require grad and does not have a grad_fn",
        (3, 48),
    ),
    Case(
        "post_accumulate_hook_recurses_with_enable_grad",
        "import torch\nw = torch.ones(2, requires_grad=True)\ndef again(p):\n"
        "    with torch.enable_grad():\n        (p * 1).sum().backward()\n"
        "w.register_post_accumulate_grad_hook(again)\n(w * 1).sum().backward()",
        "the depth of function calls is 51, over the limit of 50",
        (5, 9),
    ),
    Case(
        "forward_hook_not_callable",
        NN + "lin = nn.Linear(2, 2)\nlin.register_forward_hook(3)",
        "'int' object is not callable",
        (4, 1),
    ),
    Case(
        "backward_hook_too_many_grads",
        NN + "lin = nn.Linear(2, 2)\n"
        "lin.register_full_backward_hook(lambda m, gi, go: (gi[0], gi[0]))\n"
        "lin(torch.ones(1, 2, requires_grad=True)).sum().backward()",
        "Backward hook returned an invalid number of grad_input, got 2, but expected 1",
        (5, 1),
    ),
    Case(
        "forward_pre_hook_returns_a_dunder_string",
        NN + "lin = nn.Linear(2, 2)\nlin.register_forward_pre_hook(lambda m, a: '__class__')\n"
        "lin(torch.ones(1, 2))",
        "must be Tensor, not str",
        (5, 1),
    ),
    Case(
        # PyTorch's one addmm(bias, x, w.t()) is gradcli's product then sum: the hook sees
        # PyTorch's three gradients, and what it returns is checked against them
        "deprecated_backward_hook_on_addmm_wrong_size",
        NN + "lin = nn.Linear(2, 2)\n"
        "lin.register_backward_hook(lambda m, gi, go: (torch.ones(10**4), gi[1], gi[2]))\n"
        "lin(torch.ones(1, 2, requires_grad=True)).sum().backward()",
        "has changed the size of value",
        (5, 1),
    ),
    Case(
        "sequential_setitem_huge_index",
        NN + "s = nn.Sequential(nn.ReLU())\ns[10**30] = nn.ReLU()",
        "is out of range",
        (4, 1),
    ),
    Case(
        "sequential_setitem_dunder_key",
        NN + "s = nn.Sequential(nn.ReLU())\ns['__class__'] = nn.ReLU()",
        "'str' object cannot be interpreted as an integer",
        (4, 1),
    ),
    Case(
        "moduledict_setitem_dotted_key",
        NN + "d = nn.ModuleDict()\nd['a.__class__'] = nn.ReLU()",
        'module name can\'t contain "."',
        (4, 1),
    ),
    Case(
        "sequential_setitem_not_a_module",
        NN + "s = nn.Sequential(nn.ReLU())\ns[0] = torch.ones(10**4)",
        "cannot assign 'Tensor' as child module '0'",
        (4, 1),
    ),
    Case(
        "detect_anomaly_mode_not_bool",
        "import torch\ntorch.autograd.set_detect_anomaly('__class__')",
        "argument 'mode' must be bool, not str",
        (2, 1),
    ),
    Case(
        "inference_mode_extra_argument",
        "import torch\nwith torch.inference_mode(mode=True, x=1):\n    pass",
        "inference_mode() takes one argument, mode",
        (2, 6),
    ),
    Case(
        "inference_tensor_saved_for_backward",
        "import torch\nwith torch.inference_mode():\n    c = torch.ones(3)\n"
        "x = torch.ones(3, requires_grad=True)\ny = x * c",
        "Inference tensors cannot be saved for backward",
        (5, 5),
    ),
    Case(
        "grads_batched_sizes_differ",
        "import torch\nx = torch.ones(3, requires_grad=True)\n"
        "g = torch.autograd.grad([x * 2, x * 3], x, [torch.ones(2, 3), torch.ones(10**6, 3)], "
        "is_grads_batched=True)",
        "Expected all tensors to have the same size in the mapped dimension",
        (3, 5),
    ),
    Case(
        "grads_batched_unbatched_grad_output",
        "import torch\nx = torch.ones(3, requires_grad=True)\n"
        "g = torch.autograd.grad(x * 2, x, [[1.0, 2.0, 3.0]], is_grads_batched=True)",
        "we interpret the first dimension of each grad_output as the batch dimension",
        (3, 5),
    ),
    Case(
        "grads_batched_batch_over_the_limit",
        "import torch\nx = torch.ones(3000, requires_grad=True)\n"
        "y = (x.unsqueeze(0).expand(3000, 3000) * 2).sum()\n"
        "g = torch.autograd.grad(y, x, torch.ones(1000), is_grads_batched=True)",
        "the result of expand is 9,000,000,000, over the limit of 10,000,000",
        (4, 5),
    ),
    # --- Python's random and numpy.random: sizes before draws, only lists shuffled ------------
    Case(
        "random_getrandbits_huge",
        "import random\nx = random.getrandbits(10**6)",
        "the size of an integer in bits is 1,000,000",
        (2, 5),
    ),
    Case(
        "random_sample_huge",
        "import random\nx = random.sample(range(10**12), 10**7)",
        "the number of items sample() would make is 10,000,000",
        (2, 5),
    ),
    Case(
        "random_choices_huge",
        "import random\nx = random.choices([1], k=10**9)",
        "the number of items choices() would make",
        (2, 5),
    ),
    Case(
        "numpy_randn_huge",
        "import numpy as np\nx = np.random.randn(10**5, 10**5)",
        "the array numpy.random.randn would make is 10,000,000,000",
        (2, 5),
    ),
    Case(
        "random_shuffle_tensor",
        "import torch\nimport random\nrandom.shuffle(torch.ones(3))",
        "random.shuffle of a Tensor is not supported",
        (3, 1),
    ),
    Case("random_internals", "import random\nx = random._inst", "`random._inst`", (2, 5)),
    Case("random_class", "import random\nx = random.Random(0)", "`random.Random`", (2, 5)),
    Case(
        "random_seed_string_huge",
        "import random\nrandom.seed('x' * 10**7)",
        "over the limit of 1,000,000",
    ),
    Case(
        "numpy_seed_out_of_range",
        "import numpy as np\nnp.random.seed(2**40)",
        "Seed must be between 0 and 2**32 - 1",
        (2, 1),
    ),
    Case(
        "numpy_concatenate_huge",
        "import numpy as np\nb = np.concatenate([np.zeros(10**6)] * 100)",
        "the result of numpy.concatenate() is 100,000,000",
        (2, 5),
    ),
    Case(
        "numpy_comparison_broadcast_huge",
        "import numpy as np\nb = np.zeros((10**4, 1)) > np.zeros(10**4)",
        "the comparison's result is 100,000,000",
        (2, 5),
    ),
    Case(
        "numpy_array_matmul_huge",
        "import numpy as np\nb = np.zeros((10**4, 10)) @ np.zeros((10, 10**4))",
        "over the limit",
        (2, 5),
    ),
    # --- del: names and list / dict items only ---------------------------------------------
    Case(
        "del_attribute",
        NN + "m = nn.Linear(2, 2)\ndel m.training",
        "`del` of Linear.training",
        (4, 5),
    ),
    Case(
        "load_report_attribute_set",
        NN + "m = nn.Linear(2, 2)\nr = m.load_state_dict(m.state_dict())\nr.missing_keys = 1",
        "cannot set attribute `missing_keys`",
        (5, 1),
    ),
    Case(
        "del_module_item",
        NN + "m = nn.Sequential(nn.ReLU())\ndel m['a']",
        "Sequential indices must be integers or slices, not str",
        (4, 5),
    ),
    Case("del_builtin", "del len", "name 'len' is not defined", (1, 5)),
    # --- hooks on a node: what they return is checked ----------------------------------------
    Case(
        "node_hook_not_callable",
        "import torch\nx = torch.ones(2, requires_grad=True)\ny = x * 2\n"
        "y.grad_fn.register_hook(3)",
        "register_hook expects a function, not int",
        (4, 1),
    ),
    Case(
        "node_hook_wrong_count",
        "import torch\nx = torch.ones(2, requires_grad=True)\ny = x * 2\n"
        "y.grad_fn.register_hook(lambda gI, gO: ('a',))\ny.sum().backward()",
        "returned an incorrect number of values",
        (5, 1),
    ),
    Case(
        "node_prehook_wrong_shape",
        "import torch\nx = torch.ones(2, requires_grad=True)\ny = x * 2\n"
        "y.grad_fn.register_prehook(lambda gO: (torch.ones(10**6),))\ny.sum().backward()",
        "has changed the size of value",
        (5, 1),
    ),
    Case(
        "node_hook_dunder",
        "import torch\nx = torch.ones(2, requires_grad=True)\nh = (x * 2).grad_fn.__init__",
        "`.__init__` of a value of class 'MulBackward0' is not supported",
        (3, 20),
    ),
    # --- batch norm and module buffers ------------------------------------------------------
    Case(
        "batchnorm_huge", NN + "bn = nn.BatchNorm1d(10**12)", "over the limit of 10,000,000", (3, 6)
    ),
    Case(
        "buffer_named_like_a_dunder",
        NN + "m = nn.Module()\nm.register_buffer('__class__', torch.ones(1))\n"
        "y = m.__class__.__dict__",
        "`.__dict__` is not accessible",
        (5, 16),
    ),
    Case(
        "module_method_replaced",
        NN + "m = nn.Linear(2, 2)\nm.forward = print",
        "replacing the method `forward` of a Linear is not supported",
        (4, 1),
    ),
    Case("module_dict_set", NN + "m = nn.Linear(2, 2)\nm.__dict__ = {}", "`.__dict__` is not"),
    Case(
        "module_setting_of_a_list",
        NN + "m = nn.BatchNorm1d(2)\nm.eps = [1]",
        "setting BatchNorm1d.eps to a list is not supported",
        (4, 1),
    ),
    Case(
        "batch_norm_wrong_running_mean",
        NNF + "y = F.batch_norm(torch.ones(2, 3), torch.zeros(2), torch.ones(3))",
        "running_mean should contain 3 elements not 2",
        (3, 5),
    ),
    # --- generator functions and plain classes (issue 10) ---------------------------------
    Case(
        "generator_forever_into_list",
        "def g():\n    while True:\n        yield 0.0\nx = list(g())",
        "the number of loop iterations is 1,001",
        (2, 5),
        env={"GRADCLI_LOOP_ITERATIONS": "1000"},
    ),
    Case(
        "generator_forever_items",
        "def g():\n    while True:\n        yield 0.0\nx = list(g())",
        "the number of items for list() is 1,001",
        (4, 5),
        env={"GRADCLI_LIST_ITEMS": "1000"},
    ),
    Case(
        "generator_forever_big_items",
        "def g():\n    while True:\n        yield [0.0] * 10**6\nx = list(g())",
        "over the limit",
        None,
        # (a lower memory limit binds sooner: 700 MB of lists took 2.4 s of CPU, 8 s loaded)
        env={"GRADCLI_LOOP_ITERATIONS": "100000", "GRADCLI_MEMORY_MB": "200"},
    ),
    Case(
        "generator_yields_itself",
        "def g():\n    yield 1\n    yield from g()\nx = list(g())",
        "the depth of function calls is 51",
        (3, 5),
    ),
    Case(
        "generator_consumes_itself",
        "def g():\n    for v in it:\n        yield v\nit = g()\nx = list(it)",
        "generator already executing",
        (2, 5),
    ),
    Case(
        "generator_frame",
        "def g():\n    yield 1\nf = g().gi_frame",
        "`.gi_frame` of a generator is not accessible",
        (3, 5),
    ),
    Case(
        "generator_code",
        "def g():\n    yield 1\nf = g().gi_code",
        "`.gi_code` of a generator is not accessible",
        (3, 5),
    ),
    Case(
        "generator_send",
        "def g():\n    yield 1\ng().send(None)",
        "generator.send() is not supported",
        (3, 1),
    ),
    Case(
        "generator_throw",
        "def g():\n    yield 1\ng().throw(ValueError)",
        "generator.throw() is not supported",
        (3, 1),
    ),
    Case(
        "genexp_frame",
        "f = (i for i in [1]).gi_frame",
        "`.gi_frame` of a generator is not accessible",
        (1, 5),
    ),
    Case("generator_len", "def g():\n    yield 1\nn = len(g())", "has no len()", (3, 5)),
    Case("yield_outside_function", "x = [(yield 1)]", "'yield' outside function", (1, 7)),
    Case(
        "yield_from_non_iterable",
        "def g():\n    yield from 5\nx = list(g())",
        "'int' object is not iterable",
        (2, 16),
    ),
    Case(
        "class_repr_recursion",
        "class A:\n    def __repr__(self):\n        return repr(self)\nprint(A())",
        "the depth of function calls is 51",
        (3, 16),
    ),
    Case(
        "class_str_recursion",
        "class A:\n    def __str__(self):\n        return f'{self}'\nprint(A())",
        "the depth of function calls is 51",
        (3, 19),
    ),
    Case(
        "class_getitem_recursion",
        "class A:\n    def __getitem__(self, i):\n        return self[i]\nx = A()[0]",
        "the depth of function calls is 51",
        (3, 16),
    ),
    Case(
        "class_property_recursion",
        "class A:\n    @property\n    def x(self):\n        return self.x\nv = A().x",
        "the depth of function calls is 51",
        (4, 16),
    ),
    Case(
        "class_iter_forever",
        "class A:\n    def __iter__(self):\n        while True:\n            yield self\n"
        "v = list(A())",
        "the number of items for list() is 1,001",
        (5, 5),
        env={"GRADCLI_LIST_ITEMS": "1000"},
    ),
    Case(
        "plain_self_class",
        "class A:\n    def f(self):\n        return self.__class__.__subclasses__()\nv = A().f()",
        "`.__subclasses__` is not accessible",
        (3, 30),
    ),
    Case(
        "plain_type_dict",
        "class A:\n    pass\nd = type(A()).__dict__",
        "`.__dict__` is not accessible",
        (3, 14),
    ),
    Case(
        "plain_class_subclasses",
        "class A:\n    pass\ns = A.__subclasses__()",
        "`.__subclasses__` is not accessible",
        (3, 6),
    ),
    Case(
        "plain_super_class",
        "class A:\n    def f(self):\n        return super().__class__.__mro__\nv = A().f()",
        "`.__mro__` is not accessible",
        (3, 33),
    ),
    Case(
        "plain_hasattr_dunder",
        # (a module's __dict__ is readable, a snapshot as vars(); clearing it is refused)
        "class A(torch.nn.Module):\n    pass\n"
        "if hasattr(A(), '__dict__'):\n    A().__dict__.clear()",
        "changing a module's __dict__ is not supported",
        (4, 5),
    ),
    # torch.utils.data: a dataset's length and a batch are sized before the work
    Case(
        "dataloader_shuffle_huge_dataset",
        "from torch.utils.data import Dataset, DataLoader\nclass Big(Dataset):\n"
        "    def __len__(self):\n        return 10**12\n"
        "    def __getitem__(self, i):\n        return torch.ones(2)\n"
        "for b in DataLoader(Big(), batch_size=4, shuffle=True):\n    pass",
        "over the limit of 10,000,000",
        (7, 1),
    ),
    Case(
        "dataloader_huge_batch",
        "from torch.utils.data import Dataset, DataLoader\nclass Big(Dataset):\n"
        "    def __len__(self):\n        return 10**12\n"
        "    def __getitem__(self, i):\n        return torch.ones(2)\n"
        "for b in DataLoader(Big(), batch_size=10**9):\n    pass",
        "the number of samples in one batch is 1,000,000,000",
        (7, 1),
    ),
    Case(
        "dataloader_getitem_recurses",
        "from torch.utils.data import Dataset, DataLoader\nclass R(Dataset):\n"
        "    def __len__(self):\n        return 3\n"
        "    def __getitem__(self, i):\n        return next(iter(loader))\n"
        "loader = DataLoader(R())\nx = next(iter(loader))",
        "the depth of function calls is 51",
        (6, 16),
    ),
    Case(
        "dataloader_batch_size_zero",
        "from torch.utils.data import DataLoader\nl = DataLoader([1, 2], batch_size=0)",
        "batch_size should be a positive integer value",
        (2, 5),
    ),
    Case(
        "dataloader_sampler",
        "from torch.utils.data import DataLoader\nl = DataLoader([1, 2], sampler=[0, 1], "
        "shuffle=True)",
        "sampler option is mutually exclusive with shuffle",
        (2, 5),
    ),
    Case(
        "random_sampler_huge_num_samples",
        "from torch.utils.data import RandomSampler\nx = list(RandomSampler([1], True, 10**12))",
        "the number of items for list() is 1,001",
        (2, 5),
        env={"GRADCLI_LIST_ITEMS": "1000"},
    ),
    Case(
        "weighted_sampler_huge_draw",
        "from torch.utils.data import WeightedRandomSampler as W\nx = list(W([1.0, 2.0], 10**12))",
        "1,000,000,000,000",
        (2, 5),
    ),
    Case(
        "batch_sampler_endless_sampler",
        "from torch.utils.data import BatchSampler, Sampler\nclass S(Sampler):\n"
        "    def __iter__(self):\n        while True:\n            yield 0\n"
        "b = next(iter(BatchSampler(S(), 10**9, False)))",
        "the number of samples in one batch is 1,001",
        (6, 5),
        env={"GRADCLI_LIST_ITEMS": "1000"},
    ),
    Case(
        "sampler_of_a_sampler_reaches_out",
        "from torch.utils.data import SubsetRandomSampler as S\nx = list(S(__builtins__))",
        "__builtins__",
        (2, 12),
    ),
    Case(
        "dataloader_private_attribute",
        "from torch.utils.data import DataLoader\nl = DataLoader([1, 2])\nf = l._batches",
        "'DataLoader' object has no attribute '_batches'",
        (3, 5),
    ),
    Case(
        "tensordataset_of_lists",
        "from torch.utils.data import TensorDataset\nd = TensorDataset([1, 2], [3, 4])",
        "TensorDataset takes tensors, not list",
        (2, 5),
    ),
    Case(
        "tensordataset_size_mismatch",
        "from torch.utils.data import TensorDataset\n"
        "d = TensorDataset(torch.ones(3), torch.ones(4))",
        "Size mismatch between tensors",
        (2, 5),
    ),
    Case(
        "collate_unequal_tuples",
        "from torch.utils.data import DataLoader\n"
        "for b in DataLoader([(1, 2), (3,)], batch_size=2):\n    pass",
        "each element in list of batch should be of equal size",
        (2, 1),
    ),
    Case(
        "one_cycle_past_total_steps",
        "w = torch.zeros(1, requires_grad=True)\nopt = torch.optim.SGD([w], lr=0.1)\n"
        "s = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=2)\n"
        "for i in range(5):\n    opt.step()\n    s.step()",
        "Tried to step 3 times. The specified number of total steps is 2",
        (6, 5),
    ),
    Case(
        "one_cycle_zero_steps",
        "w = torch.zeros(1, requires_grad=True)\nopt = torch.optim.SGD([w], lr=0.1)\n"
        "s = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=0)",
        "Expected positive integer total_steps, but got 0",
        (3, 5),
    ),
    Case(
        "one_cycle_no_momentum",
        "w = torch.zeros(1, requires_grad=True)\nopt = torch.optim.Adagrad([w], lr=0.1)\n"
        "s = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=5)",
        "optimizer must support momentum or beta1",
        (3, 5),
    ),
    Case(
        "one_cycle_max_lr_per_group",
        "w = torch.zeros(1, requires_grad=True)\nopt = torch.optim.SGD([w], lr=0.1)\n"
        "s = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=[1.0, 2.0], total_steps=5)",
        "max_lr must have the same length as optimizer.param_groups",
        (3, 5),
    ),
    Case(
        "warm_restarts_nan_epoch",
        "w = torch.zeros(1, requires_grad=True)\nopt = torch.optim.SGD([w], lr=0.1)\n"
        "s = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, 2, T_mult=3)\n"
        "s.step(float('nan'))",
        "cannot convert float nan to integer",
        (4, 1),
    ),
    Case(
        "warm_restarts_negative_epoch",
        "w = torch.zeros(1, requires_grad=True)\nopt = torch.optim.SGD([w], lr=0.1)\n"
        "s = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, 2)\ns.step(-3)",
        "Expected non-negative epoch, but got -3",
        (4, 1),
    ),
    Case(
        "cyclic_exp_range_overflows",
        "w = torch.zeros(1, requires_grad=True)\nopt = torch.optim.SGD([w], lr=0.1)\n"
        "s = torch.optim.lr_scheduler.CyclicLR(opt, 0.01, 0.1, step_size_up=1, "
        "mode='exp_range', gamma=1e10)\nfor i in range(100):\n    s.step()",
        "Numerical result out of range",
        (5, 5),
    ),
    Case(
        "cyclic_tiny_step_size",
        "w = torch.zeros(1, requires_grad=True)\nopt = torch.optim.SGD([w], lr=0.1)\n"
        "s = torch.optim.lr_scheduler.CyclicLR(opt, 0.01, 0.1, step_size_up=1e-320)\ns.step()",
        "cannot convert float infinity to integer",
        (4, 1),
    ),
    Case(
        "sequential_of_a_number",
        "w = torch.zeros(1, requires_grad=True)\nopt = torch.optim.SGD([w], lr=0.1)\n"
        "s = torch.optim.lr_scheduler.SequentialLR(opt, [3], milestones=[])",
        "should have `optimizer` as its attribute",
        (3, 5),
    ),
    Case(
        "rprop_eta_order",
        "w = torch.zeros(1, requires_grad=True)\nopt = torch.optim.Rprop([w], etas=(1.2, 0.5))",
        "Invalid eta values: 1.2, 0.5",
        (2, 7),
    ),
    Case(
        "nadam_beta_string",
        "w = torch.zeros(1, requires_grad=True)\nopt = torch.optim.NAdam([w], betas=(0.9, 'a'))",
        "betas must be a number, not str",
        (2, 7),
    ),
    Case(
        "combinations_explode",
        "c = torch.combinations(torch.arange(300.), r=8)",
        "over the limit",
        (1, 5),
    ),
    Case(
        "tril_indices_huge",
        "i = torch.tril_indices(10**7, 10**7)",
        "over the limit",
        (1, 5),
    ),
    Case(
        "block_diag_many_big_blocks",
        "b = torch.block_diag(*[torch.ones(3000, 3000)] * 20)",
        "over the limit",
        (1, 5),
    ),
    Case(
        "rot90_one_dim",
        "r = torch.rot90(torch.ones(3))",
        "expected total dims >= 2",
        (1, 5),
    ),
    Case(
        "pixel_shuffle_huge_factor",
        "y = torch.nn.functional.pixel_shuffle(torch.ones(1, 4, 2, 2), 10**9)",
        "is not divisible by 1000000000000000000",
        (1, 5),
    ),
    Case(
        "pixel_unshuffle_float_factor",
        "y = torch.pixel_unshuffle(torch.ones(1, 1, 4, 4), 2.0)",
        "must be int, not float",
        (1, 5),
    ),
    Case(
        "adaptive_max_pool_huge_output",
        "y = torch.nn.AdaptiveMaxPool2d((10**6, 10**6))(torch.ones(1, 2, 2))",
        "over the limit",
        (1, 5),
    ),
    Case(
        "adaptive_max_pool_many_windows",
        "y = torch.nn.functional.adaptive_max_pool2d(torch.ones(1, 300, 300), 300)",
        "at most 4096 output positions",
        (1, 5),
    ),
    Case(
        "adaptive_max_pool_empty",
        "y = torch.nn.functional.adaptive_max_pool2d(torch.ones(1, 0, 3), 2)",
        "with dimension 1 being empty",
        (1, 5),
    ),
    Case(
        "lrn_huge_size",
        "y = torch.nn.LocalResponseNorm(10**9)(torch.ones(1, 4, 4))",
        "over the limit",
        (1, 5),
    ),
    Case(
        "addr_huge_outer",
        "v = torch.ones(10**5)\ny = torch.addr(torch.zeros(1), v, v)",
        "over the limit",
        (2, 5),
    ),
    Case(
        "embedding_bag_huge_output",
        "e = torch.nn.EmbeddingBag(2, 10**4)\ny = e(torch.zeros(10**4, dtype=torch.long), "
        "torch.arange(10**4))",
        "over the limit",
        (2, 5),
    ),
    Case(
        "embedding_bag_offsets_past_end",
        "e = torch.nn.EmbeddingBag(3, 2)\ny = e(torch.tensor([1, 2]), torch.tensor([0, 10**12]))",
        "can not be greater than input's length 2",
        (2, 5),
    ),
    Case(
        "embedding_bag_float_indices",
        "e = torch.nn.EmbeddingBag(3, 2)\ny = e(torch.tensor([[1.0, 2.0]]))",
        "to have one of the following scalar types: Long, Int",
        (2, 5),
    ),
    Case(
        "max_unpool_huge_output",
        "x = torch.ones(1, 1, 1, 1)\n"
        "y = torch.nn.functional.max_unpool2d(x, torch.zeros(1, 1, 1, 1, dtype=torch.long), "
        "10**5, output_size=(10**5, 10**5))",
        "over the limit",
        (2, 5),
    ),
    Case(
        "max_unpool_float_indices",
        "y = torch.nn.MaxUnpool1d(2)(torch.ones(1, 2), torch.ones(1, 2))",
        "elements in indices should be type int64 but got: Float",
        (1, 5),
    ),
    Case(
        "multilabel_margin_huge_pairs",
        "x = torch.ones(1, 10**4)\n"
        "y = torch.nn.functional.multilabel_margin_loss(x, torch.zeros(1, 10**4).long())",
        "over the limit",
        (2, 5),
    ),
    Case(
        "matrix_exp_huge_norm",
        "y = torch.matrix_exp(torch.full((300, 300), 1e30))",
        "over the limit",
        (1, 5),
    ),
    Case(
        "matrix_exp_many_squarings",
        "y = torch.linalg.matrix_exp(torch.full((100, 100), 1e300, dtype=torch.float64))",
        "over the limit",
        (1, 5),
    ),
    Case(
        "solve_triangular_huge_matrix",
        "y = torch.linalg.solve_triangular(torch.ones(3000, 3000), torch.ones(3000, 1), upper=1)",
        "",
        (1, 5),
    ),
    Case(
        "histogram_huge_bins",
        "h = torch.histogram(torch.ones(3), 10**9)",
        "over the limit",
        (1, 5),
    ),
    Case(
        "histogram_int_input",
        "h = torch.histogram(torch.tensor([1, 2]), 2)",
        "\"histogramdd\" not implemented for 'Long'",
        (1, 5),
    ),
    Case(
        "cov_negative_weights",
        "c = torch.cov(torch.ones(2, 3), fweights=torch.tensor([1, -1, 2]))",
        "fweights cannot be negative",
        (1, 5),
    ),
    Case(
        "matrix_rank_huge_work",
        "r = torch.linalg.matrix_rank(torch.ones(3000, 3000))",
        "",
        (1, 5),
    ),
    Case(
        "pad_sequence_empty",
        "from torch.nn.utils.rnn import pad_sequence\np = pad_sequence([])",
        "received an empty list of sequences",
        (2, 5),
    ),
    Case(
        "pad_sequence_huge_padding",
        "from torch.nn.utils.rnn import pad_sequence\n"
        "p = pad_sequence([torch.ones(10**6), torch.ones(1)] * 50)",
        "over the limit",
        (2, 5),
    ),
    Case(
        "pack_padded_huge_lengths",
        "from torch.nn.utils.rnn import pack_padded_sequence\n"
        "p = pack_padded_sequence(torch.ones(3, 2), [10**12, 1])",
        "over the limit",
        (2, 5),
    ),
    Case(
        "pad_packed_huge_total_length",
        "from torch.nn.utils.rnn import PackedSequence, pad_packed_sequence\n"
        "p = PackedSequence(torch.ones(3), torch.tensor([2, 1]))\n"
        "q = pad_packed_sequence(p, total_length=10**9)",
        "over the limit",
        (3, 5),
    ),
    Case(
        "pad_packed_sizes_not_the_data",
        "from torch.nn.utils.rnn import PackedSequence, pad_packed_sequence\n"
        "p = PackedSequence(torch.ones(3), torch.tensor([10**9, 1]))\n"
        "q = pad_packed_sequence(p)",
        "is invalid for input of size 3",
        (3, 5),
    ),
    Case(
        "packed_rnn_increasing_batch_sizes",
        "from torch.nn.utils.rnn import PackedSequence\n"
        "p = PackedSequence(torch.ones(4, 1), torch.tensor([1, -1, 4]))\n"
        "out, h = torch.nn.GRU(1, 2)(p)",
        "must be decreasing and non-negative",
        (3, 10),
    ),
    Case(
        "packed_rnn_string_data",
        "from torch.nn.utils.rnn import PackedSequence\n"
        "p = PackedSequence('abc', torch.tensor([2, 1]))\n"
        "out, h = torch.nn.LSTM(1, 2)(p)",
        "'str' object has no attribute 'dim'",
        (3, 10),
    ),
    Case(
        "packed_sequence_dunder",
        "from torch.nn.utils.rnn import pack_sequence\n"
        "p = pack_sequence([torch.ones(2), torch.ones(1)])\n"
        "q = p._replace(data=1)",
        "no attribute '_replace'",
        (3, 5),
    ),
    Case(
        "unpad_sequence_huge_lengths",
        "from torch.nn.utils.rnn import unpad_sequence\n"
        "p = unpad_sequence(torch.ones(3, 2), [1] * 10**7)",
        "over the limit",
        (2, 38),
    ),
    Case(
        "pack_sequence_not_tensors",
        "from torch.nn.utils.rnn import pack_sequence\np = pack_sequence([[1.0, 2.0], [3.0]])",
        "'list' object has no attribute 'size'",
        (2, 5),
    ),
    Case(
        "pack_padded_empty",
        "from torch.nn.utils.rnn import pack_padded_sequence\n"
        "p = pack_padded_sequence(torch.ones(0, 2), [1, 1])",
        "Cannot pack empty tensors.",
        (2, 5),
    ),
    Case(
        "checkpoint_recursive",
        "from torch.utils.checkpoint import checkpoint\n"
        "def f(x):\n"
        "    return checkpoint(f, x, use_reentrant=False)\n"
        "y = f(torch.ones(2, requires_grad=True))",
        "over the limit",
    ),
    Case(
        "checkpoint_nested_inner_grad",
        "from torch.utils.checkpoint import checkpoint\n"
        "def inner(t):\n"
        "    return torch.autograd.grad((t * t).sum(), t, create_graph=True)[0]\n"
        "def outer(t):\n"
        "    return checkpoint(inner, t * 2, use_reentrant=False)\n"
        "y = checkpoint(outer, torch.ones(2, requires_grad=True), use_reentrant=False)",
        "inside nested non-reentrant checkpoints is not supported",
        (3, 12),
    ),
    Case(
        "checkpoint_recursive_inner_grad",
        "from torch.utils.checkpoint import checkpoint\n"
        "def f(x):\n"
        "    g = torch.autograd.grad((x * x).sum(), x, create_graph=True)[0]\n"
        "    return checkpoint(f, g, use_reentrant=False)\n"
        "y = f(torch.ones(2, requires_grad=True))",
        "inside nested non-reentrant checkpoints is not supported",
        (3, 9),
    ),
    Case(
        "checkpoint_not_callable",
        "from torch.utils.checkpoint import checkpoint\n"
        "y = checkpoint(3, torch.ones(2), use_reentrant=False)",
        "'int' object is not callable",
        (2, 5),
    ),
    Case(
        "checkpoint_sequential_huge_segments",
        "from torch.utils.checkpoint import checkpoint_sequential\n"
        "m = torch.nn.Sequential(torch.nn.ReLU())\n"
        "y = checkpoint_sequential(m, 10**9, torch.ones(2), use_reentrant=False)",
        "range() arg 3 must not be zero",
        (3, 5),
    ),
    Case(
        "checkpoint_sequential_not_modules",
        "from torch.utils.checkpoint import checkpoint_sequential\n"
        "y = checkpoint_sequential(5, 2, torch.ones(2), use_reentrant=False)",
        "object of type 'int' has no len()",
        (2, 5),
    ),
    Case(
        "checkpoint_context_fn",
        "from torch.utils.checkpoint import checkpoint\n"
        "y = checkpoint(torch.sin, torch.ones(2), use_reentrant=False, context_fn=print)",
        "context_fn=...) is not supported",
        (2, 5),
    ),
    Case(
        "multi_grad_hook_not_iterable",
        "from torch.autograd.graph import register_multi_grad_hook\n"
        "h = register_multi_grad_hook(3, print)",
        "'int' object is not iterable",
        (2, 5),
    ),
    Case(
        "multi_grad_hook_bad_mode",
        "from torch.autograd.graph import register_multi_grad_hook\n"
        "a = torch.ones(2, requires_grad=True)\n"
        "h = register_multi_grad_hook([a], print, mode='__class__')",
        "Expects mode to be one of ('all', 'any')",
        (3, 5),
    ),
    Case(
        "multi_grad_hook_recursive_backward",
        "from torch.autograd.graph import register_multi_grad_hook\n"
        "a = torch.ones(2, requires_grad=True)\n"
        "def again(gs):\n"
        "    with torch.enable_grad():\n"
        "        (a * 2).sum().backward()\n"
        "h = register_multi_grad_hook([a], again)\n"
        "(a * 2).sum().backward()",
        "recursed too deeply",
    ),
    Case(
        "conv3d_huge_padding",
        "y = torch.nn.functional.conv3d(torch.ones(1, 1, 2, 2, 2), torch.ones(1, 1, 1, 1, 1), "
        "padding=10**4)",
        "over the limit",
        (1, 5),
    ),
    Case(
        "conv_transpose3d_huge_stride",
        "y = torch.nn.functional.conv_transpose3d(torch.ones(1, 1, 2, 2, 2), "
        "torch.ones(1, 1, 1, 1, 1), stride=10**4)",
        "over the limit",
        (1, 5),
    ),
    Case(
        "adaptive_avg_pool3d_many_windows",
        "y = torch.nn.functional.adaptive_avg_pool3d(torch.ones(1, 1, 20, 20, 20), 20)",
        "at most 4096 output positions",
        (1, 5),
    ),
    Case("conv3d_huge_module", "m = torch.nn.Conv3d(1, 1000, 1000)", "over the limit", (1, 5)),
    Case(
        "mark_dirty_on_a_leaf",
        "from torch.autograd import Function\n"
        "class F(Function):\n"
        "    @staticmethod\n"
        "    def forward(ctx, x):\n"
        "        ctx.mark_dirty(x)\n"
        "        return x\n"
        "    @staticmethod\n"
        "    def backward(ctx, g):\n"
        "        return g\n"
        "F.apply(torch.ones(2, requires_grad=True))",
        "a leaf Variable that requires grad has been used in an in-place operation",
        (10, 1),
    ),
    Case(
        "print_unknown_keyword",
        "print(torch.ones(2), dim=1)",
        "'dim' is an invalid keyword argument for print()",
        (1, 1),
    ),
    Case(
        "randomstate_huge_draw",
        "import numpy as np\nr = np.random.RandomState(0)\na = r.randn(10**5, 10**5)",
        "over the limit",
        (3, 5),
    ),
    Case(
        "randomstate_bad_seed",
        "import numpy as np\nr = np.random.RandomState(-1)",
        "Seed must be between 0 and 2**32 - 1",
        (2, 5),
    ),
    Case(
        "default_rng_huge_normal",
        "import numpy as np\ng = np.random.default_rng(0)\na = g.normal(size=(10**6, 10**6))",
        "over the limit",
        (3, 5),
    ),
    Case(
        "default_rng_tensor_parameter",
        "import numpy as np\ng = np.random.default_rng(0)\na = g.normal(torch.zeros(2))",
        "not supported by gradcli",
        (3, 5),
    ),
    Case(
        "grad_tensor_with_ndarray",
        "import numpy as np\nw = torch.ones(2, requires_grad=True)\ny = w * np.ones(2)",
        "Can't call numpy() on Tensor that requires grad",
        (3, 5),
    ),
    Case(
        "ndarray_matmul_tensor",
        "import numpy as np\ny = np.ones((2, 2)) @ torch.ones(2, 2)",
        "unsupported operand type(s) for @: 'numpy.ndarray' and 'Tensor'",
        (2, 5),
    ),
    Case(
        "tensor_matmul_huge_ndarray",
        "import numpy as np\ny = torch.ones(5000, 10) @ np.ones((10, 5000))",
        "over the limit",
        (2, 5),
    ),
    Case(
        "bce_logits_target_size",
        "import torch.nn.functional as F\nl = F.binary_cross_entropy_with_logits("
        "torch.zeros(2, 3), torch.zeros(3))",
        "Target size (torch.Size([3])) must be the same as input size (torch.Size([2, 3]))",
        (2, 5),
    ),
    # copy: containers and graph leaves only, sized before the walk
    Case(
        "deepcopy_module_non_leaf_attribute",
        "import copy\nclass M(torch.nn.Module):\n    def __init__(self):\n"
        "        super().__init__()\n        self.h = torch.ones(2, requires_grad=True) * 2\n"
        "m = copy.deepcopy(M())",
        "Only Tensors created explicitly by the user (graph leaves) support the deepcopy",
        (6, 5),
    ),
    Case(
        "deepcopy_module_items_counted",
        "import copy\nm = torch.nn.Linear(1, 1)\nm.a = [0] * 600\nm.b = [m.a] * 600\n"
        "keep = []\nfor i in range(1000):\n    keep.append(copy.deepcopy(m))",
        "the items of the copy",
        (7, 17),
        env={"GRADCLI_LIST_ITEMS": "1000"},
    ),
    Case(
        "deepcopy_module_holding_itself",
        "import copy\nm = torch.nn.Sequential(torch.nn.Linear(1, 1))\nm.again = m\n"
        "c = copy.deepcopy(m)\nprint(c)",
        "the module Sequential contains itself",
        (5, 1),
    ),
    Case(
        "stack_module_state_huge",
        "from torch.func import stack_module_state\n"
        "p, b = stack_module_state([torch.nn.Linear(1000, 1000)] * 20)",
        "the stacked tensor is 20,000,000, over the limit of 10,000,000",
        (2, 8),
    ),
    Case(
        "stack_module_state_not_modules",
        "from torch.func import stack_module_state\np, b = stack_module_state([1, 2])",
        "'int' object has no attribute 'training'",
        (2, 8),
    ),
    Case(
        "module_to_meta_called",
        "m = torch.nn.Linear(2, 2).to('meta')\ny = m(torch.ones(2))",
        "Tensor on device meta is not on the expected device cpu!",
        (2, 5),
    ),
    Case(
        "module_to_meta_weight_read",
        "m = torch.nn.Sequential(torch.nn.Linear(2, 2)).to(torch.device('meta'))\n"
        "w = m[0].weight.tolist()",
        "Cannot copy out of meta tensor; no data!",
        (2, 5),
    ),
    Case(
        "module_to_meta_functional_call_missing",
        "from torch.func import functional_call\nm = torch.nn.Linear(2, 2).to('meta')\n"
        "y = functional_call(m, {'weight': torch.ones(2, 2)}, (torch.ones(2),))",
        "Tensor on device meta is not on the expected device cpu!",
        (3, 5),
    ),
    Case(
        "tensor_to_meta",
        "x = torch.ones(2).to('meta').numpy()",
        "can't convert meta device type tensor to numpy",
        (1, 5),
    ),
    Case(
        "deepcopy_non_leaf",
        "import copy\nx = torch.ones(2, requires_grad=True)\nc = copy.deepcopy(x * 2)",
        "Only Tensors created explicitly by the user (graph leaves) support the deepcopy",
        (3, 5),
    ),
    Case(
        "deepcopy_deep_nesting",
        "import copy\nl = [1]\nfor i in range(10000):\n    l = [l]\nc = copy.deepcopy(l)",
        "copy.deepcopy(): the value is nested over 100 levels deep",
        (5, 5),
    ),
    Case(
        "deepcopy_function",
        "import copy\nopt = torch.optim.SGD([torch.ones(1, requires_grad=True)])\n"
        "c = copy.deepcopy(opt)",
        "copy.deepcopy() of a SGD is not supported",
        (3, 5),
    ),
    Case(
        "getattr_dunder_class",
        "x = torch.ones(2)\nc = getattr(x, '__dict__')",
        "getattr(..., '__dict__') is not accessible",
        (2, 5),
    ),
    Case(
        "getattr_dunder_built_name",
        "n = '__glo' + 'bals__'\nf = getattr(print, n, None)",
        "getattr(..., '__globals__') is not accessible",
        (2, 5),
    ),
    Case(
        "getattr_dunder_of_class",
        "class A:\n    pass\nb = getattr(A, '__bases__')",
        "getattr(..., '__bases__') is not accessible",
        (3, 5),
    ),
    Case(
        "getattr_name_not_str",
        "x = torch.ones(2)\ny = getattr(x, 3)",
        "attribute name must be string",
        (2, 5),
    ),
    Case(
        "getattr_missing_no_default",
        "x = torch.ones(2)\ny = getattr(x, 'nope')",
        "'Tensor' object has no attribute 'nope'",
        (2, 5),
    ),
    Case(
        "plain_class_attribute_init_subclass",
        "class A:\n    __init_subclass__ = print",
        "the class attribute `__init_subclass__` is not supported",
        (2, 5),
    ),
    Case(
        "plain_slots",
        "class A:\n    __slots__ = ('x',)",
        "the class attribute `__slots__` is not supported",
        (2, 5),
    ),
    Case(
        "plain_getattr",
        "class A:\n    def __getattribute__(self, n):\n        return 1",
        "method `__getattribute__` is not supported",
        (2, 5),
    ),
    Case(
        "plain_setattr",
        "class A:\n    def __delattr__(self, n):\n        pass",
        "method `__delattr__` is not supported",
        (2, 5),
    ),
    Case(
        "plain_new",
        "class A:\n    def __new__(cls):\n        return 1",
        "method `__new__` is not supported",
        (2, 5),
    ),
    Case(
        "plain_index_hook",
        "class A:\n    def __index__(self):\n        return 10**9\ns = 'x' * A()",
        "over the limit",  # (__index__ is called as Python calls it: feat24)
        (4, 5),
    ),
    Case(
        "plain_metaclass",
        "class A(metaclass=type):\n    pass",
        "class keywords (metaclass=...) are not supported",
        (1, 9),
    ),
    Case(
        "plain_dataclass",
        "@dataclass\n@dataclass\nclass A:\n    x: int = 1",
        "several class decorators are not supported",
        (2, 2),
    ),
    Case(
        "plain_method_decorator",
        "class A:\n    @functools.lru_cache\n    def f(self):\n        return 1",
        "name 'functools' is not defined",
        (2, 6),
    ),
    Case(
        "plain_several_bases",
        "class A:\n    pass\nclass B(A, object, print):\n    pass",
        "a class with several base classes is not supported with print among them",
        (3, 20),
    ),
    Case(
        "module_exception_subclass",
        NN + "class E(nn.Module, ValueError):\n    pass",
        "a class with several base classes is not supported with ValueError among them",
        (3, 20),
    ),
    Case(
        "plain_huge_list_in_init",
        "class A:\n    def __init__(self, n):\n        self.data = [0.0] * n\na = A(10**9)",
        "the length of the list is 1,000,000,000, over the limit",
        (3, 21),
    ),
    Case(
        "plain_many_instances",
        "class A:\n    def __init__(self):\n        self.d = [0.0] * 100000\n"
        "xs = [A() for _ in range(10**6)]",
        "the memory the program has taken",
        None,
        env={"GRADCLI_MEMORY_MB": "200"},  # (binds sooner: 700 MB took 4.5 s, 8 s loaded)
    ),
    Case(
        "plain_len_negative",
        "class A:\n    def __len__(self):\n        return -1\nv = len(A())",
        "__len__() should return >= 0",
        (4, 5),
    ),
    Case(
        "plain_repr_not_str",
        "class A:\n    def __repr__(self):\n        return 1\nprint(A())",
        "__repr__ returned non-string (type int)",
        (4, 1),
    ),
    Case(
        "plain_init_returns",
        "class A:\n    def __init__(self):\n        return 1\na = A()",
        "__init__() should return None, not 'int'",
        (4, 5),
    ),
    Case(
        "plain_in_tensor",
        "class A:\n    pass\nv = torch.tensor([A()])",
        "Could not infer dtype of A",
        (3, 5),
    ),
    Case(
        "plain_not_callable",
        "class A:\n    pass\nv = A()(1)",
        "'A' object is not callable",
        (3, 5),
    ),
    Case(
        "plain_property_no_setter",
        "class A:\n    @property\n    def x(self):\n        return 1\na = A()\na.x = 2",
        "property 'x' of 'A' object has no setter",
        (6, 1),
    ),
    Case(
        "function_class_attribute",
        "class F(torch.autograd.Function):\n    k = 1\n"
        "    @staticmethod\n    def forward(ctx, x):\n        return x\n"
        "    @staticmethod\n    def backward(ctx, g):\n        return g",
        "class attributes are not supported in a torch.autograd.Function",
        (2, 5),
    ),
    Case(
        "function_generate_vmap_rule_reaches_out",
        "class F(torch.autograd.Function):\n    generate_vmap_rule = __import__('os')\n"
        "    @staticmethod\n    def forward(x):\n        return x\n"
        "    @staticmethod\n    def setup_context(ctx, inputs, output):\n        pass\n"
        "    @staticmethod\n    def backward(ctx, g):\n        return g",
        "__import__",
        (2, 26),
    ),
    Case(
        "function_two_class_attributes",
        "class F(torch.autograd.Function):\n    generate_vmap_rule = True\n    k = 2\n"
        "    @staticmethod\n    def forward(ctx, x):\n        return x\n"
        "    @staticmethod\n    def backward(ctx, g):\n        return g",
        "class attributes are not supported in a torch.autograd.Function",
        (3, 5),
    ),
    Case(
        "function_boxed_grads_call_reaches_out",
        "class F(torch.autograd.Function):\n    boxed_grads_call = __import__('os')\n"
        "    @staticmethod\n    def forward(ctx, x):\n        return x\n"
        "    @staticmethod\n    def backward(ctx, gs):\n        return gs[0]",
        "__import__",
        (2, 24),
    ),
    Case(
        "function_clear_saved_flag_not_bool",
        "class F(torch.autograd.Function):\n    clear_saved_tensors_on_access = 'yes'\n"
        "    @staticmethod\n    def forward(ctx, x):\n        return x\n"
        "    @staticmethod\n    def backward(ctx, g):\n        return g\n"
        "y = F.apply(x)",
        "F.clear_saved_tensors_on_access must be True or False",
        (1, 1),
    ),
    Case(
        "function_boxed_grads_list_of_hostile_values",
        "class F(torch.autograd.Function):\n    boxed_grads_call = True\n"
        "    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n"
        "    @staticmethod\n    def backward(ctx, gs):\n"
        "        gs.append(gs.__class__.__subclasses__())\n        return gs[0]\n"
        "F.apply(torch.ones(2, requires_grad=True)).sum().backward()",
        "`.__subclasses__` is not accessible",
        (8, 31),
    ),
    Case("compile_a_number", "f = torch.compile(3)", "A callable function is expected", (1, 5)),
    Case(
        "compile_backend_reaches_out",
        "@torch.compile(backend=__import__('os'))\ndef f(x):\n    return x\n",
        "__import__",
        (1, 24),
    ),
    Case(
        "jit_script_of_a_class",
        "@torch.jit.script\nclass A:\n    pass\n",
        "decorators",
        None,
    ),
    Case(
        "warnings_warn_many_places_then_fails",
        "import warnings\nfor i in range(3000):\n    warnings.warn(f'w{i}')\nx = 1 / 0",
        "division by zero",
        (4, 5),
    ),
    # calls that do not fit: the program's error, never an internal one (found by fuzzing)
    Case(
        "module_constructor_too_few",
        "m = torch.nn.Linear(3)",
        "Linear.__init__() missing 1 required positional argument: 'out_features'",
        (1, 5),
    ),
    Case(
        "module_constructor_unknown_keyword",
        "m = torch.nn.TransformerEncoderLayer(4, 2, dihm_feedforward=8)",
        "unexpected keyword argument 'dihm_feedforward'",
        (1, 5),
    ),
    Case(
        "module_forward_too_few",
        "m = torch.nn.MultiheadAttention(4, 2)\nx = torch.ones(2, 1, 4)\ny = m(x, x)",
        "forward() missing 1 required positional argument: 'value'",
        (3, 5),
    ),
    Case(
        "hooked_module_forward_too_many",
        "m = torch.nn.Linear(2, 1)\nm.register_forward_hook(lambda *a: None)\n"
        "y = m(torch.ones(2), 3)",
        "forward() takes 2 positional arguments but 3 were given",
        (3, 5),
    ),
    Case(
        "loss_module_unknown_keyword",
        "f = torch.nn.MSELoss(retain_graph=True)",
        "_Loss.__init__() got an unexpected keyword argument 'retain_graph'",
        (1, 5),
    ),
    Case(
        "loss_module_with_options_one_input",
        "x = torch.ones(2)\ny = torch.nn.MSELoss(reduction='sum')(x)",
        "MSELoss.forward() missing 1 required positional argument: 'target'",
        (2, 5),
    ),
    Case(
        "rnn_unknown_keyword",
        "m = torch.nn.RNN(2, 3, nonlinearity='relu', inputs=1)",
        "got an unexpected keyword argument 'inputs'",
        (1, 5),
    ),
    Case(
        "module_apply_not_callable",
        "m = torch.nn.Linear(2, 2)\nm.apply(3)",
        "'int' object is not callable",
        (2, 1),
    ),
    Case("inplace_method_too_few", "x = torch.ones(2)\nx.add_()", "add_(): missing", (2, 1)),
    Case("view_inplace_too_few", "x = torch.ones(2)\nx.unsqueeze_()", "missing", (2, 1)),
    Case(
        "module_class_dunder_add",
        "class M(torch.nn.Module):\n    def __add__(self, o):\n        return 1\nm = M()",
        "method `__add__` is not supported in a subclass of nn.Module",
        (2, 5),
    ),
    # --- forward-mode AD (torch.autograd.forward_ad): PyTorch's refusals, sizes first --------
    Case(
        "dual_level_nested_deep",
        FWD
        + "".join("    " * i + "with fwAD.dual_level():\n" for i in range(60))
        + "    " * 60
        + "pass\n",
        "Nested forward mode AD is not supported at the moment",
        (5, 5),
    ),
    Case(
        "dual_level_in_a_deep_recursion",
        FWD + "def f(n):\n    with fwAD.dual_level():\n        return f(n + 1)\nf(0)\n",
        "Nested forward mode AD is not supported at the moment",
        (5, 5),
    ),
    Case(
        "make_dual_huge_tangent",
        FWD + "with fwAD.dual_level():\n    d = fwAD.make_dual(x, torch.ones(10**9))\n",
        "over the limit of",
        (5, 27),
    ),
    Case(
        "make_dual_huge_expand",
        FWD + "with fwAD.dual_level():\n    d = fwAD.make_dual(x, torch.ones(3))\n"
        "    y = d.expand(10**6, 10**6)\n",
        "over the limit of",
        (6, 9),
    ),
    Case(
        "make_dual_tangent_int",
        FWD + "with fwAD.dual_level():\n    fwAD.make_dual(x, torch.ones(3, dtype=torch.int64))\n",
        "Expected tangent to be floating point or complex, but got: torch.int64",
        (5, 5),
    ),
    Case(
        "make_dual_tangent_shape",
        FWD + "with fwAD.dual_level():\n    fwAD.make_dual(x, torch.ones(3, 1))\n",
        "Tensor is of size [3] while the given forward gradient is of size [3, 1]",
        (5, 5),
    ),
    Case(
        "make_dual_empty_tangent",
        FWD + "with fwAD.dual_level():\n    fwAD.make_dual(x, torch.ones(0))\n",
        "Tensor is of size [3] while the given forward gradient is of size [0]",
        (5, 5),
    ),
    Case(
        "make_dual_outside_level",
        FWD + "fwAD.make_dual(x, torch.ones(3))\n",
        "make sure to enter_dual_level() first",
        (4, 1),
    ),
    Case(
        "make_dual_list_tangent",
        FWD + "with fwAD.dual_level():\n    fwAD.make_dual(x, [1.0, 2.0, 3.0])\n",
        "'list' object has no attribute 'is_floating_point'",
        (5, 5),
    ),
    Case(
        "unpack_dual_list",
        FWD + "with fwAD.dual_level():\n    fwAD.unpack_dual([x])\n",
        "must be Tensor, not list",
        (5, 5),
    ),
    Case(
        "unpack_dual_none",
        FWD + "with fwAD.dual_level():\n    fwAD.unpack_dual(None)\n",
        "must be Tensor, not NoneType",
        (5, 5),
    ),
    Case(
        "unpack_dual_dunder",
        FWD + "with fwAD.dual_level():\n    u = fwAD.unpack_dual(x)\n    u.__class__.__base__\n",
        "`.__base__` is not accessible",
        (6, 16),
    ),
    Case(
        "dual_level_without_call",
        FWD + "with fwAD.dual_level:\n    pass\n",
        "`with` is only supported for",
        (4, 6),
    ),
    Case(
        "exit_dual_level_twice",
        FWD + "fwAD.exit_dual_level()\n",
        "Dual level must be a positive number.",
        (4, 1),
    ),
    # --- grad_fn._saved_<name>: what a record does not expose is refused, never guessed --------
    Case(
        "saved_dunder_name",
        "import torch\nx = torch.ones(3, requires_grad=True)\ny = (x * 2).grad_fn._saved___dict__",
        "'MulBackward0' object has no attribute '_saved___dict__'",
        (3, 5),
    ),
    Case(
        "saved_raw_of_a_number",
        "import torch\nx = torch.ones(3, requires_grad=True)\n"
        "y = x.pow(2).grad_fn._raw_saved_exponent",
        "'PowBackward0' object has no attribute '_raw_saved_exponent'",
        (3, 5),
    ),
    Case(
        "saved_of_an_op_without_a_table",
        "import torch\nx = torch.ones(3, requires_grad=True)\ny = x.tan().grad_fn._saved_self",
        "gradcli does not expose _saved_self for TanBackward0 yet",
        (3, 5),
    ),
    Case(
        "saved_dim_refused",
        "import torch\nx = torch.ones(2, 3, requires_grad=True)\ny = x.sum(-1).grad_fn._saved_dim",
        "gradcli does not expose _saved_dim for SumBackward1 yet",
        (3, 5),
    ),
    Case(
        "saved_after_backward_freed",
        "import torch\nx = torch.ones(3, requires_grad=True)\ny = x.sin()\n"
        "y.sum().backward()\nz = y.grad_fn._saved_self",
        "Trying to backward through the graph a second time",
        (5, 5),
    ),
    Case(
        "saved_tensor_dunder",
        "import torch\nx = torch.ones(3, requires_grad=True)\n"
        "y = x.exp().grad_fn._raw_saved_result.__class__.__init__",
        "`.__init__` of a value of class 'type' is not supported",
        (3, 48),
    ),
    # --- saved_tensors_hooks, SavedTensor.register_hooks, scatter_reduce / index_reduce,
    # scatter(reduce=), vmap over autograd.grad
    Case(
        "sth_not_callables",
        "import torch\nwith torch.autograd.graph.saved_tensors_hooks(3, 4):\n    pass",
        "_push_saved_tensors_default_hooks(): incompatible function arguments",
        (2, 1),
    ),
    Case(
        "sth_pack_raises",
        "import torch\nx = torch.ones(3, requires_grad=True)\ndef p(t):\n"
        "    raise ValueError('boom')\n"
        "with torch.autograd.graph.saved_tensors_hooks(p, lambda t: t):\n    y = x * x",
        "ValueError: boom",
        (4, 5),
    ),
    Case(
        "sth_unpack_number",
        "import torch\nx = torch.ones(3, requires_grad=True)\n"
        "with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: 5):\n"
        "    y = x.sin()\ny.sum().backward()",
        "Output of saved tensor unpack_hook expected to be a Tensor but got result of type int",
        (5, 1),
    ),
    Case(
        "sth_unpack_shape",
        "import torch\nx = torch.ones(3, requires_grad=True)\n"
        "with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: torch.ones(2)):\n"
        "    y = x.sin()\ny.sum().backward()",
        "unpack_hook gave SinBackward0 a tensor of shape [2]",
        (5, 1),
    ),
    Case(
        "sth_unknown_op",
        "import torch\nx = torch.ones(3, requires_grad=True)\n"
        "with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):\n    y = x.tan()",
        "gradcli does not know which tensors TanBackward0 saves",
        (4, 5),
    ),
    Case(
        "sth_loop_huge",
        "import torch\nx = torch.ones(3, requires_grad=True)\n"
        "with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):\n"
        "    for i in range(10**9):\n        y = x * x",
        "over the limit",
        (4, 14),
    ),
    Case(
        "sth_pack_huge",
        "import torch\nx = torch.ones(3, requires_grad=True)\n"
        "with torch.autograd.graph.saved_tensors_hooks(lambda t: [t] * 10**10, lambda p: p[0]):\n"
        "    y = x * x",
        "over the limit",
        (3, 57),
    ),
    Case(
        "sth_pack_recurses",
        "import torch\nx = torch.ones(3, requires_grad=True)\ndef p(t):\n    return p(t)\n"
        "with torch.autograd.graph.saved_tensors_hooks(p, lambda t: t):\n    y = x.sin()",
        "over the limit of 50",
        (4, 12),
    ),
    Case(
        "sth_dunder",
        "import torch\nh = torch.autograd.graph.saved_tensors_hooks(id, id)\nk = h.__enter__",
        "`.__enter__` is not accessible",
        (3, 6),
    ),
    Case(
        "sth_disabled",
        "import torch\nwith torch.autograd.graph.disable_saved_tensors_hooks('not here'):\n"
        "    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):\n"
        "        pass",
        "not here",
        (3, 5),
    ),
    Case(
        "sth_register_twice",
        "import torch\nx = torch.ones(3, requires_grad=True)\ny = x.exp()\n"
        "y.grad_fn._raw_saved_result.register_hooks(lambda t: t, lambda t: t)\n"
        "y.grad_fn._raw_saved_result.register_hooks(lambda t: t, lambda t: t)",
        "only one pair of hooks is allowed at a time",
        (5, 1),
    ),
    Case(
        "sth_register_not_callable",
        "import torch\nx = torch.ones(3, requires_grad=True)\ny = x.exp()\n"
        "y.grad_fn._raw_saved_result.register_hooks(lambda t: t, 3)",
        "register_hooks(): incompatible function arguments",
        (4, 1),
    ),
    Case(
        "sth_register_after_free",
        "import torch\nx = torch.ones(3, requires_grad=True)\ny = x.exp()\ny.sum().backward()\n"
        "y.grad_fn._raw_saved_result.register_hooks(lambda t: t, lambda t: t)",
        "Trying to backward through the graph a second time",
        (5, 1),
    ),
    Case(
        "sth_decorator",
        "import torch\n@torch.autograd.graph.saved_tensors_hooks(id, id)\ndef f(x):\n    return x",
        "gradcli does not support saved_tensors_hooks() as a decorator",
        (2, 2),
    ),
    Case(
        "sr_reduce_type",
        "import torch\nx = torch.zeros(3)\n"
        "y = x.scatter_reduce(0, torch.tensor([0, 1]), torch.ones(2), 3)",
        "argument 'reduce' (position 4) must be str, not int",
        (3, 5),
    ),
    Case(
        "sr_reduce_name",
        "import torch\nx = torch.zeros(3)\n"
        "y = x.scatter_reduce(0, torch.tensor([0, 1]), torch.ones(2), 'median')",
        "reduce argument must be either sum, prod, mean, amax or amin, got median",
        (3, 5),
    ),
    Case(
        "sr_include_self_type",
        "import torch\nx = torch.zeros(3)\n"
        "y = x.scatter_reduce(0, torch.tensor([0, 1]), torch.ones(2), 'sum', include_self=1)",
        "argument 'include_self' must be bool, not int",
        (3, 5),
    ),
    Case(
        "sr_index_out_of_range",
        "import torch\nx = torch.zeros(3)\n"
        "y = x.scatter_reduce(0, torch.tensor([0, 7]), torch.ones(2), 'amax')",
        "index 7 is out of bounds for dimension 0 with size 3",
        (3, 5),
    ),
    Case(
        "sr_float_index",
        "import torch\nx = torch.zeros(3)\n"
        "y = x.scatter_reduce(0, torch.tensor([0., 1.]), torch.ones(2), 'amax')",
        "Expected dtype int32/int64 for index",
        (3, 5),
    ),
    Case(
        "sr_src_number",
        "import torch\nx = torch.zeros(3)\n"
        "y = x.scatter_reduce(0, torch.tensor([0, 1]), 2.0, 'sum')",
        "argument 'src' (position 3) must be Tensor, not float",
        (3, 5),
    ),
    Case(
        "sr_huge_index",
        "import torch\nx = torch.zeros(3)\n"
        "y = x.scatter_reduce(0, torch.zeros(10**10, dtype=torch.int64), "
        "torch.ones(10**10), 'sum')",
        "over the limit",
        (3, 25),
    ),
    Case(
        "sr_index_larger_than_src_grad",
        "import torch\nx = torch.zeros(3)\ns = torch.ones(4, requires_grad=True)\n"
        "y = x.scatter_reduce(0, torch.tensor([0, 1]), s, 'prod')\ny.sum().backward()",
        "ScatterReduceBackward0 returned an invalid gradient at index 1",
        (5, 1),
    ),
    Case(
        "sr_legacy_grad",
        "import torch\nx = torch.zeros(3, requires_grad=True)\n"
        "y = x.scatter(0, torch.tensor([0, 1]), torch.ones(2), reduce='add')\ny.sum().backward()",
        "derivative for aten::scatter is not implemented",
        (4, 1),
    ),
    Case(
        "sr_legacy_bad_reduce",
        "import torch\nx = torch.zeros(3)\n"
        "y = x.scatter(0, torch.tensor([0, 1]), torch.ones(2), reduce='mean')",
        "reduce argument must be either add or multiply.",
        (3, 5),
    ),
    Case(
        "ir_sum",
        "import torch\nx = torch.zeros(3)\n"
        "y = x.index_reduce(0, torch.tensor([0, 1]), torch.ones(2), 'sum')",
        "Expected reduce to be one of prod, mean, amax or amin but got sum.",
        (3, 5),
    ),
    Case(
        "ir_leaf_inplace",
        "import torch\nx = torch.zeros(3, requires_grad=True)\n"
        "x.index_reduce_(0, torch.tensor([0, 1]), torch.ones(2), 'amax')",
        "a leaf Variable that requires grad is being used in an in-place operation",
        (3, 1),
    ),
    Case(
        "sr_dunder",
        "import torch\nx = torch.zeros(3)\nk = x.scatter_reduce.__self__",
        "`.__self__` is not accessible",
        (3, 21),
    ),
    Case(
        "vmap_grad_huge",
        "import torch\nx = torch.ones(3, requires_grad=True)\ny = x * 2\ndef f(v):\n"
        "    return torch.autograd.grad(y, x, v)\nj = torch.vmap(f)(torch.ones(10**9, 3))",
        "over the limit",
        (6, 19),
    ),
    # --- a .grad made by backward(create_graph=True): a recorded copy, summed in place later
    Case(
        "create_graph_grad_summed_in_place_then_saved_backward",
        "import torch\nx = torch.ones(3, requires_grad=True)\n"
        "(x ** 2).sum().backward(create_graph=True)\nz = (x.grad ** 3).sum()\n"
        "(x * 2).sum().backward()\nz.backward()",
        "which is output 0 of torch::autograd::CopyBackwards, is at version 2; expected "
        "version 1 instead",
        (6, 1),
    ),
    Case(
        "create_graph_grad_fn_dunder",
        "import torch\nx = torch.ones(3, requires_grad=True)\n"
        "(x ** 2).sum().backward(create_graph=True)\nk = x.grad.grad_fn.__class__.__dict__",
        "`.__dict__` is not accessible",
        (4, 29),
    ),
    Case(
        "create_graph_grad_of_empty_then_wrong_shape",
        "import torch\nx = torch.ones(0, requires_grad=True)\n"
        "(x * x).sum().backward(create_graph=True)\nx.grad = torch.ones(2)",
        "attempting to assign a gradient of size '[2]' to a tensor of size '[0]'",
        (4, 1),
    ),
    Case(
        "grad_assigned_other_dtype",
        "import torch\nx = torch.ones(3, requires_grad=True)\n"
        "x.grad = torch.ones(3, dtype=torch.int64)",
        "attempting to assign a gradient with dtype 'long int' to a tensor with grad_dtype 'Float'",
        (3, 1),
    ),
    Case(
        "module_parameter_assigned_plain_tensor",
        "import torch\nm = torch.nn.Linear(2, 2)\nm.weight = torch.ones(2, 2, dtype=torch.int64)",
        "cannot assign 'torch.LongTensor' as parameter 'weight'",
        (3, 1),
    ),
    Case(
        "create_graph_backward_loop_huge",
        "import torch\nx = torch.ones(1000, requires_grad=True)\n"
        "for i in range(10**9):\n    (x ** 2).sum().backward(create_graph=True)",
        "over the limit",
    ),
    Case(
        "return_tuple_dunder",
        "import torch\nr = torch.linalg.qr(torch.eye(2))\ny = r.__class__.__bases__",
        "`.__bases__` is not accessible",
        (3, 16),
    ),
    # --- Sequential edits, Embedding.from_pretrained, Softmax2d ---------------------------
    Case(
        "sequential_insert_huge_index",
        NN + "s = nn.Sequential(nn.ReLU())\ns.insert(10**30, nn.Tanh())",
        "Index out of range: 1000000000000000000000000000000",
        (4, 1),
    ),
    Case(
        "sequential_insert_not_module",
        NN + "s = nn.Sequential(nn.ReLU())\ns.insert(0, 3)",
        "module should be of type",
        (4, 1),
    ),
    Case(
        "sequential_pop_empty", NN + "m = nn.Sequential().pop(0)", "index 0 is out of range", (3, 5)
    ),
    Case(
        "from_pretrained_1d",
        NN + "e = nn.Embedding.from_pretrained(torch.ones(3))",
        "Embeddings parameter is expected to be 2-dimensional",
        (3, 5),
    ),
    Case(
        "from_pretrained_list",
        NN + "e = nn.Embedding.from_pretrained([[1.0]])",
        "embeddings must be a Tensor",
        (3, 5),
    ),
    Case(
        "from_pretrained_dunder",
        NN + "e = nn.Embedding.from_pretrained.__globals__",
        "`.__globals__` is not accessible",
        (3, 33),
    ),
    Case(
        "nll_spatial_target_rank",
        NNF + "y = F.nll_loss(torch.randn(2, 3, 4, 5), torch.zeros(2, 4, dtype=torch.long))",
        "only batches of spatial targets supported (3D tensors)",
        (3, 5),
    ),
    Case(
        "nll_spatial_target_shape",
        NNF + "y = F.cross_entropy(torch.randn(2, 3, 4), torch.zeros(2, 5, dtype=torch.long))",
        "Expected target size [2, 4], got [2, 5]",
        (3, 5),
    ),
    Case(
        "nll_spatial_target_out_of_bounds",
        NNF + "y = F.nll_loss(torch.randn(2, 3, 4), torch.full((2, 4), 7))",
        "Target 7 is out of bounds",
        (3, 5),
    ),
    Case("prelu_huge", NN + "m = nn.PReLU(10**12)", "over the limit of 10,000,000", (3, 5)),
    Case(
        "prelu_negative",
        NN + "m = nn.PReLU(-1)",
        "Trying to create tensor with negative dimension -1",  # (PyTorch's words)
        (3, 5),
    ),
    Case(
        "prelu_channel_mismatch",
        NNF + "y = F.prelu(torch.ones(2, 4), torch.ones(3))",
        "Found parameter numbers = 3 and channel size = 4",
        (3, 5),
    ),
    Case(
        "adaptive_pool_huge_output",
        NNF + "y = F.adaptive_avg_pool2d(torch.ones(1, 1, 4, 4), 10**9)",
        "over the limit of 10,000,000",
        (3, 5),
    ),
    Case(
        "adaptive_pool_many_windows",
        NNF + "y = F.adaptive_avg_pool2d(torch.ones(1, 1, 100, 100), 100)",
        "composes at most 4096 output positions",
        (3, 5),
    ),
    Case(
        "adaptive_pool_2d_input",
        NNF + "y = F.adaptive_avg_pool2d(torch.ones(4, 4), 2)",
        "Expected 3D or 4D tensor, but got [4, 4]",
        (3, 5),
    ),
    Case(
        "adaptive_pool_negative",
        NNF + "y = F.adaptive_avg_pool2d(torch.ones(1, 4, 4), -1)",
        "greater than or equal to 0 but received {-1, -1}",
        (3, 5),
    ),
    Case(
        "adaptive_pool_str",
        NN + "y = nn.AdaptiveAvgPool2d('a')(torch.ones(1, 4, 4))",
        "must be tuple of ints, but found element of type str at pos 0",
        (3, 5),
    ),
    Case(
        "index_copy_out_of_bounds",
        "import torch\ny = torch.zeros(5, 3).index_copy(0, torch.tensor([0, 9]), torch.ones(2, 3))",
        "index 9 is out of bounds for dimension 0 with size 5",
        (2, 5),
    ),
    Case(
        "index_copy_float_index",
        "import torch\ny = torch.zeros(5, 3).index_copy_(0, torch.tensor([0.5]), torch.ones(1, 3))",
        "Expected a long tensor for index, but got Float",
        (2, 5),
    ),
    Case(
        "index_copy_slice_shape",
        "import torch\ny = torch.zeros(5, 3).index_copy(0, torch.tensor([0, 1]), torch.ones(2, 4))",
        "Destination slice shape: 3 at dimension 0 and source slice shape: 4",
        (2, 5),
    ),
    Case(
        "take_along_dim_rank",
        "import torch\ny = torch.take_along_dim(torch.ones(2, 3), torch.tensor([0]), dim=0)",
        "input and indices should have the same number of dimensions",
        (2, 5),
    ),
    Case(
        "take_along_dim_huge_broadcast",
        "import torch\ni = torch.zeros(1, 10**4, dtype=torch.long)\n"
        "y = torch.take_along_dim(torch.ones(10**4, 1), i, dim=1)",
        "over the limit of 10,000,000",
        (3, 5),
    ),
    Case(
        "lstm_huge_hidden",
        NN + "m = nn.LSTM(3, 10**6)",
        "over the limit of 10,000,000",
        (3, 5),
    ),
    Case(
        "gru_huge_num_layers",
        NN + "m = nn.GRU(3, 4, num_layers=10**15)",
        "over the limit",
        (3, 5),
    ),
    Case(
        "rnn_cell_huge_input",
        NN + "m = nn.RNNCell(10**9, 4)",
        "over the limit of 10,000,000",
        (3, 5),
    ),
    Case(
        "lstm_float_hidden",
        NN + "m = nn.LSTM(3, 4.5)",
        "hidden_size should be of type int, got: float",
        (3, 5),
    ),
    Case(
        "lstm_input_1d",
        NN + "m = nn.LSTM(3, 4)\ny = m(torch.ones(3))",
        "LSTM: Expected input to be 2D or 3D, got 1D instead",
        (4, 5),
    ),
    Case(
        "gru_wrong_h0",
        NN + "m = nn.GRU(3, 4)\ny = m(torch.ones(5, 2, 3), torch.zeros(1, 3, 4))",
        "Expected hidden size (1, 2, 4), got [1, 3, 4]",
        (4, 5),
    ),
    Case(
        "lstm_h0_not_tuple",
        NN + "m = nn.LSTMCell(3, 4)\ny = m(torch.ones(2, 3), torch.zeros(2, 4))",
        "must be tuple of Tensors, not Tensor",
        (4, 5),
    ),
    Case(
        "rnn_dunder_attribute",
        NN + "m = nn.RNN(3, 4)\ny = m.__dict__",
        "__dict__",
        (4, 6),
    ),
    Case(
        "mha_huge_embed_dim",
        NN + "m = nn.MultiheadAttention(10**5, 2)",
        "over the limit of 10,000,000",
        (3, 5),
    ),
    Case(
        "mha_huge_num_heads",
        NN + "m = nn.MultiheadAttention(8, 10**12)",
        "embed_dim must be divisible by num_heads",
        (3, 5),
    ),
    Case(
        "mha_zero_heads",
        NN + "m = nn.MultiheadAttention(8, 0)",
        "embed_dim and num_heads must be greater than 0",
        (3, 5),
    ),
    Case(
        "mha_float_heads",
        NN + "m = nn.MultiheadAttention(8, 2.0)",
        "num_heads must be an int, not float",
        (3, 5),
    ),
    Case(
        "mha_huge_sequence",
        NN + "m = nn.MultiheadAttention(2, 1)\nx = torch.zeros(1, 1, 2).expand(10**5, 1, 2)\n"
        "y = m(x, x, x)",
        "over the limit of 10,000,000",
        (5, 5),
    ),
    Case(
        "sdpa_huge_sequence",
        NNF + "q = torch.zeros(1, 1, 1, 4).expand(1, 1, 10**5, 4)\n"
        "y = F.scaled_dot_product_attention(q, q, q)",
        "over the limit of 10,000,000",
        (4, 5),
    ),
    Case(
        "sdpa_empty_and_1d",
        NNF + "y = F.scaled_dot_product_attention(torch.ones(3), torch.ones(3), torch.ones(3))",
        "at least 2 dimensional",
        (3, 5),
    ),
    Case(
        "sdpa_mask_not_tensor",
        NNF + "q = torch.ones(2, 3)\ny = F.scaled_dot_product_attention(q, q, q, attn_mask=[1])",
        "argument 'attn_mask' must be Tensor, not list",
        (4, 5),
    ),
    Case(
        "square_mask_huge",
        NN + "m = nn.Transformer.generate_square_subsequent_mask(10**6)",
        "over the limit of 10,000,000",
        (3, 5),
    ),
    Case(
        "encoder_huge_num_layers",
        NN + "layer = nn.TransformerEncoderLayer(4, 2, 8)\nm = nn.TransformerEncoder(layer, 10**9)",
        "over the limit",
        (4, 5),
    ),
    Case(
        "encoder_huge_feedforward",
        NN + "layer = nn.TransformerEncoderLayer(4, 2, 10**8)",
        "over the limit",
        (3, 9),
    ),
    Case(
        "transformer_wide",
        NN + "m = nn.Transformer(d_model=1024, dim_feedforward=8192)",
        "the memory the parameters of Transformer take, in MB, is 2,112, over the limit of 700",
        (3, 5),
    ),
    Case(
        "mha_dunder_attribute",
        NN + "m = nn.MultiheadAttention(4, 2)\ny = m.__class__.__call__",
        "`.__call__` of a value of class 'type' is not supported",
        (4, 16),
    ),
    Case(
        "softmax2d_1d",
        NN + "y = nn.Softmax2d()(torch.ones(2))",
        "Softmax2d: expected input to be 3D or 4D, got 1D instead",
        (3, 5),
    ),
    Case(
        "numpy_inplace_int_cast",
        "import numpy as np\na = np.arange(3)\na += 1.5",
        "Cannot cast ufunc 'add' output from dtype('float64') to dtype('int64')",
        (3, 1),
    ),
    Case(
        "numpy_inplace_broadcast_grows",
        "import numpy as np\na = np.ones(3)\na *= np.ones((10**3, 3))",
        "non-broadcastable output operand with shape (3,)",
        (3, 1),
    ),
    Case(
        "numpy_float_array_index",
        "import numpy as np\na = np.ones(3)\nb = a[np.array([0.5])]",
        "arrays used as indices must be of integer (or boolean) type",
        (3, 5),
    ),
    Case(
        "numpy_mask_of_other_length",
        "import numpy as np\na = np.ones(3)\na[np.array([True, False])] = 0",
        "boolean index did not match indexed array along axis 0; size of axis is 3 but size",
        (3, 1),
    ),
    Case(
        "numpy_float32_scalar_shift",
        "import numpy as np\na = np.ones(2, dtype=np.float32)[0] << 2",
        "unsupported operand type(s) for <<: 'numpy.float32' and 'int'",
        (2, 5),
    ),
    Case(
        "numpy_float32_scalar_matmul",
        "import numpy as np\na = np.ones(2, dtype=np.float32).sum() @ 2",
        "unsupported operand type(s) for @: 'numpy.float32' and 'int'",
        (2, 5),
    ),
    Case(
        "numpy_float32_scalar_repeats_a_string",
        "import numpy as np\nu = np.ones(2, dtype=np.float32)\na = 'ab' * np.dot(u, u)",
        "can't multiply sequence by non-int of type 'numpy.float32'",
        (3, 5),
    ),
    Case(
        "numpy_float32_scalar_huge_reshape",
        "import numpy as np\na = np.ones(2, dtype=np.float32).sum().reshape(10**9)",
        "over the limit of 10,000,000",
        (2, 5),
    ),
    Case(
        "numpy_float32_scalar_dunder",
        "import numpy as np\na = np.ones(2, dtype=np.float32)[0].__class__.__mro__",
        "`.__mro__` is not accessible",
        (2, 46),
    ),
    Case(
        "poisson_nll_bad_reduction",
        NNF + "y = F.poisson_nll_loss(torch.ones(2), torch.ones(2), reduction='avg')",
        "avg is not a valid value for reduction",
        (3, 5),
    ),
    Case(
        "poisson_nll_str_target",
        NNF + "y = F.poisson_nll_loss(torch.ones(2), 'a')",
        "argument 'target' (position 2) must be Tensor, not str",
        (3, 5),
    ),
    Case(
        "poisson_nll_huge_broadcast",
        NN + "y = nn.PoissonNLLLoss(full=True)(torch.ones(10**4, 1), torch.ones(1, 10**4))",
        "over the limit of 10,000,000",
        (3, 5),
    ),
    Case(
        "legacy_reduce_huge",
        NNF + "y = F.mse_loss(torch.ones(10**4, 1), torch.ones(1, 10**4), reduce=False)",
        "over the limit of 10,000,000",
        (3, 5),
    ),
    # --- the special functions: work bounded before it starts, misuse in PyTorch's words -----
    Case(
        "zeta_q_far_below_zero",
        "import torch\nq = torch.full((100,), -1e6 - 0.5)\n"
        "y = torch.special.zeta(torch.full((100,), 2.0), q)",
        "the terms of zeta's direct sums (q far below 0)",
        (3, 5),
    ),
    Case(
        "polygamma_q_far_below_zero",
        "import torch\ny = torch.polygamma(3, torch.rand(10**5, dtype=torch.float64) - 1e5)",
        "over the limit of 10,000,000",
        (2, 5),
    ),
    Case(
        "mvlgamma_huge_p",
        "import torch\ny = torch.mvlgamma(torch.ones(1000), 10**6)",
        "the terms of mvlgamma (the input's elements times p) is 1,000,000,000",
        (2, 5),
    ),
    Case(
        "mvlgamma_p_zero",
        "import torch\ny = torch.special.multigammaln(torch.ones(2), 0)",
        "p has to be greater than or equal to 1",
        (2, 5),
    ),
    Case(
        "polygamma_negative_n",
        "import torch\ny = torch.polygamma(-2, torch.ones(3))",
        "polygamma(n, x) does not support negative n.",
        (2, 5),
    ),
    Case(
        "polygamma_float_n",
        "import torch\ny = torch.ones(3).polygamma(1.5)",
        "argument 'n' (position 1) must be int, not float",
        (2, 5),
    ),
    Case(
        "lgamma_of_many_is_timed",
        "import torch\ny = torch.lgamma(torch.ones(10**7))",
        "the time limit",
        (2, 5),
        env={"GRADCLI_TIME_SECONDS": "1"},
    ),
    Case(
        "erfinv_of_many_is_timed",
        "import torch\ny = torch.special.erfinv(torch.zeros(10**7))",
        "the time limit",
        (2, 5),
        # (its temporaries pass 700 MB after about a second: on a fast machine the memory
        # limit bound first)
        env={"GRADCLI_TIME_SECONDS": "1", "GRADCLI_MEMORY_MB": "3000"},
    ),
    Case(
        "logaddexp_of_ints",
        "import torch\ni = torch.ones(2, dtype=torch.long)\ny = torch.logaddexp(i, i)",
        "\"logaddexp_cpu\" not implemented for 'Long'",
        (3, 5),
    ),
    Case(
        "xlogy_of_two_numbers",
        "import torch\ny = torch.xlogy(2.0, 3.0)",
        "xlogy() received an invalid combination of arguments - got (float, float)",
        (2, 5),
    ),
    Case(
        "logit_eps_string",
        "import torch\ny = torch.logit(torch.ones(2), eps='0.1')",
        "logit(): argument 'eps' must be float, not str",
        (2, 5),
    ),
    Case(
        "special_dunder",
        "import torch\ny = torch.special.xlogy.__globals__",
        "`.__globals__` is not accessible",
        (2, 24),
    ),
    Case(
        "special_namespace_dict",
        "import torch\ny = torch.special.__dict__",
        "`.__dict__` is not accessible",
        (2, 18),
    ),
    Case(
        "view_dtype_indivisible",
        "import torch\ny = torch.ones(3).view(torch.float64)",
        "self.size(-1) must be divisible by 2 to view Float as Double",
        (2, 5),
    ),
    Case(
        "view_dtype_of_a_scalar",
        "import torch\ny = torch.tensor(1.0).view(torch.int16)",
        "self.dim() cannot be 0 to view Float as Short",
        (2, 5),
    ),
    Case(
        "view_dtype_strided",
        "import torch\ny = torch.ones(2, 4)[:, ::2].view(torch.int16)",
        "self.stride(-1) must be 1 to view Float as Short",
        (2, 5),
    ),
    Case(
        "gaussian_nll_huge_broadcast",
        NNF + "v = torch.ones(10**4, 1)\ny = F.gaussian_nll_loss(v, torch.ones(1, 10**4), v)",
        "over the limit of 10,000,000",
        (4, 5),
    ),
    Case(
        "gaussian_nll_negative_var",
        NNF + "y = F.gaussian_nll_loss(torch.ones(2), torch.ones(2), -1.0)",
        "var has negative entry/entries",
        (3, 5),
    ),
    Case(
        "gaussian_nll_wrong_var_size",
        NNF + "y = F.gaussian_nll_loss(torch.ones(2, 3), torch.ones(2, 3), torch.ones(3))",
        "var is of incorrect size",
        (3, 5),
    ),
    Case(
        "builtin_node_has_no_apply",
        "import torch\nx = torch.ones(2, requires_grad=True)\ny = (x * 2).grad_fn.apply(x)",
        "'MulBackward0' object has no attribute 'apply'",
        (3, 5),
    ),
    Case(
        "custom_node_apply_wrong_count",
        "import torch\nclass F(torch.autograd.Function):\n"
        "    @staticmethod\n    def forward(ctx, a):\n        return a * 2\n"
        "    @staticmethod\n    def backward(ctx, g):\n        return g * 2\n"
        "z = F.apply(torch.ones(2, requires_grad=True))\ny = z.grad_fn.apply(1, 2)",
        "backward() takes 2 positional arguments but 3 were given",
        (10, 5),
    ),
    # --- torch.distributions: draws sized before any work, matrices checked, PyTorch's words --
    Case(
        "mvn_sample_huge",
        DS + "y = D.MultivariateNormal(torch.zeros(2), torch.eye(2)).sample((10**9,))",
        "over the limit of 10,000,000",
        (3, 5),
    ),
    Case(
        "mvn_rsample_huge_of_empty_event",
        DS + "y = D.MultivariateNormal(torch.zeros(0), torch.eye(0)).rsample((10**18, 10**18))",
        "over the limit",
        (3, 5),
    ),
    Case(
        "mvn_singular_covariance",
        DS + "y = D.MultivariateNormal(torch.zeros(2), torch.ones(2, 2))",
        "to satisfy the constraint PositiveDefinite()",
        (3, 5),
    ),
    Case(
        "mvn_huge_covariance_work",
        DS + "y = D.MultivariateNormal(torch.zeros(3000), torch.eye(3000))",
        "over the limit",
        (3, 5),
    ),
    Case(
        "mvn_string_covariance",
        DS + "y = D.MultivariateNormal(torch.zeros(2), 'eye')",
        "covariance_matrix must be a Tensor, not str",
        (3, 5),
    ),
    Case(
        "mvn_no_matrix",
        DS + "y = D.MultivariateNormal(torch.zeros(2))",
        "Exactly one of covariance_matrix or precision_matrix or scale_tril",
        (3, 5),
    ),
    Case(
        "exponential_sample_huge",
        DS + "y = D.Exponential(torch.ones(3)).rsample((10**4, 10**4))",
        "over the limit of 10,000,000",
        (3, 5),
    ),
    Case(
        "poisson_sample_huge",
        DS + "y = D.Poisson(torch.ones(10)).sample((10**7,))",
        "over the limit of 10,000,000",
        (3, 5),
    ),
    Case(
        "geometric_sample_negative_shape",
        DS + "y = D.Geometric(0.5).sample((-3,))",
        "sample_shape must be a torch.Size or a tuple of sizes",
        (3, 5),
    ),
    Case(
        "gamma_rsample_concentration_gradient_too_many",
        DS + "y = D.Gamma(torch.ones(2, requires_grad=True), 1.0).rsample((10**6,))",
        "computed one value at a time; gradcli allows 200,000",
        (3, 5),
    ),
    Case(
        "gamma_sample_huge",
        DS + "y = D.Gamma(torch.ones(10**3), 1.0).sample((10**4,))",
        "more than the time limit allows",
        (3, 5),
    ),
    Case(
        "dirichlet_sample_huge",
        DS + "y = D.Dirichlet(torch.ones(3)).sample((10**7,))",
        "over the limit",
        (3, 5),
    ),
    Case(
        "independent_too_many_dims",
        DS + "y = D.Independent(D.Normal(torch.zeros(3), 1.0), 5)",
        "Expected reinterpreted_batch_ndims <= len(base_distribution.batch_shape)",
        (3, 5),
    ),
    Case(
        "independent_of_a_tensor",
        DS + "y = D.Independent(torch.zeros(3), 1)",
        "must be a torch.distributions distribution, not Tensor",
        (3, 5),
    ),
    Case(
        "distribution_dunder",
        DS + "y = D.Exponential(1.0).__class__.__subclasses__()",
        "`.__subclasses__` is not accessible",
        (3, 33),
    ),
    Case(
        "distribution_private_attribute",
        DS + "y = D.MultivariateNormal(torch.zeros(2), torch.eye(2))._unbroadcasted_scale_tril",
        "has no attribute '_unbroadcasted_scale_tril'",
        (3, 5),
    ),
    Case(
        "solve_triangular_huge_work",
        "import torch\ny = torch.linalg.solve_triangular(torch.eye(2000), torch.ones(2000, 2000), "
        "upper=False)",
        "over the limit",
        (2, 5),
    ),
    Case(
        "solve_triangular_no_upper",
        "import torch\ny = torch.linalg.solve_triangular(torch.eye(2), torch.ones(2, 1))",
        'missing 1 required positional arguments: "upper"',
        (2, 5),
    ),
    # --- explore9: pasted snippets' constructs ----------------------------------------------
    Case(
        "unused_module_used",
        "import re\nm = re.compile('a')",
        "`re.compile` is not supported: gradcli programs cannot use the module `re`",
        (2, 5),
    ),
    Case(
        "unused_module_name_called",
        "from functools import lru_cache\nf = lru_cache(max)",
        "`functools.lru_cache` is not supported",
        (2, 5),
    ),
    Case(
        "unused_module_dunder",
        "import json\nd = json.__dict__",
        "`.__dict__` is not accessible",
        (2, 9),
    ),
    Case("unused_module_star", "from itertools import *", "`import *` is not supported", (1, 1)),
    Case(
        "os_path_reaches_no_file",
        "import os.path\nx = os.path.exists('/etc/passwd')",
        "`os.path.exists` is not supported",
        (2, 5),
    ),
    Case(
        "os_as_alias_used",
        "import os as o\nx = o.getenv('HOME')",
        "`os.getenv` is not supported",
        (2, 5),
    ),
    Case(
        "sys_exit_status",
        "import sys\nsys.exit(3)",
        "the program stopped with exit status 3",
        (2, 1),
    ),
    Case(
        "sys_modules_getattr",
        "import sys\nm = getattr(sys, 'modules')",
        "`sys.modules` is not supported",
        (2, 5),
    ),
    Case("os_dunder", "import os\nd = os.__dict__", "`.__dict__` is not accessible", (2, 7)),
    Case(
        "from_sys_modules_unused",
        "from sys import modules\nm = modules['os']",
        "`sys.modules` is not supported",
        (2, 5),
    ),
    Case(
        "argpartition_many_kth",
        "import numpy as np\na = np.zeros(10**6)\ni = np.argpartition(a, list(range(10**5)))",
        "with 100,000 kth values is not supported",
        (3, 5),
    ),
    Case(
        "argsort_kind_not_a_name",
        "import numpy as np\ni = np.argsort(np.zeros(3), kind=np)",
        "sort kind must be one of",
        (2, 5),
    ),
    Case(
        "argpartition_kth_out_of_range",
        "import numpy as np\ni = np.argpartition(np.zeros(3), -4)",
        "kth(=-1) out of bounds (3)",
        (2, 5),
    ),
    Case(
        "sort_axis_huge",
        "import numpy as np\ni = np.sort(np.zeros((2, 2)), axis=10**30)",
        "too large",
        (2, 5),
    ),
    Case(
        "ticker_dunder",
        "import matplotlib.ticker as t\nd = t.__dict__",
        "`.__dict__` is not accessible",
        (2, 6),
    ),
    Case(
        "array_repeat_method_huge",
        "import numpy as np\nr = np.zeros(10).repeat(10**8)",
        "over the limit",
        (2, 5),
    ),
    Case(
        "np_tile_huge",
        "import numpy as np\nr = np.tile(np.zeros(10), (10**5, 10**3))",
        "over the limit",
        (2, 5),
    ),
    Case(
        "np_unique_of_a_module",
        "import numpy as np\nr = np.unique(np)",
        "takes arrays, numbers or lists",
        (2, 5),
    ),
    Case(
        "np_full_like_fill_object",
        "import numpy as np\nr = np.full_like(np.zeros(2), np)",
        "expected a number",
        (2, 5),
    ),
    Case(
        "np_percentile_text",
        "import numpy as np\nr = np.percentile(np.zeros(3), 'x')",
        "numpy.percentile",
        (2, 5),
    ),
    Case(
        "np_zeros_like_tensor",
        "import numpy as np\nimport torch\nr = np.zeros_like(torch.ones(2))",
        "numpy.zeros_like() of a tensor is not supported",
        (3, 5),
    ),
    # numpy.linalg: norm is NumPy's own; its arguments are checked like the rest of numpy (a
    # tensor is read as NumPy reads it: refused when it requires grad, as PyTorch's numpy())
    Case(
        "np_linalg_norm_tensor",
        "import numpy as np\nimport torch\nr = np.linalg.norm(torch.ones(2, requires_grad=True))",
        "Can't call numpy() on Tensor that requires grad",
        (3, 5),
    ),
    Case(
        "np_linalg_norm_of_a_module",
        "import numpy as np\nr = np.linalg.norm(np)",
        "takes arrays, numbers or lists",
        (2, 5),
    ),
    Case(
        "np_linalg_norm_ord_object",
        "import numpy as np\nr = np.linalg.norm(np.zeros(2), ord=np)",
        "expected a number",
        (2, 5),
    ),
    Case(
        "np_linalg_norm_axis_overflow",
        "import numpy as np\nr = np.linalg.norm(np.zeros((2, 2)), axis=10**30)",
        "too large to convert",
        (2, 5),
    ),
    Case(
        "np_flip_axis_overflow",
        "import numpy as np\nr = np.flip(np.zeros(2), axis=-(10**30))",
        "too large to convert",
        (2, 5),
    ),
    Case(
        "np_linalg_norm_ord_text_huge",
        "import numpy as np\nr = np.linalg.norm(np.zeros(2), ord='x' * 10**6)",
        "Invalid norm order",
        (2, 5),
    ),
    Case(
        "np_linalg_others_refused",
        "import numpy as np\nr = np.linalg.tensorinv(np.eye(4).reshape(4, 2, 2), 1)",
        "`numpy.linalg.tensorinv` is not supported",
        (2, 5),
    ),
    Case(
        "np_linalg_dunder",
        "import numpy as np\nr = np.linalg.__dict__",
        "`.__dict__` is not accessible",
        (2, 14),
    ),
    Case(
        "np_linalg_internals",
        "import numpy.linalg as la\nr = la._umath_linalg",
        "`numpy.linalg._umath_linalg` is not supported",
        (2, 5),
    ),
    # x.untyped_storage(): bytes only, sized before they are listed or printed
    Case(
        "storage_tolist_huge",
        "import torch\ns = torch.zeros(10**7).untyped_storage()\nr = s.tolist()",
        "over the limit",
        (3, 5),
    ),
    Case(
        "storage_print_huge",
        "import torch\nprint(torch.zeros(10**7).untyped_storage())",
        "over the limit",
        (2, 1),
    ),
    Case(
        "storage_internals",
        "import torch\nr = torch.ones(2).untyped_storage().root",
        "object has no attribute 'root'",
        (2, 5),
    ),
    Case(
        "storage_private_method",
        "import torch\nr = torch.ones(2).untyped_storage()._bytes()",
        "object has no attribute '_bytes'",
        (2, 5),
    ),
    Case(
        "storage_set_attribute",
        "import torch\ns = torch.ones(2).untyped_storage()\ns.root = torch.ones(9)",
        "cannot set attribute `root`",
        (3, 1),
    ),
    Case(
        "storage_under_vmap",
        "import torch\nr = torch.func.vmap(lambda v: v.untyped_storage())(torch.ones(2, 3))",
        "doesn't have storage",
        (2, 31),
    ),
    # `from M import *`: only M's __all__, only at module level, only importable modules
    Case(
        "star_import_in_function",
        "def f():\n    from torch import *\n",
        "import * only allowed at module level",
        (2, 5),
    ),
    Case(
        "star_import_without_all",
        "from torch.nn.functional import *",
        "`import *` is not supported for `torch.nn.functional`",
        (1, 1),
    ),
    Case("star_import_os", "from os import *", "`import *` is not supported", (1, 1)),
    Case("star_import_builtins", "from builtins import *", "cannot import from `builtins`", (1, 1)),
    Case(
        "star_import_exported_but_lacking",
        "from torch.autograd import *\nr = grad_mode.no_grad",
        "`torch.autograd.grad_mode` is not supported",
        (2, 5),
    ),
    Case(
        "star_import_then_dunder",
        "from torch import *\nr = tensor([1.0]).__class__.__subclasses__",
        "`.__subclasses__` is not accessible",
        (2, 28),
    ),
    # torch.range: sized before it is made, PyTorch's argument words
    Case(
        "range_huge_float",
        "import torch\nx = torch.range(0, 1e30)",
        "over the limit",
        (2, 5),
    ),
    Case(
        "range_huge_int64",
        "import torch\nx = torch.range(0, 2**62, 1, dtype=torch.int64)",
        "over the limit",
        (2, 5),
    ),
    Case(
        "range_object_argument",
        "import torch\nx = torch.range(torch, 3)",
        "range(): argument 'start' (position 1) must be Number, not module",
        (2, 5),
    ),
    Case(
        "range_bool_dtype",
        "import torch\nx = torch.range(0, 3, dtype=torch.bool)",
        "not implemented for 'Bool'",
        (2, 5),
    ),
    Case(
        "range_twice_given",
        "import torch\nx = torch.range(0, 3, start=0)",
        "got multiple values for argument 'start'",
        (2, 5),
    ),
    Case(
        "array_bitwise_huge_broadcast",
        "import numpy as np\nm = np.ones((10**4, 1), dtype=bool) | np.ones(10**4, dtype=bool)",
        "over the limit",
        (2, 5),
    ),
    Case(
        "pickle_still_refused",
        "from pickle import loads\nd = loads('x')",
        "`pickle.loads` is not supported",
        (2, 5),
    ),
    Case("subprocess_still_refused", "import subprocess", "cannot import `subprocess`", (1, 1)),
    Case(
        "legacy_tensor_type_dunders",
        "import torch\nr = torch.FloatTensor.__class__.__subclasses__",
        "`.__subclasses__` is not accessible",
        (2, 32),
    ),
    Case(
        "legacy_tensor_type_internals",
        "import torch\nr = torch.LongTensor._make",
        "type object 'torch.LongTensor' has no attribute '_make'",
        (2, 5),
    ),
    Case(
        "legacy_tensor_type_huge_sizes",
        "import torch\nr = torch.DoubleTensor(10**6, 10**6)",
        "over the limit",
        (2, 5),
    ),
    Case(
        "hook_changes_grad_in_place",
        "import torch\nx = torch.ones(2, requires_grad=True)\n"
        "w = torch.ones(2, requires_grad=True)\ndef h(g):\n    g.mul_(3)\n"
        "x.register_hook(h)\n((x + w) * 2).sum().backward()",
        "a gradient hook on a leaf tensor changed its gradient in place",
        (7, 1),
    ),
    Case(
        "hook_changes_an_expanded_grad_in_place",
        "import torch\nx = torch.ones(4, requires_grad=True)\n"
        "def h(g):\n    g.view(2, 2)[0] *= 1e300\nx.register_hook(h)\n"
        "x.view(2, 2).sum().backward()",
        "more than one element of the written-to tensor refers to a single memory location",
        (4, 5),
    ),
    Case(
        "backward_gradient_one_element_for_scalar",
        "import torch\nx = torch.ones(1, requires_grad=True)\n"
        "(x * 2).sum().backward(gradient=torch.tensor([0.1]))",
        "Mismatch in shape: grad_output[0] has a shape of torch.Size([1]) and output[0] has "
        "a shape of torch.Size([])",
        (3, 1),
    ),
    Case(
        "scheduler_epoch_huge",
        "import torch\nw = torch.ones(1, requires_grad=True)\n"
        "o = torch.optim.SGD([w], lr=0.1)\n"
        "s = torch.optim.lr_scheduler.CosineAnnealingLR(o, 10)\ns.step(10**30)",
        "is out of range",
        (5, 1),
    ),
    Case(
        "scheduler_epoch_nan",
        "import torch\nw = torch.ones(1, requires_grad=True)\n"
        "o = torch.optim.SGD([w], lr=0.1)\n"
        "s = torch.optim.lr_scheduler.StepLR(o, 2)\ns.step(float('nan'))",
        "is out of range",
        (5, 1),
    ),
    Case(
        "scheduler_load_state_unknown_key",
        "import torch\nw = torch.ones(1, requires_grad=True)\no = torch.optim.SGD([w], lr=0.1)\n"
        "s = torch.optim.lr_scheduler.StepLR(o, 2)\ns.load_state_dict({'step': 5})",
        "'step' is not part of a StepLR's state",
        (5, 1),
    ),
    Case(
        "scheduler_load_state_word_for_epoch",
        "import torch\nw = torch.ones(1, requires_grad=True)\no = torch.optim.SGD([w], lr=0.1)\n"
        "s = torch.optim.lr_scheduler.StepLR(o, 2)\ns.load_state_dict({'last_epoch': 'x'})",
        "'last_epoch' must be an int, like the saved value",
        (5, 1),
    ),
    Case(
        "scheduler_load_state_not_a_dict",
        "import torch\nw = torch.ones(1, requires_grad=True)\no = torch.optim.SGD([w], lr=0.1)\n"
        "s = torch.optim.lr_scheduler.StepLR(o, 2)\ns.load_state_dict([('last_epoch', 3)])",
        "expects the dict state_dict() returned, not list",
        (5, 1),
    ),
    Case(
        "scheduler_load_state_word_for_a_rate",
        "import torch\nw = torch.ones(1, requires_grad=True)\no = torch.optim.SGD([w], lr=1)\n"
        "s = torch.optim.lr_scheduler.StepLR(o, 2)\ns.load_state_dict({'_last_lr': ['x']})",
        "'_last_lr'[0] must be a number, like the saved value",
        (5, 1),
    ),
    Case(
        "scheduler_load_state_milestones_words",
        "import torch\nw = torch.ones(1, requires_grad=True)\no = torch.optim.SGD([w], lr=0.1)\n"
        "s = torch.optim.lr_scheduler.MultiStepLR(o, [1])\n"
        "s.load_state_dict({'milestones': {'a': 1}})",
        "must be a Counter of milestones (ints)",
        (5, 1),
    ),
    Case(
        "scheduler_load_state_other_mode",
        "import torch\nw = torch.ones(1, requires_grad=True)\no = torch.optim.SGD([w], lr=0.1)\n"
        "s = torch.optim.lr_scheduler.ReduceLROnPlateau(o)\n"
        "s.load_state_dict({'mode': 'max', 'best': 1.0})",
        "'mode' must be 'min', like the saved value",
        (5, 1),
    ),
    Case(
        "scheduler_load_state_function_state",
        "import torch\nw = torch.ones(1, requires_grad=True)\no = torch.optim.SGD([w], lr=0.1)\n"
        "s = torch.optim.lr_scheduler.LambdaLR(o, lambda e: 1.0)\n"
        "s.load_state_dict({'lr_lambdas': [{'x': 1}]})",
        "holds the state of callable objects",
        (5, 1),
    ),
    Case(
        "scheduler_load_state_nested_wrong_length",
        "import torch\nw = torch.ones(1, requires_grad=True)\no = torch.optim.SGD([w], lr=0.1)\n"
        "a = torch.optim.lr_scheduler.StepLR(o, 2)\n"
        "s = torch.optim.lr_scheduler.ChainedScheduler([a, a])\n"
        "s.load_state_dict({'_schedulers': [a.state_dict()]})",
        "'_schedulers' must be a list of 2 states",
        (6, 1),
    ),
    Case(
        "warnings_filter_catastrophic_regex",
        "import warnings\nwarnings.filterwarnings('ignore', message='(a+)+$')",
        "regular-expression syntax other than",
        (2, 1),
    ),
    Case(
        "warnings_filter_category_not_a_warning",
        "import warnings\nwarnings.simplefilter('error', category=5)",
        "category must be a Warning subclass, not int",
        (2, 1),
    ),
    Case(
        "warnings_filter_unknown_action",
        "import warnings\nwarnings.simplefilter('explode')",
        "invalid action: 'explode'",
        (2, 1),
    ),
    Case(
        "warnings_catch_record",
        "import warnings\nwith warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always')\n    while True:\n        warnings.warn('x')",
        "the time limit",
        None,
        env={"GRADCLI_TIME_SECONDS": "2"},
    ),
    Case(
        "warnings_filters_many_then_error",
        "import warnings\nfor i in range(20000):\n    warnings.filterwarnings('ignore', "
        "message=str(i))\nwarnings.simplefilter('error')\nwarnings.warn('x')",
        "x",
        (5, 1),
    ),
    Case(
        "abc_base_then_another",
        "import torch\nfrom abc import ABC\nclass A(torch.nn.Module, ABC, dict):\n    pass",
        "a class with several base classes is not supported with dict among them",
        (3, 31),
    ),
    Case(
        "abc_register_a_class",
        "from abc import ABC\nABC.register(int)",
        "cannot use the module `abc`",
        (2, 1),
    ),
    Case(
        "functorch_module_dunder",
        "import torch\nfrom functorch import make_functional\n"
        "f, p = make_functional(torch.nn.Linear(1, 1))\nz = f.__class__.__subclasses__()",
        "`.__subclasses__` is not accessible in gradcli programs",
        (4, 16),
    ),
    Case(
        "functorch_module_private_method",
        "import torch\nfrom functorch import make_functional\n"
        "f, p = make_functional(torch.nn.Linear(1, 1))\nz = f._call",
        "'FunctionalModule' object has no attribute '_call'",
        (4, 5),
    ),
    Case(
        "functorch_params_not_tensors",
        "import torch\nfrom functorch import make_functional\n"
        "f, p = make_functional(torch.nn.Linear(1, 1))\nz = f([print, len], torch.ones(1))",
        "value is not an instance of torch.Tensor",
        (4, 5),
    ),
    Case(
        "functorch_make_functional_of_itself_nested",
        "import torch\nfrom functorch import make_functional\n"
        "f = torch.nn.Linear(1, 1)\nfor i in range(10**6):\n    f, p = make_functional(f)",
        "make_functional(): the value is nested over 100 levels deep",
        (5, 12),
        env={"GRADCLI_TIME_SECONDS": "2"},
    ),
    Case(
        "functorch_ensemble_of_many",
        "import torch\nimport functorch\n"
        "ms = [torch.nn.Linear(100, 100) for i in range(10**5)]\n"
        "f, p, b = functorch.combine_state_for_ensemble(ms)",
        "the time limit",
        None,
        env={"GRADCLI_TIME_SECONDS": "2"},
    ),
    Case(
        "several_bases_growing_order",
        "class A:\n    pass\nclass B:\n    pass\nfor i in range(10**6):\n"
        "    class A(A, B):\n        pass",
        "the number of classes A derives from is 101, over the limit of 100",
        (6, 5),
    ),
    Case(
        "several_bases_mixin_train_calls_eval",
        "import torch\nclass M:\n    def train(self, mode=True):\n        return self.eval()\n"
        "class N(M, torch.nn.Module):\n    pass\nN().eval()",
        "the depth of function calls is 51, over the limit of 50",
        (4, 16),
    ),
    Case(
        "several_bases_super_dunder",
        "import torch\nclass A:\n    def f(self):\n        return super().__dict__\n"
        "class B(A, torch.nn.Module):\n    pass\nB().f()",
        "`.__dict__` is not accessible in gradcli programs",
        (4, 23),
    ),
    Case(
        "several_bases_mixin_dunder_into_module",
        "import torch\nclass M:\n    def __getitem__(self, i):\n        return open\n"
        "class N(M, torch.nn.Module):\n    pass\nz = N()[0]",
        "method `__getitem__` of the mixin M is not supported in an nn.Module subclass (N)",
        (5, 1),
    ),
    Case(
        "several_bases_builtin_type",
        "class A:\n    pass\nclass B(A, dict):\n    pass",
        "a class with several base classes is not supported with dict among them",
        (3, 12),
    ),
    Case(
        "warnings_record_holds_itself",
        "import warnings\nwith warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always')\n    warnings.warn('x')\n    w.append(w)\n"
        "    w[0].message.__class__.__subclasses__()",
        "`.__subclasses__` is not accessible in gradcli programs",
        (6, 27),
    ),
    Case(
        "warnings_record_private",
        "import warnings\nwith warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always')\n    warnings.warn('x')\nz = w[0].text",
        "'WarningMessage' object has no attribute 'text'",
        (5, 5),
    ),
    Case(
        "warnings_record_nested_blocks",
        "import warnings\nws = []\nfor i in range(10**6):\n"
        "    with warnings.catch_warnings(record=True) as w:\n"
        "        warnings.simplefilter('always')\n        warnings.warn('x' * 1000)\n"
        "        ws.append(w)",
        "the time limit",
        None,
        env={"GRADCLI_TIME_SECONDS": "2"},
    ),
    Case(
        "getattr_class_then_dunder",
        "import torch\nc = getattr(torch.ones(1), '__class__')\nz = getattr(c, '__subclasses__')",
        "getattr(..., '__subclasses__') is not accessible in gradcli programs",
        (3, 5),
    ),
    Case(
        "hasattr_property_recursion",
        "class A:\n    @property\n    def p(self):\n        return hasattr(self, 'p')\nv = A().p",
        "the depth of function calls is 51, over the limit of 50",
        (4, 16),
    ),
    Case(
        "module_parameters_table_written",
        "import torch\nm = torch.nn.Linear(1, 1)\nm._parameters['weight'] = print",
        "changing a module's _modules, _parameters or _buffers directly is not supported",
        (3, 1),
    ),
    Case(
        "forward_keywords_many",
        "import torch\nkw = {str(i): 1 for i in range(10**5)}\ny = torch.nn.Linear(1, 1)(**kw)",
        "Linear.forward() got an unexpected keyword argument '0'",
        (3, 5),
    ),
    Case(
        "forward_keyword_dunder",
        "import torch\ny = torch.nn.Linear(1, 1)(**{'__class__': 1})",
        "Linear.forward() got an unexpected keyword argument '__class__'",
        (2, 5),
    ),
    Case(
        "forward_keywords_each_call_timed",
        "import torch\nm = torch.nn.Identity()\nx = torch.ones(1)\nwhile True:\n    x = m(input=x)",
        "the time limit",
        None,
        env={"GRADCLI_TIME_SECONDS": "1"},
    ),
    Case(
        "partial_chain_is_timed",
        "from functools import partial\ndef f(*a):\n    return len(a)\np = f\n"
        "for i in range(10**6):\n    p = partial(p, 1)",
        "the time limit",
        None,
        env={"GRADCLI_TIME_SECONDS": "1"},
    ),
    Case(
        "partial_dunder_call",
        "from functools import partial\nq = partial(print)\nz = q.__call__",
        "`.__call__` of a value of class 'functools.partial' is not supported",
        (3, 6),
    ),
    Case(
        "partial_of_a_number",
        "import functools\nq = functools.partial(5)",
        "the first argument must be callable",
        (2, 5),
    ),
    Case(
        "scheduler_epoch_string",
        "import torch\nw = torch.ones(1, requires_grad=True)\n"
        "o = torch.optim.SGD([w], lr=0.1)\n"
        "s = torch.optim.lr_scheduler.StepLR(o, 2)\ns.step('3')",
        "epoch must be a number, not str",
        (5, 1),
    ),
    Case(
        "scheduler_base_lrs_wrong_length",
        "import torch\nw = torch.ones(1, requires_grad=True)\n"
        "o = torch.optim.SGD([w], lr=0.1)\n"
        "s = torch.optim.lr_scheduler.StepLR(o, 2)\ns.base_lrs = [0.1, 0.2]",
        "StepLR.base_lrs must be a list of 1 learning rate(s)",
        (5, 1),
    ),
    Case(
        "scheduler_other_attribute_set",
        "import torch\nw = torch.ones(1, requires_grad=True)\n"
        "o = torch.optim.SGD([w], lr=0.1)\n"
        "s = torch.optim.lr_scheduler.StepLR(o, 2)\ns.gamma = 0.5",
        "cannot set attribute `gamma` of a StepLR",
        (5, 1),
    ),
    Case(
        "scheduler_dunder_set",
        "import torch\nw = torch.ones(1, requires_grad=True)\n"
        "o = torch.optim.SGD([w], lr=0.1)\n"
        "s = torch.optim.lr_scheduler.StepLR(o, 2)\ns.__dict__ = {}",
        "`.__dict__` is not accessible",
        (5, 2),
    ),
    Case(
        "old_backward_hook_mixed_with_full",
        "import torch\nm = torch.nn.Linear(2, 2)\n"
        "m.register_full_backward_hook(lambda m, gi, go: None)\n"
        "m.register_backward_hook(lambda m, gi, go: None)",
        "Cannot use both regular backward hooks and full backward hooks",
        (4, 1),
    ),
    Case(
        "old_backward_hook_not_callable",
        "import torch\nm = torch.nn.Linear(2, 2)\nm.register_backward_hook(3)",
        "'int' object is not callable",
        (3, 1),
    ),
    Case(
        "node_hook_on_torch_addmm",
        "import torch\nb = torch.ones(2, requires_grad=True)\n"
        "y = torch.addmm(b, torch.ones(3, 4), torch.ones(4, 2))\n"
        "y.grad_fn.register_hook(lambda gi, go: None)",
        "a hook on the AddmmBackward0 node of torch.addmm is not supported",
        (4, 1),
    ),
    Case(
        "node_hook_on_linear_addmm_returns_a_string",
        "import torch\nlin = torch.nn.Linear(2, 2)\ny = lin(torch.ones(1, 2))\n"
        "y.grad_fn.register_hook(lambda gi, go: ('__class__', None, None))\ny.sum().backward()",
        "expected Variable, but hook returned 'str'",
        (5, 1),
    ),
    Case("data_ptr_argument", "import torch\np = torch.ones(2).data_ptr(1)", "", (2, 5)),
    Case(
        "permute_dims_keyword_and_positional",
        "import torch\ny = torch.ones(2, 3).permute(1, 0, dims=(1, 0))",
        "permute() got multiple values for argument 'dims'",
        (2, 5),
    ),
    Case(
        "permute_unknown_keyword",
        "import torch\ny = torch.permute(torch.ones(2, 3), order=(1, 0))",
        'permute() missing 1 required positional arguments: "dims"',  # (PyTorch's words)
        (2, 5),
    ),
    # --- torch.utils.data attacked (hostile3): collation, subsets, splits, batch indices ---
    Case(
        "data_collate_dict_missing_key",
        (
            "import torch\n"
            "from torch.utils.data import DataLoader\n"
            "b = list(DataLoader([{'a': 1}, {'b': 2}], batch_size=2))"
        ),
        "KeyError: 'a'",
        (3, 5),
    ),
    Case(
        "data_collate_dict_then_int",
        (
            "import torch\n"
            "from torch.utils.data import DataLoader\n"
            "b = list(DataLoader([{'a': 1}, 5], batch_size=2))"
        ),
        "'int' object is not subscriptable",
        (3, 5),
    ),
    Case(
        "data_collate_float_then_str",
        (
            "import torch\n"
            "from torch.utils.data import DataLoader\n"
            "b = list(DataLoader([1.0, 'a'], batch_size=2))"
        ),
        "must be real number, not str",
        (3, 5),
    ),
    Case(
        "data_collate_float_then_list",
        (
            "import torch\n"
            "from torch.utils.data import DataLoader\n"
            "b = list(DataLoader([1.0, [1, 2]], batch_size=2))"
        ),
        "must be real number, not list",
        (3, 5),
    ),
    Case(
        "data_collate_float_then_tensor",
        (
            "import torch\n"
            "from torch.utils.data import DataLoader\n"
            "b = list(DataLoader([1.0, torch.ones(2)], batch_size=2))"
        ),
        "only one element tensors can be converted to Python scalars",
        (3, 5),
    ),
    Case(
        "data_collate_float_then_none",
        (
            "import torch\n"
            "from torch.utils.data import DataLoader\n"
            "b = list(DataLoader([1.0, None], batch_size=2))"
        ),
        "must be real number, not NoneType",
        (3, 5),
    ),
    Case(
        "data_collate_shared_lists",
        (
            "import torch\n"
            "from torch.utils.data import DataLoader\n"
            "x = [1, 1]\n"
            "for i in range(40):\n"
            "    x = [x, x]\n"
            "b = list(DataLoader([x, x], batch_size=2))"
        ),
        "the number of items collating a batch would visit is",
        (6, 5),
        env={"GRADCLI_LIST_ITEMS": "1000"},
    ),
    Case(
        "data_convert_shared_dicts",
        (
            "import torch\n"
            "from torch.utils.data import DataLoader\n"
            "x = {'a': 1}\n"
            "for i in range(40):\n"
            "    x = {'a': x, 'b': x}\n"
            "b = list(DataLoader([x, x], batch_size=None))"
        ),
        "the number of items collating a batch would visit is",
        (6, 5),
        env={"GRADCLI_LIST_ITEMS": "1000"},
    ),
    Case(
        "data_collate_deep",
        (
            "import torch\n"
            "from torch.utils.data import DataLoader\n"
            "x = 1\n"
            "for i in range(500):\n"
            "    x = [x]\n"
            "b = list(DataLoader([x, x], batch_size=2))"
        ),
        "collating a batch: the list is nested over 100 levels deep",
        (6, 5),
    ),
    Case(
        "data_batch_sampler_huge_range",
        (
            "import torch\n"
            "from torch.utils.data import DataLoader\n"
            "b = next(iter(DataLoader([1], batch_sampler=[range(10**9)])))"
        ),
        "the number of items for a batch of indices is",
        (3, 5),
    ),
    Case(
        "data_subset_huge_iterator",
        (
            "import torch\n"
            "from torch.utils.data import Subset\n"
            "s = Subset(range(10), iter(range(10**9)))"
        ),
        "the number of items for Subset indices is 1,001, over",
        (3, 5),
        env={"GRADCLI_LIST_ITEMS": "1000"},
    ),
    Case(
        "data_subset_not_sized",
        ("import torch\nfrom torch.utils.data import Subset\ns = Subset(range(10), 5)"),
        "'int' object is not iterable",
        (3, 5),
    ),
    Case(
        "data_subset_str_index",
        ("import torch\nfrom torch.utils.data import Subset\nv = Subset(range(10), [1, 2])['a']"),
        "list indices must be integers or slices, not str",
        (3, 5),
    ),
    Case(
        "data_subset_list_index_out",
        ("import torch\nfrom torch.utils.data import Subset\nv = Subset(range(10), [1, 2])[[5]]"),
        "list index out of range",
        (3, 5),
    ),
    Case(
        "data_random_split_float_lengths",
        (
            "import torch\n"
            "from torch.utils.data import random_split\n"
            "a, b = random_split(range(10), [0.5, 9.5])"
        ),
        "random_split lengths must be whole numbers, or fractions",
        (3, 8),
    ),
    Case(
        "data_random_split_none",
        (
            "import torch\n"
            "from torch.utils.data import random_split\n"
            "a, b = random_split(range(10), None)"
        ),
        "'NoneType' object is not iterable",
        (3, 8),
    ),
    Case(
        "data_random_split_str",
        (
            "import torch\n"
            "from torch.utils.data import random_split\n"
            "a, b = random_split(range(10), ['a', 'b'])"
        ),
        "unsupported operand type(s) for +: 'int' and 'str'",
        (3, 8),
    ),
    Case(
        "data_random_split_negative_fraction",
        (
            "import torch\n"
            "from torch.utils.data import random_split\n"
            "a, b = random_split(range(10), [1.5, -0.5])"
        ),
        "Fraction at index 0 is not between 0 and 1",
        (3, 8),
    ),
    Case(
        "data_random_split_huge_lengths",
        (
            "import torch\n"
            "from torch.utils.data import random_split\n"
            "p = random_split(range(10), range(10**9))"
        ),
        "the number of items for random_split lengths is",
        (3, 5),
    ),
    Case(
        "data_concat_huge_iterator",
        (
            "import torch\n"
            "from torch.utils.data import ConcatDataset\n"
            "c = ConcatDataset(iter(range(10**9)))"
        ),
        "the number of items for ConcatDataset is 1,001, over",
        (3, 5),
        env={"GRADCLI_LIST_ITEMS": "1000"},
    ),
    # --- torch.combinations with r over n makes no r-column stack (hostile3) ---
    Case(
        "h3_combinations_r_over_n_huge",
        ("import torch\ny = torch.combinations(torch.arange(10), r=10**9)"),
        "the columns of torch.combinations() is 1,000,000,000, over",
        (2, 5),
    ),
    # --- the interpreter's own values named as Python names them in attribute errors (hostile3) ---
    Case(
        "h3_exception_attribute_named_by_class",
        (
            "import torch\n"
            "try:\n"
            "    1 / 0\n"
            "except ZeroDivisionError as e:\n"
            "    e.with_traceback(None)"
        ),
        "'ZeroDivisionError' object has no attribute 'with_traceback'",
        (5, 5),
    ),
    Case(
        "h3_function_attribute_named_function",
        ("import torch\nf = torch.jit.trace(lambda x: x * 2, torch.ones(2))\nprint(f.code)"),
        "`.code` of a torch.jit.script/trace result is not supported",
        (3, 7),
    ),
    Case(
        "jit_script_module_graph",
        "import torch\nclass M(torch.nn.Module):\n    def forward(self, x):\n"
        "        return x * 2\nm = torch.jit.script(M())\ng = m.inlined_graph",
        "`.inlined_graph` of a torch.jit.script/trace result is not supported",
        (6, 5),
    ),
    Case(
        "jit_ignore_is_not_scripted",
        "import torch\nf = torch.jit.ignore(lambda x: x)\nprint(f.code)",
        "'function' object has no attribute 'code'",
        (3, 7),
    ),
    Case(
        "h3_builtin_attribute_named",
        ("import torch\nw = len.foo"),
        "'builtin_function_or_method' object has no attribute 'foo'",
        (2, 5),
    ),
    Case(
        "h3_exception_class_attribute",
        ("import torch\nv = ZeroDivisionError.foo"),
        "type object 'ZeroDivisionError' has no attribute 'foo'",
        (2, 5),
    ),
    Case(
        "h3_no_grad_attribute",
        ("import torch\nv = torch.no_grad().foo"),
        "'no_grad' object has no attribute 'foo'",
        (2, 5),
    ),
    # --- a program's call of default_collate, and layer sizes below zero (hostile3) ---
    Case(
        "h3_default_collate_none",
        ("import torch\ny = torch.utils.data.default_collate(None)"),
        "'NoneType' object is not subscriptable",
        (2, 5),
    ),
    Case(
        "h3_default_collate_empty",
        ("import torch\ny = torch.utils.data.default_collate([])"),
        "list index out of range",
        (2, 5),
    ),
    Case(
        "h3_default_collate_dict",
        ("import torch\ny = torch.utils.data.default_collate({})"),
        "KeyError: 0",
        (2, 5),
    ),
    Case(
        "h3_layer_norm_negative",
        ("import torch\nm = torch.nn.LayerNorm(-1)"),
        "Trying to create tensor with negative dimension -1: [-1]",
        (2, 5),
    ),
    Case(
        "h3_attention_negative_kdim",
        ("import torch\nm = torch.nn.MultiheadAttention(4, 2, kdim=-1)"),
        "Trying to create tensor with negative dimension -1: [4, -1]",
        (2, 5),
    ),
    # --- sampling from no category (hostile3) ---
    Case(
        "h3_weighted_sampler_no_weights",
        (
            "import torch\n"
            "from torch.utils.data import WeightedRandomSampler\n"
            "s = list(WeightedRandomSampler([], 3))"
        ),
        "invalid multinomial distribution (sum of probabilities <= 0)",
        (3, 5),
    ),
    Case(
        "h3_multinomial_no_category",
        ("import torch\ny = torch.multinomial(torch.ones(2, 0), 1, True)"),
        "aminmax(): cannot compute aminmax over an empty dimension",
        (2, 5),
    ),
    # --- imports in a class body (class attributes), module._modules (read only) -----------
    Case(
        "class_body_import_as_dunder",
        NN + "class M(nn.Module):\n    import math as __init__\n",
        "the class attribute `__init__` is not supported",
        (4, 5),
    ),
    Case(
        "class_body_import_os_used",
        "import torch\nclass A:\n    import os\nA.os.system('ls')\n",
        "`os.system` is not supported",
        (4, 1),
    ),
    Case(
        "class_body_from_os",
        "import torch\nclass A:\n    from os import path\nA.path.exists('/')\n",
        "`os.path.exists` is not supported",
        (4, 1),
    ),
    Case(
        "modules_item_assignment_of_junk",
        NN + "m = nn.Linear(1, 1)\nm._modules['a'] = print\n",
        "changing a module's _modules, _parameters or _buffers directly is not supported",
        (4, 1),
    ),
    Case(
        "modules_item_assignment_dotted_name",
        NN + "m = nn.Linear(1, 1)\nm._modules['a.b'] = nn.ReLU()\n",
        "changing a module's _modules, _parameters or _buffers directly is not supported",
        (4, 1),
    ),
    Case(
        "modules_update_with_junk",
        NN + "m = nn.Sequential(nn.ReLU())\nm._modules.update({'a': 1})\n",
        "changing a module's _modules, _parameters or _buffers directly is not supported",
        (4, 1),
    ),
    Case(
        "modules_del_item_of_another_kind",
        NN + "m = nn.Sequential(nn.ReLU())\ndel m._modules[0]\n",
        "changing a module's _modules, _parameters or _buffers directly is not supported",
        (4, 5),
    ),
    Case(
        "modules_dunder_class",
        NN + "m = nn.Linear(1, 1)\nc = m._modules.__class__.__dict__\n",
        "`.__dict__` is not accessible",
        (4, 25),
    ),
    Case(
        "private_parameters_still_hidden",
        NN + "m = nn.Linear(1, 1)\np = m._parameters\np.pop('weight')\n",
        "changing a module's _modules, _parameters or _buffers directly is not supported",
        (5, 1),
    ),
    # --- resize_: sizes checked before any work; growth and non-contiguous refused ---------
    Case(
        "resize_huge",
        "x = torch.ones(3)\nx.resize_(10**6, 10**6)",
        "over the limit of 10,000,000",
        (2, 1),
    ),
    Case(
        "resize_grows", "x = torch.ones(3)\nx.resize_(5)", "would be uninitialised memory", (2, 1)
    ),
    Case(
        "resize_non_contiguous",
        "x = torch.ones(2, 3).t()\nx.resize_(6)",
        "resize_ of a non-contiguous tensor",
        (2, 1),
    ),
    Case(
        "resize_requires_grad",
        "x = torch.ones(3, requires_grad=True)\nx.resize_(1, 3)",
        "cannot resize variables that require grad",
        (2, 1),
    ),
    Case(
        "resize_negative",
        "x = torch.ones(3)\nx.resize_(-4)",
        "integer multiplication overflow",
        (2, 1),
    ),
]


def _ids() -> list[str]:
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids)), "case ids must be unique"
    return ids


def test_corpus_is_large() -> None:
    assert len(CASES) >= 60


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*a: object, **k: object) -> None:
        raise AssertionError("gradcli tried to use the network")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


@pytest.mark.parametrize("case", CASES, ids=_ids())
def test_hostile(
    case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_network: None
) -> None:
    monkeypatch.chdir(tmp_path)
    if case.program is not None:
        data = (
            case.program
            if isinstance(case.program, bytes)
            else case.program.encode("utf-8", "surrogatepass")
        )
        (tmp_path / "prog.py").write_bytes(data)
    before = sorted(p.name for p in tmp_path.iterdir())

    start, cpu = time.monotonic(), time.process_time()
    result = CliRunner(env={"COLUMNS": "100", **case.env}).invoke(app, case.argv)
    took, spent = time.monotonic() - start, time.process_time() - cpu

    err, out = result.stderr, result.stdout
    assert result.exit_code == case.code, err + out[:2000]
    if case.printed:
        assert len(out) <= 10_000_000
    else:
        assert out == "", out[:2000]
    assert "Traceback" not in err and "internal error" not in err, err
    # Prompt: the command's own CPU time (in this process) within 8 s, or its limit's; the
    # wall clock, which a loaded machine stretches, within the backstop or 4 times that.
    bound = _wall_bound(case.env)
    assert spent < bound, f"computed for {spent:.1f} s"
    assert took < max(bound, 4 * 8.0), f"took {took:.1f} s"
    assert sorted(p.name for p in tmp_path.iterdir()) == before, "a file was written"

    lines = err.splitlines()
    # The warnings the program gave before it failed come first (as PyTorch writes them as
    # they happen): each a `prog.py:L:C: warning: ...` line and its indented hint.
    while lines and ": warning: " in lines[0]:
        lines = lines[1:]
        while lines and lines[0].startswith("  "):
            lines = lines[1:]
    assert lines, err
    assert case.message in lines[0] + "\n".join(lines[1:6]), err
    if case.code == 2 and not lines[0].startswith("error:"):
        return  # typer's own usage message
    if case.at is None:
        assert lines[0].startswith("error: ") or lines[0].startswith("prog.py:"), err
        return
    line, col = case.at
    assert lines[0].startswith(f"prog.py:{line}:{col}: error: "), err
    # The source line (after the indented lines of a message of several lines), then the
    # caret under the place.
    lines = lines[:1] + [line for line in lines[1:] if not continued(line)]
    num = str(line)
    assert lines[1].startswith(f" {num} | "), err
    prefix = f" {' ' * len(num)} | "
    assert lines[2].startswith(prefix), err
    caret = lines[2][len(prefix) :]
    shown = lines[1][len(prefix) :]
    if case.caret is not None:
        assert caret.rstrip() == case.caret.rstrip(), (caret, err)
    elif shown.isascii() and not shown.startswith("…"):
        assert caret.index("^") == col - 1, err
    else:
        assert "^" in caret, err


def test_hostile_program_writes_nothing_elsewhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "elsewhere" / "pwned.txt"
    target.parent.mkdir()
    monkeypatch.chdir(tmp_path)
    programs = [
        f"print('x', file={str(target)!r})",
        f"open({str(target)!r}, 'w')",
        f"torch.save(torch.ones(2), {str(target)!r})",
        f"import numpy as np\nnp.save({str(target)!r}, [1])",
    ]
    for prog in programs:
        r = CliRunner().invoke(app, ["run", "-e", prog])
        # torch.save runs: the checkpoint is kept in memory for torch.load
        assert r.exit_code == (0 if "torch.save" in prog else 1), r.stderr
        assert not target.exists()
