"""PyTorch's parameter names for every user-facing name gradcli declares, and where gradcli's
differ (issue 10: a program that calls `F.relu(input=x)` or `torch.zeros_like(input=x)` must
not be refused because gradcli named the parameter `x`).

Usage (needs torch 2.13; gradcli is imported from this checkout):

    /work/torchenv/bin/python tests/surface/data/signatures/record.py

writes, beside this file,

    torch.json   for each qualified name (`torch.exp`, `Tensor.add`, `F.relu`, `nn.Linear`,
                 `torch.optim.SGD`, `torch.linalg.norm`...): whether PyTorch implements it in
                 C++ (its argument parser: the Python binding's overloads, from torch's type
                 stubs, else the operator schemas) or in Python (`inspect.signature`), the name
                 its errors use (`exp`, `Linear.__init__`) and its overloads' parameters;
    report.txt   what `compare` finds against gradcli's current signatures.

`tests/surface/test_signatures.py` reads torch.json (no torch needed) and runs `compare`.
"""

from __future__ import annotations

import ast
import inspect
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]

# inspect's kinds as short words
KINDS = {
    inspect.Parameter.POSITIONAL_ONLY: "P",
    inspect.Parameter.POSITIONAL_OR_KEYWORD: "PK",
    inspect.Parameter.VAR_POSITIONAL: "VP",
    inspect.Parameter.KEYWORD_ONLY: "K",
    inspect.Parameter.VAR_KEYWORD: "VK",
}
# torch's namespaces gradcli has, walked for callables
NAMESPACES = (
    "torch",
    "torch.nn",
    "torch.nn.functional",
    "torch.nn.init",
    "torch.linalg",
    "torch.special",
    "torch.autograd",
    "torch.autograd.functional",
    "torch.optim",
    "torch.optim.lr_scheduler",
    "torch.func",
)
SHORT = {"torch.nn.functional": "F", "torch.nn": "nn"}


# --- gradcli's side (no torch) ---------------------------------------------------------------


def gradcli_callables() -> dict[str, Any]:
    """Qualified name -> gradcli's function for it (the one the interpreter calls)."""
    from gradcli.lang.namespaces import build_namespaces
    from gradcli.lang.values import Builtin, Namespace
    from gradcli.surface import names

    names.load_all()
    spaces = build_namespaces()
    out: dict[str, Any] = {}
    for full in NAMESPACES:
        parts = full.split(".")
        ns: Any = spaces["torch"]
        for p in parts[1:]:
            ns = ns.members.get(p)
            if not isinstance(ns, Namespace):
                break
        if not isinstance(ns, Namespace):
            continue
        prefix = SHORT.get(full, full)
        for key, value in ns.members.items():
            if key.startswith("_") or isinstance(value, Namespace):
                continue
            fn = value.fn if isinstance(value, Builtin) else value
            if not callable(fn) or isinstance(fn, type):
                continue
            out[f"{prefix}.{key}"] = fn
    for key, fn in names.raw(names.METHODS).items():
        if not key.startswith("_") and callable(fn):
            out[f"Tensor.{key}"] = fn
    return out


