"""Named safety limits. Each can be raised with an environment variable `GRADCLI_<NAME>`.

A program is untrusted text: these keep a hostile or mistaken one from hanging the machine or
exhausting its memory. Each is checked before the work it guards is done.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from .errors import LimitError


@dataclass
class Limit:
    name: str
    default: int
    what: str

    @property
    def env(self) -> str:
        return f"GRADCLI_{self.name.upper()}"

    @property
    def value(self) -> int:
        raw = os.environ.get(self.env)
        if raw:
            try:
                return max(1, int(raw))
            except ValueError:
                pass
        return self.default

    def check(self, amount: int, what: str | None = None) -> None:
        if amount > self.value:
            raise LimitError(
                f"{what or self.what} is {amount:,}, over the limit of {self.value:,}",
                found=f"{amount:,}",
                expected=f"at most {self.value:,} ({self.name})",
                hint=f"raise it with the environment variable {self.env}=N if you need more",
            )


SOURCE_BYTES = Limit("source_bytes", 1_000_000, "program size in bytes")
NESTING = Limit("nesting", 100, "expression nesting depth")
TENSOR_ELEMENTS = Limit("tensor_elements", 10_000_000, "number of elements in a tensor")
LOOP_ITERATIONS = Limit("loop_iterations", 1_000_000, "total loop iterations")
GRAPH_NODES = Limit("graph_nodes", 2_000_000, "number of operations recorded")
JACOBIAN_ENTRIES = Limit("jacobian_entries", 25_000_000, "number of Jacobian entries")
SYMPY_ELEMENTS = Limit("sympy_elements", 400, "number of tensor elements for sympy")
INT_BITS = Limit("int_bits", 256, "size of an integer in bits")
CALL_DEPTH = Limit("call_depth", 50, "depth of user function calls")

ALL = [
    SOURCE_BYTES,
    NESTING,
    TENSOR_ELEMENTS,
    LOOP_ITERATIONS,
    GRAPH_NODES,
    JACOBIAN_ENTRIES,
    SYMPY_ELEMENTS,
    INT_BITS,
    CALL_DEPTH,
]
