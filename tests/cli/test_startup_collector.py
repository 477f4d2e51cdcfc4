"""The console script holds the cyclic collector off while it starts (`gradcli.__main__`) and
turns it back on for the program (`cli.state.release_collector`) and in any case when the
command ends; a host that had switched the collector off keeps it off."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

_DRIVER = textwrap.dedent(
    """
    import gc, json, sys
    from gradcli.cli import inputs, state
    from gradcli.__main__ import main

    seen = []
    real = state.release_collector

    def spy():
        seen.append(("before", gc.isenabled()))
        real()
        seen.append(("after", gc.isenabled()))

    inputs.release_collector = spy
    sys.argv = ["gradcli", *sys.argv[1:]]
    try:
        main()
    except SystemExit:
        pass
    sys.stdout.flush()
    print(json.dumps({"seen": seen, "enabled": gc.isenabled(),
                      "frozen": gc.get_freeze_count()}), file=sys.stderr)
    """
)


def _drive(*argv: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    r = subprocess.run(
        [sys.executable, "-c", _DRIVER, *argv],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env=env,
    )
    return json.loads(r.stderr.strip().splitlines()[-1])


def test_the_program_runs_with_the_collector_on() -> None:
    got = _drive("backward", "examples/mlp.py", "--format", "json")
    assert got["seen"] == [["before", False], ["after", True]]
    assert got["enabled"] and got["frozen"] > 1000


def test_a_command_without_a_program_ends_with_the_collector_on() -> None:
    got = _drive("ops")
    assert got["seen"] == [] and got["enabled"] and got["frozen"] == 0


@pytest.mark.parametrize("was_enabled", [True, False])
def test_the_hosts_setting_is_kept(was_enabled: bool) -> None:
    from gradcli.__main__ import main

    argv, enabled = sys.argv, gc.isenabled()
    sys.argv = ["gradcli", "--version"]
    try:
        (gc.enable if was_enabled else gc.disable)()
        with pytest.raises(SystemExit):
            main()
        assert gc.isenabled() == was_enabled
    finally:
        sys.argv = argv
        (gc.enable if enabled else gc.disable)()