def gradcli_params(qualified: str, fn: Any) -> list[tuple[str, str, bool]] | None:
    """gradcli's parameters as (name, kind, has a default); a method's object left out."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    params = [(p.name, KINDS[p.kind], p.default is not p.empty) for p in sig.parameters.values()]
    if qualified.startswith("Tensor.") and params and params[0][1] in ("P", "PK"):
        params = params[1:]
    return params


def compare(table: dict[str, Any], gradcli: dict[str, Any]) -> dict[str, list[str]]:
    """Where gradcli refuses what PyTorch accepts, by qualified name:

    renamed  gradcli's positional parameter i is named otherwise than PyTorch's in every
             overload that has a parameter i (`F.relu(input=x)` refused), or a keyword of
             PyTorch's at that place is not accepted
    keyword  a keyword PyTorch accepts (of a parameter gradcli has by position or not at all)
             that binding refuses; informative: many are features gradcli does not have
             (`layout=`, `pin_memory=`)
    """
    renamed: list[str] = []
    keyword: list[str] = []
    for qualified, entry in sorted(table.items()):
        fn = gradcli.get(qualified)
        if fn is None:
            continue
        mine = gradcli_params(qualified, fn)
        if mine is None:
            continue
        takes_any = any(k == "VK" for _, k, _ in mine)
        names = {n for n, k, _ in mine if k in ("PK", "K")}
        positional = [n for n, k, _ in mine if k in ("P", "PK")]
        overloads = entry["overloads"]
        theirs_by_place: dict[int, set[str]] = {}
        for ov in overloads:
            pos = [n for n, k, _ in ov if k in ("P", "PK")]
            for i, n in enumerate(pos):
                theirs_by_place.setdefault(i, set()).add(n)
        for i, n in enumerate(positional):
            if n.startswith("_"):
                continue
            theirs = theirs_by_place.get(i)
            if not theirs or n in theirs:
                # every other name PyTorch has at this place must be accepted as a keyword
                missing = sorted(t for t in (theirs or ()) if t not in names and not takes_any)
                if missing and _keyword_place(overloads, i, missing):
                    renamed.append(f"{qualified}: position {i} {n!r}, PyTorch also {missing}")
                continue
            if takes_any and all(_kw_only_positional(overloads, t) for t in theirs):
                continue
            renamed.append(f"{qualified}: position {i} {n!r}, PyTorch {sorted(theirs)}")
        if takes_any:
            continue
        # (`out=` is the interpreter's: `calls.checked_call` writes the result into it)
        wanted = sorted(
            {n for ov in overloads for n, k, _ in ov if k in ("PK", "K")} - names - {"self", "out"}
        )
        if wanted:
            keyword.append(f"{qualified}: {', '.join(wanted)}")
    return {"renamed": renamed, "keyword": keyword}


def _keyword_place(overloads: list, i: int, missing: list[str]) -> bool:
    """Whether PyTorch takes the names `missing` at place i as keywords (not positional-only)."""
    for ov in overloads:
        pos = [(n, k) for n, k, _ in ov if k in ("P", "PK")]
        if i < len(pos) and pos[i][0] in missing and pos[i][1] == "PK":
            return True
    return False


def _kw_only_positional(overloads: list, name: str) -> bool:
    return all(k == "P" for ov in overloads for n, k, _ in ov if n == name)


# --- PyTorch's side (torch needed) ------------------------------------------------------------


DEPRECATED: set[str] = set()  # the builtins that have a deprecated signature


def _stubs(path: Path, cls: str | None = None) -> dict[str, list[list[tuple[str, str, bool]]]]:
    """The overloads of each function (of class `cls`'s methods) in a torch type stub."""
    tree = ast.parse(path.read_text())
    body = tree.body
    if cls is not None:
        body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls).body
    out: dict[str, list] = {}
    for node in body:
        if not isinstance(node, ast.FunctionDef):
            continue
        a = node.args
        params: list[tuple[str, str, bool]] = []
        positional = a.posonlyargs + a.args
        first_default = len(positional) - len(a.defaults)
        for j, p in enumerate(positional):
            kind = "P" if j < len(a.posonlyargs) else "PK"
            params.append((p.arg, kind, j >= first_default))
        if a.vararg:
            params.append((a.vararg.arg, "VP", False))
        for p, d in zip(a.kwonlyargs, a.kw_defaults):
            params.append((p.arg, "K", d is not None))
        if a.kwarg:
            params.append((a.kwarg.arg, "VK", False))
        if cls is not None and params and params[0][0] == "self":
            params = params[1:]
        elif cls is None and any(n == "self" for n, _, _ in params):
            # a deprecated signature (`addcmul(self, value, tensor1, tensor2)`): not a name to
            # take, but an overload (of the method too) the parser tries
            DEPRECATED.add(node.name)
            continue
        out.setdefault(node.name, []).append(params)
    return out


