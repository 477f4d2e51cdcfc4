"""What notebooks put around the autograd code: a set_seed function (random, numpy, torch,
torch.cuda, cudnn flags), `gc.collect()`, `time.time()` around a loop, `warnings`
filters. They run, and change nothing gradcli computes; what could wait or reach the
process is absent."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse


def out(text: str) -> str:
    return "".join(parse(text, "t.py").run(dtype="float32").output)


def test_a_set_seed_function_runs_and_torch_draws_as_seeded() -> None:
    seeded = out(
        "import random\nimport numpy as np\nimport torch\n"
        "def set_seed(s):\n    random.seed(s)\n    np.random.seed(s)\n    torch.manual_seed(s)\n"
        "    torch.cuda.manual_seed(s)\n    torch.cuda.manual_seed_all(s)\n"
        "    torch.backends.cudnn.deterministic = True\n"
        "    torch.backends.cudnn.benchmark = False\n"
        "set_seed(3)\ntorch.use_deterministic_algorithms(True)\n"
        "print(torch.randn(2), torch.backends.cudnn.deterministic)\n"
        "print(torch.are_deterministic_algorithms_enabled(), torch.cuda.is_available())\n"
    )
    plain = out("import torch\ntorch.manual_seed(3)\nprint(torch.randn(2), True)\n")
    assert seeded == plain + "True False\n"
    # the flags are the run's: a new run starts from PyTorch's defaults
    assert out("import torch\nprint(torch.backends.cudnn.deterministic)\n") == "False\n"


def test_gc_time_and_warnings() -> None:
    got = out(
        "import gc\nimport time\nimport warnings\nwarnings.filterwarnings('ignore')\n"
        "start = time.perf_counter()\nx = [0] * 10\ndel x\nn = gc.collect()\n"
        "print(n, 0 <= time.perf_counter() - start < 60, time.time() > 1e9)\n"
    )
    assert got == "0 True True\n"


@pytest.mark.parametrize(
    ("program", "message"),
    [
        ("import time\ntime.sleep(100)", "`time.sleep` is not supported"),
        ("import gc\ngc.get_objects()", "`gc.get_objects` is not supported"),
        ("import torch\ntorch.backends.cudnn.fast = 1", "torch.backends.cudnn.fast"),
        ("import os\nos.getcwd()", "`os.getcwd` is not supported"),
        ("import sys\nprint(sys.modules)", "`sys.modules` is not supported"),
        ("import os.path as p\np.isfile('x')", "`os.path.isfile` is not supported"),
        ("import os.path\nos.path.getsize('x')", "`os.path.getsize` is not supported"),
        ("from os import path\npath.realpath('.')", "`os.path.realpath` is not supported"),
        ("from os import getcwd\ngetcwd()", "`os.getcwd` is not supported"),
        ("from os.path import exists\nexists('x')", "`os.path.exists` is not supported"),
    ],
)
def test_what_could_wait_or_reach_the_process_is_absent(program: str, message: str) -> None:
    with pytest.raises(GradcliError, match=message.replace(".", r"\.")):
        out(program)


def test_version_strings_of_torch_and_numpy() -> None:
    import numpy as np

    got = out(
        "import torch\nimport numpy as np\nprint(torch.__version__)\n"
        "print(torch.__version__.split('+')[0], np.__version__)\n"
    )
    assert got == f"2.13.0+cpu\n2.13.0 {np.__version__}\n"
    # only torch's and numpy's: other objects have no __version__, as in Python
    for expr in ("torch.ones(1).__version__", "torch.nn.__version__", "print.__version__"):
        with pytest.raises(GradcliError):
            out(f"import torch\nv = {expr}\n")


def test_deepcopy_keeps_cycles_and_sharing_as_python_does() -> None:
    # Python's memo copies each object once: a list holding itself, a dict naming itself and
    # a list shared 40 levels over (2**40 paths, 41 lists) are all copied in linear time.
    got = out(
        "import copy\na = [1]\na.append(a)\nb = copy.deepcopy(a)\n"
        "print(len(b), b[1] is b, b is not a)\n"
        "d = {'w': torch.ones(2, requires_grad=True)}\nd['self'] = d\ne = copy.deepcopy(d)\n"
        "print(e['self'] is e, e['w'] is d['w'], e['w'].requires_grad)\n"
        "l = [1]\nfor i in range(40):\n    l = [l, l]\nc = copy.deepcopy(l)\n"
        "print(c[0] is c[1], c[0] is not l[0])\n"
    )
    assert got == "2 True True\nTrue False True\nTrue True\n"


def test_deepcopy_depth_is_bounded_at_the_nesting_limit() -> None:
    deep = "import copy\nl = []\nfor i in range({n}):\n    l = [l]\nc = copy.deepcopy(l)\n"
    assert out(deep.format(n=99) + "print(len(c))\n") == "1\n"
    with pytest.raises(GradcliError, match="nested over 100 levels deep"):
        out(deep.format(n=100))


def test_torch_save_keeps_a_checkpoint_in_memory_and_load_copies_it() -> None:
    got = out(
        "x = torch.ones(2, requires_grad=True)\ny = x * 2\nx.grad = torch.ones(2)\n"
        "torch.save({'y': y, 'x': x, 'l': [x, x], 'n': 3}, 'ck.pt')\n"
        "x.data.fill_(5)\nd = torch.load('ck.pt', map_location='cpu', weights_only=True)\n"
        "e = torch.load('ck.pt')\n"
        # as a file read back: leaves with requires_grad, no .grad, sharing kept, fresh copies
        "print(d['y'], d['y'].is_leaf, d['x'].grad, d['l'][0] is d['l'][1], d['x'] is e['x'])\n"
        "print(d['x'], d['n'])\n"
    )
    assert got == (
        "tensor([2., 2.], requires_grad=True) True None True False\n"
        "tensor([1., 1.], requires_grad=True) 3\n"
    )


def test_torch_load_of_a_path_never_saved_and_save_of_a_module() -> None:
    with pytest.raises(GradcliError, match=r"\[Errno 2\] No such file or directory: 'm.pt'"):
        out("m = torch.load('m.pt')\n")
    assert (
        out("try:\n    torch.load('m.pt')\nexcept OSError as e:\n    print(type(e).__name__)\n")
        == "FileNotFoundError\n"
    )
    # a whole module saves; torch.load refuses it unless weights_only=False, as PyTorch's
    with pytest.raises(GradcliError, match="Weights only load failed"):
        out("torch.save(torch.nn.Linear(1, 1), 'm.pt')\nm = torch.load('m.pt')\n")
    caught = out(
        "torch.save(torch.nn.Linear(1, 1), 'm.pt')\ntry:\n    torch.load('m.pt')\n"
        "except Exception as e:\n    print(type(e).__name__, str(e).splitlines()[3])\n"
    )
    assert caught.startswith(
        "UnpicklingError \tWeightsUnpickler error: Unsupported global: GLOBAL "
        "torch.nn.modules.linear.Linear was not an allowed global by default."
    )
    assert (
        out(
            "torch.save([torch.nn.Linear(1, 1)], 'm.pt')\n"
            "m = torch.load('m.pt', weights_only=False)[0]\nprint(m)\n"
        )
        == "Linear(in_features=1, out_features=1, bias=True)\n"
    )
    # a new run starts with nothing saved
    assert out("torch.save(1, 'a')\nprint(torch.load('a'))\n") == "1\n"
    with pytest.raises(GradcliError, match="No such file"):
        out("torch.load('a')\n")


def test_optimizer_load_state_dict_resumes_as_pytorch() -> None:
    resumed = out(
        "w = torch.tensor([1.0, -2.0], requires_grad=True)\n"
        "o = torch.optim.SGD([w], lr=0.1, momentum=0.9)\n"
        "for i in range(2):\n    o.zero_grad()\n    (w ** 2).sum().backward()\n    o.step()\n"
        "v = w.detach().clone().requires_grad_(True)\n"
        "o2 = torch.optim.SGD([v], lr=0.5)\no2.load_state_dict(o.state_dict())\n"
        "for opt, p in ((o, w), (o2, v)):\n    opt.zero_grad()\n    (p ** 2).sum().backward()\n"
        "    opt.step()\n"
        "print(torch.equal(w, v), o2.param_groups[0]['momentum'], o2.param_groups[0]['lr'])\n"
        "print(o2.state[v]['momentum_buffer'] is o.state[w]['momentum_buffer'])\n"
    )
    # PyTorch's text: the loaded momentum buffer is the first optimizer's own tensor (`.to()`
    # of the same dtype makes no copy), so both steps move it and the two trajectories part
    assert resumed == "False 0.9 0.1\nTrue\n"
    with pytest.raises(GradcliError, match="different number of parameter groups"):
        out(
            "w = torch.zeros(1, requires_grad=True)\no = torch.optim.SGD([w], lr=0.1)\n"
            "o.load_state_dict({'state': {}, 'param_groups': []})\n"
        )
    with pytest.raises(GradcliError, match="doesn't match the size of optimizer's group"):
        out(
            "w = torch.zeros(1, requires_grad=True)\no = torch.optim.SGD([w], lr=0.1)\n"
            "o2 = torch.optim.SGD([w, torch.zeros(1, requires_grad=True)], lr=0.1)\n"
            "o.load_state_dict(o2.state_dict())\n"
        )


def _logged(text: str) -> tuple[str, list[str]]:
    result = parse(text, "t.py").run(dtype="float32")
    return "".join(result.output), [str(w) for w in result.warnings]


def test_logging_decides_as_python_and_never_prints_to_standard_output() -> None:
    # Expected standard output from Python 3.11; records go to standard error (warnings here)
    text = (
        "import logging\n"
        "logger = logging.getLogger(__name__)\n"
        "logger.info('loading')\n"  # below the root's WARNING: dropped
        "logger.warning('careful %s %d', 'x', 3)\n"  # the last-resort handler: message alone
        "print(logger.name, logger.level, logger.getEffectiveLevel(),\n"
        "      logger.isEnabledFor(logging.INFO), logging.INFO, logging.DEBUG)\n"
        "logging.basicConfig(level=logging.INFO)\n"
        "logger.info('epoch %d loss %.3f', 1, 0.25)\n"
        "logger.info('bad %d', 'x')\n"  # Python reports it and goes on
        "child = logging.getLogger('a.b')\n"
        "logging.getLogger('a').setLevel('ERROR')\n"
        "same = logging.getLogger('a.b') is child\n"
        "print(child.getEffectiveLevel(), child.isEnabledFor(30), same)\n"
        "print(logging.getLogger() is logging.getLogger('root'), repr(child), logger)\n"
        "child.error('seen')\n"
        "try:\n    child.setLevel('LOUD')\nexcept ValueError as e:\n    print(e)\n"
        "print('done')\n"
    )
    printed, logged = _logged(text)
    assert printed == (
        "__main__ 0 30 False 20 10\n"
        "40 False True\n"
        "True <Logger a.b (ERROR)> <Logger __main__ (INFO)>\n"
        "Unknown level: 'LOUD'\n"
        "done\n"
    )
    assert [w.split("warning: ", 1)[1] for w in logged] == [
        "logging: careful x 3",
        "logging: INFO:__main__:epoch 1 loss 0.250",
        "logging: --- Logging error --- %d format: a number is required, not str",
        "logging: ERROR:a.b:seen",
    ]


def test_logging_never_reaches_streams_or_files() -> None:
    for call in (
        "logging.basicConfig(stream=None)",
        "logging.basicConfig(filename='log.txt')",
        "logging.basicConfig(handlers=[])",
    ):
        with pytest.raises(GradcliError, match="is not supported by gradcli"):
            out(f"import logging\n{call}\n")
    with pytest.raises(GradcliError, match="Unrecognised argument"):
        out("import logging\nlogging.basicConfig(colour=1)\n")
    with pytest.raises(GradcliError, match="has no attribute 'handlers'"):
        out("import logging\nh = logging.getLogger('x').handlers\n")


def test_torch_functional_is_the_module_of_torch_einsum_norm_split_with_nn_functional_as_f() -> (
    None
):
    """`import torch.functional as F` (an introductory tutorial's slip for torch.nn.functional):
    the module holds torch's einsum, norm, split, ... (the same functions as torch.X) and F,
    torch.nn.functional; a name it lacks is Python's AttributeError, catchable."""
    got = out(
        "import torch\nimport torch.functional as F\nfrom torch.functional import einsum\n"
        "x = torch.tensor([[1.0, -2.0], [3.0, 4.0]])\n"
        "print(F.norm(x), einsum('ij->i', x), F.split(torch.arange(5), 2)[-1])\n"
        "print(F.F.relu(x).sum(), F.einsum is torch.einsum, hasattr(F, 'log_softmax'))\n"
        "try:\n    F.log_softmax(x, dim=1)\nexcept AttributeError as e:\n    print(e)\n"
    )
    assert got == (
        "tensor(5.4772) tensor([-1.,  7.]) tensor([4])\n"
        "tensor(8.) True False\n"
        "module 'torch.functional' has no attribute 'log_softmax'\n"
    )


def test_torch_multiprocessing_refusal_says_to_call_the_target_in_process() -> None:
    for call in ("mp.Process(target=work, args=(1,))", "mp.spawn(work, nprocs=2)"):
        with pytest.raises(GradcliError) as e:
            out(f"import torch.multiprocessing as mp\ndef work(n):\n    print(n)\n{call}\n")
        assert "is not supported by gradcli" in str(e.value)
        assert "call the target function directly" in (e.value.hint or "")
