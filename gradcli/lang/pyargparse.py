"""Python's `argparse` as training scripts use it: a parser whose options carry the script's
settings (`parser.add_argument("--lr", type=float, default=0.01)`), read by `parse_args()`.

A gradcli program has no command line, so `parse_args()` sees what a script run without
arguments sees (unless the program set `sys.argv`, as notebooks do): every setting its
default (converted by `type` when the default is a string, as Python does). An explicit list
(`parse_args(["--lr", "0.1"])`, `parse_args("--lr 0.1".split())`) is parsed as Python 3.11
parses it: long options with `=` or a separate value, unique prefixes of long options, short
options, positionals, `nargs`, `choices`, `required`, the store/append/count actions. The
result prints as Python's `Namespace(...)`. A parse error stops the run with Python's words
(`prog: error: ...`; Python exits with 2). Help text is accepted and never shown:
`print_help()` is refused, with what to write instead.
"""

from __future__ import annotations

import re
from typing import Any

from ..base import limits
from ..base.errors import GradcliError, NotSupported
from .pynamespace import ArgNamespace as Namespace
from .pynamespace import SimpleNamespace
from .values import Builtin

SUPPRESS = "==SUPPRESS=="
OPTIONAL = "?"
ZERO_OR_MORE = "*"
ONE_OR_MORE = "+"
REMAINDER = "..."

_ACTIONS = (
    "store",
    "store_const",
    "store_true",
    "store_false",
    "append",
    "append_const",
    "extend",
    "count",
    "help",
    "version",
)
# A parser's size, bounded so that matching a command line (regular expressions over the
# positionals, built again for each count of them: quadratic) stays well under a second.
MAX_ARGUMENTS = 1000
MAX_POSITIONALS = 100
MAX_NARGS = 1000
_NEGATIVE_NUMBER = re.compile(r"^-\d+$|^-\d*\.\d+$")


def _plain_name(name: Any) -> None:
    if not isinstance(name, str):
        raise GradcliError(f"attribute name must be string, not '{type(name).__name__}'").mirror(
            "TypeError"
        )
    if name.startswith("__") and name.endswith("__"):
        raise GradcliError(
            f"argparse attribute `{name}` is not supported in gradcli programs",
            hint="give the setting a plain name: parser.add_argument('--lr')",
        )


def _namespace(**kwargs: Any) -> Namespace:
    for name in kwargs:
        _plain_name(name)
    limits.LIST_ITEMS.check(len(kwargs), "the number of attributes of a Namespace")
    return Namespace(dict(kwargs))


# What an argument keeps of add_argument's keywords (besides its action and dest)
_SETTINGS = ("nargs", "const", "default", "type", "choices", "required", "metavar")


class _Action:
    """One `add_argument`: its option strings (empty for a positional) and settings."""

    __slots__ = ("flags", "dest", "action", *_SETTINGS)

    def __init__(self, flags: list[str], dest: str, action: str, settings: dict[str, Any]):
        self.flags = flags
        self.dest = dest
        self.action = action
        self.nargs = settings.get("nargs")
        self.const = settings.get("const")
        self.default = settings.get("default")
        self.type = settings.get("type")
        self.choices = settings.get("choices")
        # Python 3.11: a positional is required unless it is `?`, or `*` with a default
        positional_required = self.nargs not in ("?", "*") or (
            self.nargs == "*" and "default" not in settings
        )
        self.required = bool(settings.get("required", not flags and positional_required))
        self.metavar = settings.get("metavar")

    def shown(self) -> str:
        """The argument as Python's messages name it: `--lr/-l`, or a positional's name."""
        if self.flags:
            return "/".join(self.flags)
        if self.metavar is not None:
            return str(self.metavar)
        return self.dest


def _error(parser: ArgumentParser, message: str) -> GradcliError:
    return GradcliError(
        f"{parser.prog}: error: {message}",
        hint="argparse stops the script here (Python exits with status 2)",
    ).mirror(None)