def _schemas(torch: Any, op: str, method: bool) -> list[list[tuple[str, str, bool]]]:
    out = []
    for s in torch._C._jit_get_schemas_for_operator(f"aten::{op}"):
        if s.overload_name == "out" or s.overload_name.endswith("_out"):
            continue  # Python's signature has `out=` with the other (one overload)
        params = []
        for a in s.arguments:
            name = a.name
            if name == "self":
                if method:
                    continue
                name = "input"
            params.append((name, "K" if a.kwarg_only else "PK", a.has_default_value()))
        if params and all(n in ("a", "b", "c", "s", "l", "x") for n, _, _ in params):
            continue  # TorchScript's own overloads (add.t(a, b)), not Python's
        out.append(params)
    return out


def torch_table() -> dict[str, Any]:
    import importlib

    import torch

    c = Path(torch._C.__file__).parent if hasattr(torch._C, "__file__") else None
    stub_dir = Path(torch.__file__).parent / "_C"
    functions = _stubs(stub_dir / "_VariableFunctions.pyi")
    methods = _stubs(stub_dir / "__init__.pyi", "TensorBase")
    # Where torch 2.13's stub names a parameter otherwise than its C++ parser does (what a
    # keyword call meets): `requires_grad_(mode=True)` in the stub, a TypeError at run time;
    # the parser's `requires_grad_(requires_grad=True)` is what PyTorch takes.
    methods["requires_grad_"] = [[("requires_grad", "PK", True)]]
    # `torch.tensor` has no stub; TorchScript's schema takes its options by position, the
    # parser by keyword only (`torch.tensor(x, torch.float64)` is its TypeError `tensor()
    # takes 1 positional argument but 2 were given`)
    functions["tensor"] = [
        [
            ("data", "PK", False),
            ("dtype", "K", True),
            ("device", "K", True),
            ("requires_grad", "K", True),
            ("pin_memory", "K", True),
        ]
    ]
    nn_stubs = _stubs(stub_dir / "_nn.pyi")
    del c
    out: dict[str, Any] = {}
    for qualified in sorted(gradcli_callables()):
        owner, _, attr = qualified.rpartition(".")
        module_name = {"F": "torch.nn.functional", "nn": "torch.nn"}.get(owner, owner)
        try:
            if owner == "Tensor":
                obj = getattr(torch.Tensor, attr)
            else:
                obj = getattr(importlib.import_module(module_name), attr)
        except (AttributeError, ImportError):
            continue
        entry = _entry(torch, qualified, owner, attr, obj, functions, methods, nn_stubs)
        if entry is not None:
            out[qualified] = entry
        forward = getattr(obj, "forward", None) if owner == "nn" else None
        if isinstance(obj, type) and inspect.isfunction(forward):
            # a module's call: the words of its forward's (`MSELoss.forward() missing ...`)
            params = [
                (p.name, KINDS[p.kind], p.default is not p.empty)
                for p in inspect.signature(forward).parameters.values()
            ]
            out[f"{qualified}.forward"] = {
                "impl": "python",
                "shown": forward.__qualname__,
                "overloads": [params],
            }
    return out


