"""The compiler's settings modules (`lang.compiling`): read, set, checked by name, patched
for a `with` block and restored, and back to PyTorch's defaults at the next run."""

from __future__ import annotations

from gradcli.lang.program import parse


def _out(text: str) -> str:
    return "".join(parse("import torch\nimport torch._dynamo\n" + text, "t.py").run().output)


def test_patch_sets_for_the_block_and_restores() -> None:
    got = _out(
        "with torch._dynamo.config.patch(verbose=True, cache_size_limit=3):\n"
        "    print(torch._dynamo.config.verbose, torch._dynamo.config.recompile_limit)\n"
        "print(torch._dynamo.config.verbose, torch._dynamo.config.cache_size_limit)\n"
        "with torch._inductor.config.patch('max_autotune', True):\n"
        "    print(torch._inductor.config.max_autotune)\n"
        "try:\n    with torch._dynamo.config.patch(nope=1):\n        pass\n"
        "except AttributeError as e:\n    print(e)\n"
    )
    # (PyTorch 2.13's defaults: verbose False, recompile_limit 8)
    assert got == ("True 3\nFalse 8\nTrue\ntorch._dynamo.config.nope does not exist\n")


def test_settings_last_one_run() -> None:
    assert _out("torch._dynamo.config.cache_size_limit = 64\n") == ""
    assert _out("print(torch._dynamo.config.cache_size_limit)\n") == "8\n"
