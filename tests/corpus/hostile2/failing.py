# ruff: noqa: E501  (generated: one case a line)
"""The cases that fail today, each with its symptom: the to-do list of issue 9.

The harness runs them as xfails, strict unless the symptom is memory or time (those
depend on the machine). Remove an entry when its case passes
(`python -m tests.corpus.hostile2.report --write-failing` rewrites this file).
"""

from __future__ import annotations

FAILING: dict[str, str] = {
    "dtype_object_to": "exit: status 0, expected [1] (exit 0, 0.1 s, peak 32 MiB)",
    "dtype_object_one_hot_to": "exit: status 0, expected [1] (exit 0, 0.1 s, peak 32 MiB)",
    "print_list_of_ranges": "hang: killed after 6.5 s (killed (timeout) (signal 9), 6.5 s, peak 207 MiB)",
    "zip_of_many_ranges": "memory: peak 2,837 MiB, over 1 GiB (exit 0, 6.0 s, peak 2837 MiB)",
    "clamp_inplace_broadcast": "memory: peak 1,566 MiB, over 1 GiB (exit 1, 3.3 s, peak 1566 MiB)",
    "logsumexp_over_empty": "memory: peak 1,558 MiB, over 1 GiB (exit 1, 0.7 s, peak 1558 MiB)",
    "norm_over_empty": "memory: peak 1,558 MiB, over 1 GiB (exit 1, 0.8 s, peak 1558 MiB)",
    "var_over_empty": "memory: peak 1,558 MiB, over 1 GiB (exit 1, 0.6 s, peak 1558 MiB)",
    "any_over_empty": "exit: status 0, expected [1] (exit 0, 0.2 s, peak 223 MiB)",
    "one_hot_huge_classes": "memory: peak 1,558 MiB, over 1 GiB (exit 0, 0.9 s, peak 1558 MiB)",
    "one_hot_enormous_classes": "message: 'prog.py:3:5: error: out of memory' says none of ('over the limit', 'limit of', 'the time limit') (exit 1, 0.2 s, peak 32 MiB)",
    "int_matmul": "hang: killed after 6.5 s (killed (timeout) (signal 9), 6.5 s, peak 84 MiB)",
    "int_matmul_bmm": "hang: killed after 6.5 s (killed (timeout) (signal 9), 6.5 s, peak 102 MiB)",
    "memory_growth_to_budget": "memory: peak 1,100 MiB, over 1 GiB (exit 1, 2.5 s, peak 1100 MiB)",
    "stdout_file_too_large": "exit: status 70, expected [1] (exit 70, 0.3 s, peak 40 MiB)",
    "time_backward_int_matmul": "hang: killed after 7.0 s (killed (timeout) (signal 9), 7.0 s, peak 133 MiB)",
    "math_floor_1e308": "exit: status 0, expected [1] (exit 0, 0.2 s, peak 32 MiB)",
    "math_ceil_1e308": "exit: status 0, expected [1] (exit 0, 0.2 s, peak 32 MiB)",
    "math_floor_negative": "exit: status 0, expected [1] (exit 0, 0.1 s, peak 32 MiB)",
    "round_1e308": "exit: status 0, expected [1] (exit 0, 0.1 s, peak 32 MiB)",
    "floor_then_use": "exit: status 0, expected [1] (exit 0, 0.2 s, peak 32 MiB)",
    "tensor_int64_overflow": "message: 'prog.py:3:5: error: expected a rectangular nested list (every row the same length)' says none of ('overflow', 'out of range', 'too large') (exit 1, 0.2 s, peak 32 MiB)",
    "tensor_int64_underflow": "message: 'prog.py:3:5: error: expected a rectangular nested list (every row the same length)' says none of ('overflow', 'out of range', 'too large') (exit 1, 0.2 s, peak 32 MiB)",
    "tensor_int_default_overflow": "exit: status 0, expected [1] (exit 0, 0.1 s, peak 32 MiB)",
    "tensor_int_scalar_overflow": "exit: status 0, expected [1] (exit 0, 0.1 s, peak 32 MiB)",
}
