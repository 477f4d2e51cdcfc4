"""Running the console script in a fresh process."""

from __future__ import annotations

import os
import subprocess
import sys

from . import ROOT


def run_cli(args: list[str], patch: str = "") -> subprocess.CompletedProcess[str]:
    """The real console script in a fresh process, after `patch` (Python) has run."""
    code = (
        "import sys\nimport gradcli.analysis.api as api\n"
        + patch
        + "\nfrom gradcli.cli.console import main\nsys.argv = ['gradcli'] + sys.argv[1:]\nmain()\n"
    )
    env = {**os.environ, "COLUMNS": "100"}
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        cwd=ROOT,
    )