class ArgumentParser:
    """`argparse.ArgumentParser(description=...)`: its arguments in the order added."""

    PROGRAM_ATTRIBUTES = (
        "add_argument",
        "add_argument_group",
        "add_mutually_exclusive_group",
        "set_defaults",
        "get_default",
        "parse_args",
        "parse_known_args",
        "print_help",
        "print_usage",
        "format_help",
        "error",
        "prog",
        "description",
    )

    def __init__(self, prog: Any = None, description: Any = None, **settings: Any) -> None:
        for name in settings:
            if name not in (
                "usage",
                "epilog",
                "parents",
                "formatter_class",
                "prefix_chars",
                "fromfile_prefix_chars",
                "argument_default",
                "conflict_handler",
                "add_help",
                "allow_abbrev",
                "exit_on_error",
            ):
                raise GradcliError(
                    f"ArgumentParser.__init__() got an unexpected keyword argument '{name}'"
                ).mirror("TypeError")
        if settings.get("prefix_chars", "-") != "-" or settings.get("fromfile_prefix_chars"):
            raise NotSupported(
                "ArgumentParser's prefix_chars and fromfile_prefix_chars are not supported",
                hint="use options that start with '-'",
            )
        if prog is None:
            from .values import current

            rt = current()
            name = str(rt.argv[0]) if rt.argv else rt.program.source.name
            prog = name.replace("\\", "/").rsplit("/", 1)[-1]
        self.prog = prog
        self.description = description
        self.allow_abbrev = bool(settings.get("allow_abbrev", True))
        self.actions: list[_Action] = []
        self.defaults: dict[str, Any] = {}
        for parent in settings.get("parents") or ():
            if not isinstance(parent, ArgumentParser):
                raise GradcliError("parents must be ArgumentParser objects").mirror("TypeError")
            self.actions += parent.actions
            self.defaults.update(parent.defaults)

    def program_typename(self) -> str:
        return "argparse.ArgumentParser"

    def program_repr(self, item: Any) -> str:
        return (
            f"ArgumentParser(prog={item(self.prog)}, usage=None, description="
            f"{item(self.description)}, formatter_class=<class 'argparse.HelpFormatter'>, "
            "conflict_handler='error', add_help=True)"
        )

    def add_argument(self, *names: Any, **settings: Any) -> None:
        for name in settings:
            if name not in _SETTINGS and name not in ("action", "dest", "help", "version"):
                raise GradcliError(
                    f"_StoreAction.__init__() got an unexpected keyword argument '{name}'"
                ).mirror("TypeError")
        if not names or not all(isinstance(n, str) and n for n in names):
            raise GradcliError("add_argument needs a name or option strings, as 'lr' or '--lr'")
        flags = [n for n in names if n.startswith("-")]
        if flags and len(flags) != len(names):
            raise GradcliError(
                f"invalid option string {names[0]!r}: must start with a character '-'"
            ).mirror("ValueError")
        if not flags and len(names) > 1:
            raise GradcliError("dest supplied twice for positional argument").mirror("ValueError")
        if flags:
            long = [f for f in flags if f.startswith("--")]
            dest = settings.get("dest") or (long or flags)[0].lstrip("-").replace("-", "_")
        else:
            if "dest" in settings:
                raise GradcliError("dest supplied twice for positional argument").mirror(
                    "ValueError"
                )
            dest = names[0]
        _plain_name(dest)
        action = settings.get("action", "store")
        if action is BOOLEAN_OPTIONAL:
            action = "boolean_optional"
            flags = flags + [f"--no-{f[2:]}" for f in flags if f.startswith("--")]
        elif action not in _ACTIONS:
            raise NotSupported(
                f"argparse action {action!r} is not supported",
                hint="use one of " + ", ".join(repr(a) for a in _ACTIONS),
            )
        nargs = settings.get("nargs")
        if nargs == REMAINDER or (nargs not in (None, "?", "*", "+") and not _count(nargs)):
            raise NotSupported(
                f"nargs={nargs!r} is not supported", hint="use None, '?', '*', '+' or a number"
            )
        if action == "help" or action == "version":
            return None  # -h and --version print and exit in Python: a run never asks for them
        defaults = {"store_true": False, "store_false": True, "count": None}
        if action in defaults and "default" not in settings:
            settings = {**settings, "default": defaults[action]}
        if action in ("store_true", "store_false"):
            settings = {**settings, "nargs": 0, "const": action == "store_true"}
        if action == "count" or action == "boolean_optional":
            settings = {**settings, "nargs": 0}
        if action in ("store_const", "append_const"):
            settings = {**settings, "nargs": 0}
        if dest in self.defaults and "default" not in settings:
            settings = {**settings, "default": self.defaults[dest]}
        if _count(nargs) and nargs > MAX_NARGS:
            raise NotSupported(
                f"nargs={nargs} is not supported: gradcli's argparse takes at most {MAX_NARGS}",
                hint="take the values as one string and split it: type=str, then .split()",
            )
        positional = sum(not a.flags for a in self.actions) + (not flags)
        if len(self.actions) >= MAX_ARGUMENTS or positional > MAX_POSITIONALS:
            raise NotSupported(
                f"a parser of more than {MAX_ARGUMENTS} arguments ({MAX_POSITIONALS} "
                "positional) is not supported by gradcli",
                hint="keep the settings in a dict or a list",
            )
        self.actions.append(_Action(flags, dest, action, settings))
        return None

    def add_argument_group(self, *args: Any, **kwargs: Any) -> ArgumentParser:
        return self  # a group only changes the help text

    def add_mutually_exclusive_group(self, *args: Any, **kwargs: Any) -> ArgumentParser:
        return self

    def set_defaults(self, **kwargs: Any) -> None:
        for name in kwargs:
            _plain_name(name)
        limits.LIST_ITEMS.check(len(self.defaults) + len(kwargs), "the number of defaults")
        self.defaults.update(kwargs)
        for a in self.actions:
            if a.dest in kwargs:
                a.default = kwargs[a.dest]

    def get_default(self, dest: str) -> Any:
        for a in self.actions:
            if a.dest == dest and a.default is not None:
                return a.default
        return self.defaults.get(dest)

    def print_help(self, *args: Any, **kwargs: Any) -> None:
        raise NotSupported(
            "argparse's help text is not supported by gradcli",
            hint="print the settings instead: print(parser.parse_args())",
        )

    print_usage = format_help = print_help

    def error(self, message: Any) -> None:
        raise _error(self, str(message))

    def parse_args(self, args: Any = None, namespace: Any = None) -> Namespace:
        ns, extra = self.parse_known_args(args, namespace)
        if extra:
            raise _error(self, "unrecognized arguments: " + " ".join(extra))
        return ns

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> tuple[Any, list]:
        from .values import seq

        if args is None:  # the command line: the program's name, unless it set sys.argv
            from .values import current

            args = (current().argv or [None])[1:]
        tokens = seq(args, "the arguments to parse")
        for t in tokens:
            if not isinstance(t, str):
                raise GradcliError(
                    f"expected string or bytes-like object, got '{type(t).__name__}'"
                ).mirror("TypeError")
        ns = namespace if namespace is not None else Namespace({})
        if not isinstance(ns, SimpleNamespace):
            raise NotSupported(
                "parse_args(namespace=...) takes an argparse.Namespace in gradcli programs"
            )
        for a in self.actions:
            if a.dest not in ns.attrs and a.default != SUPPRESS:
                ns.program_set(a.dest, a.default)
        for dest, value in self.defaults.items():
            if dest not in ns.attrs:
                ns.program_set(dest, value)
        seen: set[int] = set()
        extra = self._consume(tokens, ns, seen)
        missing = [a.shown() for i, a in enumerate(self.actions) if a.required and i not in seen]
        if missing:
            raise _error(self, "the following arguments are required: " + ", ".join(missing))
        for i, a in enumerate(self.actions):
            # Python converts a string default by the type, once, when the option was absent
            if i not in seen and isinstance(a.default, str) and ns.attrs.get(a.dest) is a.default:
                ns.program_set(a.dest, self._convert(a, a.default, choices=False))
        return ns, extra

    # -- parsing ---------------------------------------------------------------------------

    def _option(self, token: str) -> tuple[_Action, str, str | None] | None:
        """The action an option token names (exact, `--opt=value`, or a unique prefix)."""
        flag, _, attached = token.partition("=")
        value = attached if "=" in token else None
        for a in self.actions:
            if flag in a.flags:
                return a, flag, value
        if not token.startswith("--") and len(token) > 2:
            for a in self.actions:  # `-lr0.1` or `-x3`: a short option with its value attached
                if token[:2] in a.flags:
                    return a, token[:2], token[2:]
        if self.allow_abbrev and token.startswith("--"):
            found = [(a, f) for a in self.actions for f in a.flags if f.startswith(flag)]
            if len(found) > 1:
                names = ", ".join(f for _, f in found)
                raise _error(self, f"ambiguous option: {flag} could match {names}")
            if found:
                return found[0][0], found[0][1], value
        return None

    def _is_option(self, token: str) -> bool:
        if not token.startswith("-") or token == "-":
            return False
        if _NEGATIVE_NUMBER.match(token):
            return any(_NEGATIVE_NUMBER.match(f) for a in self.actions for f in a.flags)
        return True

    def _consume(self, tokens: list[str], ns: Namespace, seen: set[int]) -> list[str]:
        """Python 3.11's parse: the command line as a pattern of options (O), values (A) and
        `--` (-); between options, as many positionals as the values there can match, each by
        its nargs as a regular expression; an option takes the values its nargs matches."""
        kinds: list[str] = []
        for t in tokens:
            if kinds and kinds[-1] in "-a":
                kinds.append("a")  # everything after `--` is a value
            else:
                kinds.append("-" if t == "--" else "O" if self._is_option(t) else "A")
        kinds = ["A" if k == "a" else k for k in kinds]
        pattern = "".join(kinds)
        positionals = [a for a in self.actions if not a.flags]
        extras: list[str] = []

        def positionals_from(start: int) -> int:
            counts = _match_partial(positionals, pattern[start:])
            for a, count in zip(positionals, counts):
                values = tokens[start : start + count]
                if "--" in values:
                    values.remove("--")
                start += count
                seen.add(self.actions.index(a))
                self._store(a, a.dest, values, ns)
            del positionals[: len(counts)]
            return start

        def option_at(start: int) -> int:
            token = tokens[start]
            found = self._option(token)
            if found is None:
                extras.append(token)
                return start + 1
            a, flag, value = found
            while value is not None:  # `--lr=0.1`, `-b16`, and `-vv`: short flags together
                seen.add(self.actions.index(a))
                if a.nargs != 0:
                    self._store(a, flag, [value], ns)
                    return start + 1
                self._take(a, flag, None, ns)
                found = self._option("-" + value) if not flag.startswith("--") else None
                if found is None or len(flag) != 2:
                    raise _error(self, f"argument {a.shown()}: ignored explicit argument {value!r}")
                a, flag, value = found
            seen.add(self.actions.index(a))
            count = _match_option(a.nargs, pattern[start + 1 :])
            if count is None:
                raise _error(self, f"argument {a.shown()}: {_expected(a.nargs)}")
            self._store(a, flag, tokens[start + 1 : start + 1 + count], ns)
            return start + 1 + count

        options = [i for i, k in enumerate(kinds) if k == "O"]
        start = 0
        while options and start <= options[-1]:
            following = min(i for i in options if i >= start)
            if start != following:
                end = positionals_from(start)
                if end > start:
                    start = end
                    continue
            if start not in options:
                extras += tokens[start:following]
                start = following
            start = option_at(start)
        end = positionals_from(start)
        return extras + tokens[end:]

    def _store(self, a: _Action, flag: str, values: list[str], ns: Namespace) -> None:
        need = a.nargs
        if not values and need == "?":  # an option's const, a positional's default
            value: Any = a.const if a.flags else a.default
            self._take(a, flag, self._convert(a, value) if isinstance(value, str) else value, ns)
            return
        if not values and need == "*" and not a.flags:
            self._take(a, flag, [] if a.default is None else a.default, ns)
            return
        converted = [self._convert(a, v) for v in values]
        if need is None:
            value = converted[0]
        elif need == "?":
            value = converted[0]
        elif need == 0:
            value = None
        else:
            value = converted
        self._take(a, flag, value, ns)

    def _take(self, a: _Action, flag: str, value: Any, ns: Namespace) -> None:
        if a.action in ("store", "store_const", "store_true", "store_false"):
            ns.program_set(a.dest, a.const if a.nargs == 0 else value)
        elif a.action == "boolean_optional":
            ns.program_set(a.dest, not flag.startswith("--no-"))
        elif a.action == "count":
            current = ns.attrs.get(a.dest)
            ns.program_set(a.dest, (0 if current is None else current) + 1)
        else:  # append, append_const, extend: onto a copy of the default list
            items = list(ns.attrs.get(a.dest) or [])
            if a.action == "append_const":
                items.append(a.const)
            elif a.action == "extend":
                items.extend(value)
            else:
                items.append(value)
            limits.LIST_ITEMS.check(len(items), "the length of a list")
            ns.program_set(a.dest, items)

    def _convert(self, a: _Action, text: str, choices: bool = True) -> Any:
        value: Any = text
        if a.type is not None:
            from .values import current

            try:
                value = current().call(a.type, [text], {}, None)
            except GradcliError as e:
                if e.python_class not in ("ValueError", "TypeError"):
                    raise
                name = _type_name(a.type)
                raise _error(self, f"argument {a.shown()}: invalid {name} value: {text!r}") from e
        if choices and a.choices is not None:
            from .operators import contains

            if not contains(a.choices, value):
                from .text import to_repr

                shown = ", ".join(to_repr(c) for c in a.choices)
                raise _error(
                    self,
                    f"argument {a.shown()}: invalid choice: {to_repr(value)} (choose from {shown})",
                )
        return value


