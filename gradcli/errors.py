"""One error family for everything a user can get wrong.

A `GradcliError` carries what went wrong, where (a `Span` into the program's source, when
there is one), what was found, what was expected and a hint. Only the CLI turns it into an
exit status; the library raises it.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Source:
    """A program's text and the name to show for it (a path, `<-e>` or `<stdin>`)."""

    text: str
    name: str = "<program>"

    def line(self, lineno: int) -> str:
        lines = self.text.splitlines()
        return lines[lineno - 1] if 1 <= lineno <= len(lines) else ""

    def span(self, node: object) -> Span | None:
        """The span of an `ast` node. `ast` columns count UTF-8 bytes; a Span counts characters."""
        lineno = getattr(node, "lineno", None)
        if lineno is None:
            return None
        end_lineno = getattr(node, "end_lineno", None) or lineno
        col = _char_col(self.line(lineno), getattr(node, "col_offset", 0) or 0)
        end = getattr(node, "end_col_offset", None)
        if end_lineno == lineno and end is not None:
            end_col = _char_col(self.line(lineno), end)
        else:
            end_col = len(self.line(lineno))
        return Span(self, lineno, col, max(end_col, col + 1))


def _char_col(line: str, byte_col: int) -> int:
    return len(line.encode("utf-8")[:byte_col].decode("utf-8", errors="ignore"))


@dataclass(frozen=True)
class Span:
    """A place in a source: 1-based line, 0-based character columns [col, end_col)."""

    source: Source
    line: int
    col: int
    end_col: int

    def where(self) -> str:
        return f"{self.source.name}:{self.line}:{self.col + 1}"


class GradcliError(Exception):
    """Anything the user got wrong. `exit_code` 1 (program or input) unless a subclass says."""

    exit_code = 1

    def __init__(
        self,
        message: str,
        *,
        span: Span | None = None,
        found: str | None = None,
        expected: str | None = None,
        hint: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.span = span
        self.found = found
        self.expected = expected
        self.hint = hint

    def with_span(self, span: Span | None) -> GradcliError:
        """Attach a span if the error does not have one yet (errors raised deep in the engine
        learn their position from the statement that was running)."""
        if self.span is None and span is not None:
            self.span = span
        return self

    def format(self) -> str:
        """The whole message as plain text: location, source line with a caret, details."""
        head = f"error: {self.message}"
        if self.span is not None:
            head = f"{self.span.where()}: {head}"
        out = [head]
        if self.span is not None:
            text = self.span.source.line(self.span.line)
            if text.strip():
                num = str(self.span.line)
                pad = " " * len(num)
                width = max(1, min(self.span.end_col, len(text)) - self.span.col)
                out.append(f" {num} | {text}")
                out.append(f" {pad} | {' ' * self.span.col}{'^' * width}")
        for label, value in (
            ("found", self.found),
            ("expected", self.expected),
            ("hint", self.hint),
        ):
            if value:
                out.append(f"  {label}: {value}")
        return "\n".join(out)

    def __str__(self) -> str:
        return self.message


class UsageError(GradcliError):
    """The command line itself is wrong (exit status 2, as click uses)."""

    exit_code = 2


class LimitError(GradcliError):
    """A named safety limit was reached."""


def suggest(name: str, candidates: Iterable[str]) -> str | None:
    """`did you mean ...?` for a misspelt name, or None."""
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else None