def _entry(
    torch: Any,
    qualified: str,
    owner: str,
    attr: str,
    obj: Any,
    functions: dict,
    methods: dict,
    nn_stubs: dict,
) -> dict[str, Any] | None:
    if isinstance(obj, type):
        init = obj.__init__
        try:
            sig = inspect.signature(init)
        except (TypeError, ValueError):
            return None
        params = [
            (p.name, KINDS[p.kind], p.default is not p.empty) for p in sig.parameters.values()
        ]
        # (the name Python's errors use: the class that defines __init__, `_Loss.__init__`
        # for nn.MSELoss)
        shown = f"{obj.__name__}.__init__"
        # (nn.Module's own __init__ raises its TypeError under the class's name)
        if (
            inspect.isfunction(init)
            and init.__qualname__.endswith(".__init__")
            and init.__qualname__ != "Module.__init__"
        ):
            shown = init.__qualname__
        return {"impl": "python", "shown": shown, "overloads": [params[1:]]}
    if inspect.isfunction(obj) or inspect.ismethod(obj):
        try:
            sig = inspect.signature(obj)
        except (TypeError, ValueError):
            return None
        params = [
            (p.name, KINDS[p.kind], p.default is not p.empty) for p in sig.parameters.values()
        ]
        if owner == "Tensor" and params and params[0][0] == "self":
            params = params[1:]
        entry = {"impl": "python", "shown": obj.__qualname__, "overloads": [params]}
        if owner != "Tensor":
            entry.update(_python_first(obj, params))
        return entry
    name = getattr(obj, "__name__", attr)
    if owner == "Tensor":
        overloads = methods.get(attr) or _schemas(torch, attr, True)
    elif owner == "F" and getattr(obj, "__module__", "") == "torch._C._nn":
        # (torch/_C/_nn.pyi is partly written by hand: its one_hot takes `tensor`, the
        # parser `input`; the schemas are the parser's)
        overloads = _schemas(torch, name, False) or nn_stubs.get(name)
    else:
        overloads = functions.get(name) or _schemas(torch, name, False)
    if not overloads:
        return None
    shown = name.removeprefix("linalg_").removeprefix("special_")
    if owner in ("torch.linalg", "torch.special"):
        shown = f"{owner.rpartition('.')[2]}_{shown}"
    entry = {"impl": "C++", "shown": shown, "overloads": overloads}
    if name in DEPRECATED or name.removesuffix("_") in DEPRECATED:  # (add_ as add)
        entry["deprecated"] = True
    if owner != "Tensor":
        entry.update(_parser_types(obj))
        if len(overloads) == 1 and not entry.get("deprecated") and "options" not in entry:
            typed = _signature_types(torch, obj, overloads[0])
            if typed:
                entry["signature"] = typed
        if torch._C._should_allow_numbers_as_tensors(name):
            entry["numbers"] = True
    return entry


def _python_first(obj: Any, params: list) -> dict[str, Any]:
    """What PyTorch's Python function `obj` raises when its first argument is of a type it
    does not take (and no other is given): `first`, the exception's class and words with
    `{}` for the argument's type (`TypeError: relu(): argument 'input' (position 1) must be
    Tensor, not {}`), `first_inplace` the same with `inplace=True`, `first_tensor` with a
    tensor for a second argument."""
    import warnings

    out: dict[str, Any] = {}
    if not params or params[0][1] not in ("P", "PK", "VP"):
        return out

    import torch

    def raised(value: Any, kwargs: dict) -> str | None:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if "_tensor" in kwargs:
                    obj(value, torch.ones(2))
                else:
                    obj(value, **kwargs)
        except Exception as e:  # noqa: BLE001 - its words are what is recorded
            return f"{type(e).__name__}: {e}"
        return None

    for key, kwargs in (
        ("first", {}),
        ("first_inplace", {"inplace": True}),
        ("first_tensor", {"_tensor": True}),  # (a tensor second: `F.mse_loss(2.0, y)`)
    ):
        if "inplace" in kwargs and not any(n == "inplace" for n, _, _ in params):
            continue
        text = raised(_Odd(), kwargs)
        if text is None or "_Odd" not in text:
            continue
        if any(c in text for c in ("{", "|", "__main__", "0x")):
            continue
        template = text.replace("_Odd", "{}")
        # the kinds of values the same words are raised for: f a float, i an int, s a str
        kinds = "".join(
            k
            for k, v in (("f", 2.0), ("i", 3), ("s", "a"))
            if raised(v, kwargs) == template.format(*[type(v).__name__] * template.count("{}"))
        )
        if kinds:
            out[key] = f"{kinds}:{template}"
    return out


class _Odd:
    """A value no parameter of PyTorch's parser takes (its errors then say what it wanted)."""


