"""The test suite's own bound (tests/conftest.py): a test that hangs ends the run with its
stack, it does not hang CI."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path


def test_a_hanging_test_is_stopped(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[1]
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "conftest.py").write_text((root / "tests" / "conftest.py").read_text())
    (tmp_path / "tests" / "test_hang.py").write_text(
        textwrap.dedent(
            """
            import time

            def test_hangs():
                while True:
                    try:
                        time.sleep(0.05)
                    except BaseException:
                        pass
            """
        )
    )
    env = {**os.environ, "GRADCLI_TEST_SECONDS": "1"}
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode != 0
    assert "Timeout" in out.stderr and "test_hang.py" in out.stderr
