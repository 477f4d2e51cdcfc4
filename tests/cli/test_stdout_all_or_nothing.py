"""Standard output as a regular file: all of the answer or none of it. Output the file size
limit (`ulimit -f`) would cut is refused before a byte is written, at the limit's boundary;
a write that fails part of the way is undone; what the file held before stays."""

from __future__ import annotations

import errno
import io
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from gradcli.base.errors import GradcliError
from gradcli.cli import output

PROG = "import torch\nx = torch.linspace(0, 1, 300, requires_grad=True)\ny = torch.sin(x) * 3\n"
ROOT = Path(__file__).resolve().parents[2]


def _gradcli(tmp_path: Path, out: Path, fsize: int | None, append: bool = False):
    (tmp_path / "prog.py").write_text(PROG)

    def limit() -> None:
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if append else os.O_TRUNC)
    fd = os.open(out, flags, 0o644)
    try:
        return subprocess.run(
            [sys.executable, "-m", "gradcli", "jacobian", "prog.py", "--of", "y", "-f", "plain"],
            cwd=tmp_path,
            stdout=fd,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=limit,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            timeout=120,
        )
    finally:
        os.close(fd)


def test_the_file_size_limit_at_its_boundary(tmp_path: Path) -> None:
    out = tmp_path / "j.txt"
    r = _gradcli(tmp_path, out, None)
    assert r.returncode == 0, r.stderr
    whole = out.read_bytes()
    size = len(whole)
    assert size > 10_000  # 300 x 300 numbers
    r = _gradcli(tmp_path, out, size)
    assert r.returncode == 0, r.stderr
    assert out.read_bytes() == whole
    r = _gradcli(tmp_path, out, size - 1)
    assert r.returncode == 1
    assert "cannot write to standard output: File too large" in r.stderr
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr
    assert out.read_bytes() == b""  # none of the numbers


def test_appending_keeps_what_the_file_held(tmp_path: Path) -> None:
    out = tmp_path / "log.txt"
    out.write_bytes(b"kept\n")
    r = _gradcli(tmp_path, out, 4096, append=True)
    assert r.returncode == 1 and "File too large" in r.stderr
    assert out.read_bytes() == b"kept\n"


class _FailingHalfway(io.RawIOBase):
    """A buffer that writes part of what it is given into the file, then fails (a full
    disk)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def writable(self) -> bool:
        return True

    def write(self, data: bytes) -> int:
        os.write(self.fd, bytes(data[: len(data) // 2]))
        raise OSError(errno.ENOSPC, "No space left on device")


class _Stdout:
    def __init__(self, fd: int) -> None:
        self._fd = fd
        self.buffer = _FailingHalfway(fd)
        self.encoding = "utf-8"

    def fileno(self) -> int:
        return self._fd

    def flush(self) -> None:
        pass

    def write(self, text: str) -> int:
        return self.buffer.write(text.encode())


@pytest.mark.parametrize("data", [b"1 2 3\n" * 1000, "1 2 3\n" * 1000])
def test_a_write_that_fails_halfway_is_undone(
    data: bytes | str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "out.txt"
    path.write_bytes(b"before\n")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    try:
        monkeypatch.setattr(sys, "stdout", _Stdout(fd))
        with pytest.raises(GradcliError, match="No space left on device"):
            output.write_stdout(data)
    finally:
        os.close(fd)
    assert path.read_bytes() == b"before\n"


def test_a_file_written_in_its_middle_is_not_cut(tmp_path: Path) -> None:
    # Opened for reading and writing at its start: nothing measured, nothing undone (the
    # bytes after the offset are the user's).
    path = tmp_path / "rw.txt"
    path.write_bytes(b"0123456789")
    fd = os.open(path, os.O_RDWR)
    try:
        assert output._file_end(_Stdout(fd)) is None
        os.lseek(fd, 10, os.SEEK_SET)
        assert output._file_end(_Stdout(fd)) == (fd, 10)
    finally:
        os.close(fd)