def _parser_types(obj: Any) -> dict[str, Any]:
    """What PyTorch's argument parser says of `obj`'s parameters' types: `options`, the
    overloads as its "invalid combination" error lists them (the hidden, deprecated ones
    left out), when it has several; `first`, the type its first parameter must be
    (`Tensor`, `tuple of ints`), when it has one signature."""
    import re

    out: dict[str, Any] = {}
    for call in (
        lambda: obj(*[_Odd()] * 20),
        lambda: obj(**{f"odd{i}": _Odd() for i in range(20)}),
    ):
        try:
            call()
        except TypeError as e:
            text = str(e)
            if "but expected one of:\n" in text:
                listed = text.partition("but expected one of:\n")[2].splitlines()
                out["options"] = [line[3:] for line in listed if line.startswith(" * ")]
                break
            if ", but expected (" in text:
                out["options"] = [text.partition(", but expected ")[2]]
                break
        except Exception:  # noqa: BLE001, S112 - a kind of error that says nothing of types
            continue
    try:
        obj(_Odd())
    except TypeError as e:
        m = re.search(r"argument '(\w+)' \(position 1\) must be (.+), not _Odd$", str(e))
        if m:
            out["first"] = f"{m.group(2)} {m.group(1)}"
    except Exception:  # noqa: BLE001, S110 - no words of the parser's
        pass
    return out


def _signature_types(torch: Any, obj: Any, params: list) -> str | None:
    """The one signature of a C++ builtin with its parameters' types, as its parser words
    them (`(Tensor input, int dim, *, bool keepdim = None)`; a default is shown as `= None`,
    a type not found as `?`): each parameter in turn given a value no type takes, by keyword,
    after the required ones before it given a value of their type."""
    import re

    valid = {
        "Tensor": torch.ones(2),
        "int": 1,
        "float": 1.0,
        "bool": False,
        "Number": 1,
        "tuple of ints": (1,),
        "torch.dtype": torch.float32,
        "str": "mean",
    }
    types: dict[str, str] = {}
    for name, kind, _ in params:
        if kind in ("VP", "VK"):
            return None
        before = {}
        for n, _, default in params:
            if n == name:
                break
            if not default:
                if types.get(n) not in valid:
                    break
                before[n] = valid[types[n]]
        try:
            obj(**before, **{name: _Odd()})
        except TypeError as e:
            m = re.search(
                rf"argument '{name}'(?: \(position \d+\))? must be (.+), not _Odd$", str(e)
            )
            if m:
                types[name] = m.group(1)
        except Exception:  # noqa: BLE001, S110 - no words of the parser's
            pass
    items = []
    starred = False
    for name, kind, default in params:
        if kind == "K" and not starred:
            items.append("*")
            starred = True
        items.append(f"{types.get(name, '?')} {name}" + (" = None" if default else ""))
    return "(" + ", ".join(items) + ")"


def report(table: dict[str, Any]) -> str:
    found = compare(table, gradcli_callables())
    lines = [f"# {len(table)} names compared", "", "## renamed (must be empty but for ALLOWED)"]
    lines += found["renamed"]
    lines += ["", "## keywords PyTorch accepts that gradcli refuses (informative)"]
    lines += found["keyword"]
    return "\n".join(lines) + "\n"


def _params_text(params: list) -> str:
    """Parameters as Python writes them, a default as `=`: `input, dim=, *, out=`."""
    out: list[str] = []
    starred = False
    for j, (name, kind, default) in enumerate(params):
        if kind == "VP":
            out.append(f"*{name}")
            starred = True
        elif kind == "VK":
            out.append(f"**{name}")
        else:
            if kind == "K" and not starred:
                out.append("*")
                starred = True
            out.append(name + ("=" if default else ""))
            if kind == "P" and (j + 1 == len(params) or params[j + 1][1] != "P"):
                out.append("/")
    return ", ".join(out)


