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
    "clamp_inplace_broadcast": "memory: peak 1,566 MiB, over 1 GiB (exit 1, 3.3 s, peak 1566 MiB)",
    "add_inplace_broadcast": "memory: peak 1,566 MiB, over 1 GiB (exit 1, 3.3 s, peak 1566 MiB)",
    "logsumexp_over_empty": "memory: peak 1,558 MiB, over 1 GiB (exit 1, 0.7 s, peak 1558 MiB)",
    "norm_over_empty": "memory: peak 1,558 MiB, over 1 GiB (exit 1, 0.8 s, peak 1558 MiB)",
    "var_over_empty": "memory: peak 1,558 MiB, over 1 GiB (exit 1, 0.6 s, peak 1558 MiB)",
    "any_over_empty": "exit: status 0, expected [1] (exit 0, 0.2 s, peak 223 MiB)",
    "one_hot_huge_classes": "memory: peak 1,558 MiB, over 1 GiB (exit 0, 0.9 s, peak 1558 MiB)",
    "one_hot_enormous_classes": "message: 'prog.py:3:5: error: out of memory' says none of ('over the limit', 'limit of', 'the time limit') (exit 1, 0.2 s, peak 32 MiB)",
    "int_matmul": "hang: killed after 6.5 s (killed (timeout) (signal 9), 6.5 s, peak 84 MiB)",
    "int_matmul_bmm": "hang: killed after 6.5 s (killed (timeout) (signal 9), 6.5 s, peak 102 MiB)",
    "memory_growth_to_budget": "memory: peak 1,100 MiB, over 1 GiB (exit 1, 2.5 s, peak 1100 MiB)",
    "grad_json_99MB_spaces": "memory: peak 1,530 MiB, over 1 GiB (killed (timeout) (signal 9), 6.5 s, peak 1530 MiB)",
    "grad_json_99MB_empty_lists": "memory: peak 1,922 MiB, over 1 GiB (exit 1, 4.3 s, peak 1922 MiB)",
    "grad_json_99MB_nested_empty": "memory: peak 2,332 MiB, over 1 GiB (killed (timeout) (signal 9), 6.6 s, peak 2332 MiB)",
    "grad_json_99MB_numbers": "memory: peak 1,922 MiB, over 1 GiB (exit 1, 4.5 s, peak 1922 MiB)",
    "grad_json_99MB_digits": "memory: peak 1,922 MiB, over 1 GiB (exit 1, 2.1 s, peak 1922 MiB)",
    "grad_csv_99MB_one_row": "hang: killed after 6.6 s (killed (timeout) (signal 9), 6.6 s, peak 775 MiB)",
    "grad_csv_99MB_rows": "hang: killed after 6.6 s (killed (timeout) (signal 9), 6.6 s, peak 896 MiB)",
    "set_json_99MB_spaces": "memory: peak 1,072 MiB, over 1 GiB (killed (timeout) (signal 9), 6.5 s, peak 1072 MiB)",
    "program_fifo": "hang: killed after 6.5 s (killed (timeout) (signal 9), 6.5 s, peak 32 MiB)",
    "program_symlink_fifo": "hang: killed after 6.5 s (killed (timeout) (signal 9), 6.5 s, peak 32 MiB)",
    "program_stdin_closed": "exit: status 70, expected [1] (exit 70, 0.1 s, peak 32 MiB)",
    "dev_full_stdout_backward": "exit: status 120, expected [1] (exit 120, 0.1 s, peak 32 MiB)",
    "dev_full_stdout_forward": "exit: status 120, expected [1] (exit 120, 0.1 s, peak 33 MiB)",
    "dev_full_stdout_graph": "exit: status 120, expected [1] (exit 120, 0.1 s, peak 33 MiB)",
    "dev_full_stdout_export": "exit: status 120, expected [1] (exit 120, 0.2 s, peak 33 MiB)",
    "dev_full_stdout_jacobian": "exit: status 120, expected [1] (exit 120, 0.2 s, peak 33 MiB)",
    "dev_full_stdout_hessian": "exit: status 120, expected [1] (exit 120, 0.2 s, peak 33 MiB)",
    "dev_full_stdout_hvp": "exit: status 120, expected [1] (exit 120, 0.2 s, peak 34 MiB)",
    "dev_full_stdout_symbolic": "exit: status 120, expected [1] (exit 120, 0.5 s, peak 69 MiB)",
    "dev_full_stdout_run_print": "exit: status 120, expected [1] (exit 120, 0.2 s, peak 32 MiB)",
    "closed_stdout_run_print": "exit: status 70, expected [1] (exit 70, 0.1 s, peak 32 MiB)",
    "closed_stdout_backward": "exit: status 70, expected [1] (exit 70, 0.2 s, peak 32 MiB)",
    "closed_stdout_export": "exit: status 70, expected [1] (exit 70, 0.2 s, peak 32 MiB)",
    "closed_stdout_version": "traceback: a Python traceback was printed (exit 1, 0.1 s, peak 17 MiB)",
    "stdout_file_too_large": "exit: status 70, expected [1] (exit 70, 0.3 s, peak 40 MiB)",
    "time_backward_int_matmul": "hang: killed after 7.0 s (killed (timeout) (signal 9), 7.0 s, peak 133 MiB)",
    "tensor_int64_overflow": "message: 'prog.py:3:5: error: expected a rectangular nested list (every row the same length)' says none of ('overflow', 'out of range', 'too large') (exit 1, 0.2 s, peak 32 MiB)",
    "tensor_int64_underflow": "message: 'prog.py:3:5: error: expected a rectangular nested list (every row the same length)' says none of ('overflow', 'out of range', 'too large') (exit 1, 0.2 s, peak 32 MiB)",
    "tensor_int_default_overflow": "exit: status 0, expected [1] (exit 0, 0.1 s, peak 32 MiB)",
    "tensor_int_scalar_overflow": "exit: status 0, expected [1] (exit 0, 0.1 s, peak 32 MiB)",
    "of_error_15000_tensors": "message: stderr is 333,980 bytes (over 4,000) (exit 1, 1.7 s, peak 106 MiB)",
    "wrt_error_15000_tensors": "message: stderr is 333,980 bytes (over 4,000) (exit 1, 1.7 s, peak 105 MiB)",
    "set_error_15000_tensors": "message: stderr is 333,980 bytes (over 4,000) (exit 1, 1.7 s, peak 106 MiB)",
    "of_long_name": "message: stderr is 200,092 bytes (over 4,000) (exit 1, 0.1 s, peak 38 MiB)",
    "wrt_long_name": "message: stderr is 200,092 bytes (over 4,000) (exit 1, 0.2 s, peak 38 MiB)",
    "set_long_name": "message: stderr is 200,092 bytes (over 4,000) (exit 1, 0.2 s, peak 39 MiB)",
    "of_name_with_newline": "message: the output matches the forbidden '(?m)^error: fake second message' (exit 1, 0.2 s, peak 32 MiB)",
}