_NARGS = {None: "(-*A-*)", "?": "(-*A?-*)", "*": "(-*[A-]*)", "+": "(-*A[A-]*)"}


def _nargs_pattern(nargs: Any) -> str:
    if nargs in _NARGS:
        return _NARGS[nargs]
    return "(-*" + "-*".join("A" * nargs) + "-*)"


def _match_partial(actions: list[_Action], pattern: str) -> list[int]:
    """How many values each of the first positionals takes: as many of them as can match."""
    for n in range(len(actions), 0, -1):
        found = re.match("".join(_nargs_pattern(a.nargs) for a in actions[:n]), pattern)
        if found is not None:
            return [len(g) for g in found.groups()]
    return []


def _match_option(nargs: Any, pattern: str) -> int | None:
    """How many values an option takes from the pattern that follows it (None: too few)."""
    found = re.match(_nargs_pattern(nargs).replace("-*", "").replace("-", ""), pattern)
    return None if found is None else len(found.group(1))


def _expected(nargs: Any) -> str:
    if nargs is None:
        return "expected one argument"
    if nargs == "?":
        return "expected at most one argument"
    if nargs == "+":
        return "expected at least one argument"
    return f"expected {nargs} argument" + ("" if nargs == 1 else "s")


def _count(nargs: Any) -> bool:
    return type(nargs) is int and nargs >= 0