def runtime_table(table: dict[str, Any]) -> str:
    """gradcli/surface/torch_signatures.py: what the error path of a call needs of the table."""
    lines = []
    for qualified, entry in sorted(table.items()):
        overloads = entry["overloads"]
        shown = entry["shown"]
        if entry["impl"] == "python":
            params = overloads[0]
            if shown.endswith(".__init__") or (qualified.startswith("Tensor.") and "." in shown):
                params = [("self", "PK", False), *params]
            text = f"py {shown}({_params_text(params)})"
        elif len(overloads) == 1 and not entry.get("deprecated"):
            text = f"c {shown}({_params_text(overloads[0])})"
        else:
            text = f"c{len(overloads) + bool(entry.get('deprecated'))} {shown}"
        lines.append(f"    {json.dumps(qualified)}: {json.dumps(text)},")
    parser = []
    for qualified, entry in sorted(table.items()):
        if entry.get("options") or entry.get("first"):
            # (of one signature: the signature with its types, where found, for the first)
            value = [entry.get("signature") or entry.get("first"), *entry.get("options", ())]
            text = "|".join(v or "" for v in value)
            # (one string a line, quoted as ruff format quotes it)
            quoted = repr(text) if '"' in text and "'" not in text else json.dumps(text)
            parser.append(f"    {json.dumps(qualified)}: {quoted},")
    numbers = sorted({e["shown"] for e in table.values() if e.get("numbers")})
    first = []
    for qualified, entry in sorted(table.items()):
        owner = qualified.rpartition(".")[0]
        probed = owner in ("torch", "F", "torch.linalg", "torch.special")
        keys = ("first", "first_inplace", "first_tensor")
        if probed and entry["impl"] == "python" and any(entry.get(k) for k in keys):
            text = "|".join(entry.get(k, "") for k in keys)
            quoted = repr(text) if '"' in text and "'" not in text else json.dumps(text)
            first.append(f"    {json.dumps(qualified)}: {quoted},")
    return (
        "# ruff: noqa: E501 - one name a line\n"
        '"""How PyTorch 2.13 binds a call of each name gradcli has (GENERATED by\n'
        "tests/surface/data/signatures/record.py: do not edit): `py QUALNAME(PARAMS)` a Python\n"
        "function (Python's words for a call that does not fit), `c NAME(PARAMS)` a C++ builtin\n"
        "of one signature (its argument parser's words), `cN NAME` one of N overloads. A\n"
        "default is `=`; a method's object is not among a C++ method's parameters.\n"
        '"""\n\n'
        "SIGNATURES = {\n" + "\n".join(lines) + "\n}\n\n"
        "# What PyTorch's argument parser says of a C++ builtin's types, `|` between: the type\n"
        "# and name of its first parameter (as it words a call of a wrong one alone), then its\n"
        "# overloads as its 'invalid combination' error lists them (where it has several)\n"
        "PARSER = {\n" + "\n".join(parser) + "\n}\n\n"
        "# The builtins whose parser takes a Python number where it wants a tensor\n"
        "NUMBERS_AS_TENSORS = frozenset(\n    {\n"
        + "".join(f"        {json.dumps(n)},\n" for n in numbers)
        + "    }\n)\n\n"
        "# What a Python function of PyTorch's raises when its first argument is of a type it\n"
        "# does not take (`{}` its type), then `|` and the same with inplace=True, then with a\n"
        "# tensor for a second argument\n"
        "PYTHON_FIRST = {\n" + "\n".join(first) + "\n}\n"
    )


def main() -> None:
    sys.path.insert(0, str(ROOT))
    table = torch_table()
    lines = [f"{json.dumps(k)}: {json.dumps(table[k], sort_keys=True)}" for k in sorted(table)]
    (HERE / "torch.json").write_text("{\n" + ",\n".join(lines) + "\n}\n")
    (HERE / "report.txt").write_text(report(table))
    (ROOT / "gradcli" / "surface" / "torch_signatures.py").write_text(runtime_table(table))
    print(f"{len(table)} names; see {HERE / 'report.txt'}")


if __name__ == "__main__":
    main()