def _type_name(t: Any) -> str:
    name = getattr(t, "name", None)
    return name if isinstance(name, str) else "type"


class _BooleanOptional:
    def __repr__(self) -> str:
        return "<class 'argparse.BooleanOptionalAction'>"


BOOLEAN_OPTIONAL = _BooleanOptional()


def members() -> dict[str, Any]:
    """The members of the `argparse` namespace gradcli gives."""
    return {
        "ArgumentParser": Builtin("argparse.ArgumentParser", ArgumentParser),
        "Namespace": Builtin("argparse.Namespace", _namespace),
        "BooleanOptionalAction": BOOLEAN_OPTIONAL,
        "SUPPRESS": SUPPRESS,
        "OPTIONAL": OPTIONAL,
        "ZERO_OR_MORE": ZERO_OR_MORE,
        "ONE_OR_MORE": ONE_OR_MORE,
        "REMAINDER": REMAINDER,
        "ArgumentDefaultsHelpFormatter": Builtin("argparse.ArgumentDefaultsHelpFormatter", _fmt),
        "RawTextHelpFormatter": Builtin("argparse.RawTextHelpFormatter", _fmt),
        "RawDescriptionHelpFormatter": Builtin("argparse.RawDescriptionHelpFormatter", _fmt),
        "HelpFormatter": Builtin("argparse.HelpFormatter", _fmt),
    }


def _fmt(*args: Any, **kwargs: Any) -> None:
    raise NotSupported("argparse's help formatters are not supported by gradcli")
