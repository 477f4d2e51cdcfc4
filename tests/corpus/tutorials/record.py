"""Record what PyTorch prints for every corpus program (the `.out` files beside them).

Usage (from anywhere; needs a Python with torch 2.13.0, by default /work/torchenv's):

    python tests/corpus/tutorials/record.py                 # record every program
    python tests/corpus/tutorials/record.py 012_xor.py ...  # record only these
    python tests/corpus/tutorials/record.py --check         # compare, write nothing

Each program runs as `python NAME.py` in a fresh temporary directory (a copy of the file
only), with PYTHONHASHSEED=0, OMP_NUM_THREADS=1, TQDM_DISABLE=1 and MPLBACKEND=Agg, twice:
both runs must exit 0 and print the same text (the corpus must be deterministic). Its stdout
becomes `NAME.out`.

Standard error may hold only Python warnings (`file:line: SomethingWarning: message` and
the source line under it) and the reports of passing unittest runs (removed first: their
times differ from run to run). The warnings are written, with the temporary and site-packages paths
made stable, to `NAME.err`: warnings PyTorch prints that gradcli should mirror on its own
standard error (the harness compares standard output only). Anything else on standard
error (a traceback, a stray print) fails the recording loudly.

The corpus was recorded on a machine whose PyTorch runs MKL's sgemm on an AVX-512 CPU, and
gradcli follows those orders. MKL picks its kernels by the CPU, so first
`tests/surface/data/sgemm/host_check.py` recomputes the recorded float32 products under the
given Python; where they come out with other bits (an AMD EPYC without AVX-512: 146 of 194),
a warning says that a program printing float32 products' last digits records this machine's
digits there (and `--check` reports such programs as differing).

On such a machine (AVX2 without AVX-512: gradcli's `avx2` kernel family, `gradcli.core.cpu`)
`--family avx2` records what this machine's PyTorch prints as `NAME.avx2.out`, where it differs
from `NAME.out` (a program with no `NAME.out` gets only the `.avx2.out`): the corpus test runs
those programs again under `GRADCLI_KERNELS=avx2`. On an AMD processor with AVX-512 (PyTorch's
CPU capability AVX512 while MKL runs its AVX2 code: gradcli's `zen4` family) `--family zen4`
writes `NAME.zen4.out` only where this machine's text differs from both `NAME.out` and
`NAME.avx2.out` (else it removes a stale one); the corpus test runs those under zen4.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
TORCH_VERSION = "2.13.0"
DEFAULT_PYTHON = os.environ.get("TORCH_PYTHON", "/work/torchenv/bin/python")
TIMEOUT = 120

# `path:line: CategoryWarning: message`; the source line Python shows under it is indented.
WARNING_LINE = re.compile(r"^(?P<path>.+?):(?P<line>\d+): (?P<cat>[A-Za-z]*Warning): (?P<msg>.*)$")


def programs(names: list[str]) -> list[Path]:
    every = sorted(p for p in HERE.glob("*.py") if re.match(r"\d{3,4}_", p.name))
    if not names:
        return every
    chosen = []
    for name in names:
        path = HERE / Path(name).name
        if path not in every:
            raise SystemExit(f"record.py: no corpus program {name!r}")
        chosen.append(path)
    return chosen


def environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(
        PYTHONHASHSEED="0",
        OMP_NUM_THREADS="1",
        MKL_NUM_THREADS="1",
        PYTHONIOENCODING="utf-8",
        PYTHONDONTWRITEBYTECODE="1",
        # tqdm's bars go to standard error, which must hold warnings only; disabled, tqdm
        # still iterates, counts lengths and prints tqdm.write(...) on standard output.
        TQDM_DISABLE="1",
        # matplotlib draws into memory (no window); plt.show() then warns on standard error
        MPLBACKEND="Agg",
    )
    return env


def stable_stderr(text: str, tmp: str, site: str) -> str:
    """Standard error with the run's temporary directory and the site-packages path removed."""
    text = text.replace(tmp + os.sep, "").replace(tmp, ".")
    if site:
        text = text.replace(site + os.sep, "<site-packages>/")
    return text


# unittest's report of a passing run (`unittest.main()`, `TextTestRunner().run`): its dots or
# verbose lines, the separator, "Ran N tests in T s" (T differs from run to run) and "OK".
UNITTEST_REPORT = re.compile(
    r"(?m)^(?:[.sx]+\n|(?:\w+ \(__main__\.[\w.]+\) \.\.\. "
    r"(?:ok|skipped '.*'|expected failure)\n)+\n)?"
    r"-{70}\nRan \d+ tests? in \d+\.\d+s\n\nOK(?: \([^)]*\))?\n"
)


def without_unittest_reports(err: str) -> str:
    """Standard error without the reports of passing unittest runs (a failing run exits 1)."""
    return UNITTEST_REPORT.sub("", err)


# The lines of PyTorch's multi-line warnings that start at the margin.
WARNING_MIDDLES = ("Consider using one of the following signatures instead:",)


def check_only_warnings(err: str) -> list[str]:
    """The lines of standard error that are not part of a Python warning (empty: all good)."""
    bad = []
    in_warning = False
    for line in err.splitlines():
        if WARNING_LINE.match(line):
            in_warning = True
        elif in_warning and (line.startswith((" ", "\t")) or line in WARNING_MIDDLES):
            # the source line Python prints under a warning, or the continuation of a
            # message that spans lines (anomaly mode's forward traceback, "(Triggered ...)",
            # a deprecated overload's signatures)
            continue
        else:
            in_warning = False
            bad.append(line)
    return bad


def run_once(python: str, path: Path, site: str) -> tuple[int, str, str]:
    with tempfile.TemporaryDirectory(prefix="gradcli-corpus-") as tmp:
        shutil.copy(path, Path(tmp) / path.name)
        proc = subprocess.run(
            [python, path.name],
            cwd=tmp,
            env=environment(),
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
        err = without_unittest_reports(stable_stderr(proc.stderr, tmp, site))
        return proc.returncode, proc.stdout, err


def record(python: str, path: Path, site: str, check: bool, family: str = "avx512") -> list[str]:
    """Run one program twice; write (or, with check, compare) its .out (`.avx2.out` for the
    avx2 family, `.zen4.out` for zen4) and .err. Problems."""
    code1, out1, err1 = run_once(python, path, site)
    if code1 != 0:
        return [f"{path.name}: exit status {code1}\n{err1}"]
    bad = check_only_warnings(err1)
    if bad:
        return [f"{path.name}: standard error holds more than warnings:\n" + "\n".join(bad)]
    code2, out2, err2 = run_once(python, path, site)
    if (code2, out2, err2) != (code1, out1, err1):
        return [f"{path.name}: not deterministic (two runs printed different text)"]
    out_file, err_file = path.with_suffix(".out"), path.with_suffix(".err")
    if family == "zen4":
        return record_zen4(path, out1, err1, check)
    if family != "avx512":
        family_file = path.with_suffix(f".{family}.out")
        same = out_file.exists() and out_file.read_text(encoding="utf-8") == out1
        if check:
            recorded = family_file if family_file.exists() else out_file
            if not recorded.exists() or recorded.read_text(encoding="utf-8") != out1:
                return [f"{path.name}: PyTorch's output differs from {family_file.name}"]
            return []
        if same:
            family_file.unlink(missing_ok=True)
        else:
            family_file.write_text(out1, encoding="utf-8")
        if err1 and not err_file.exists():
            err_file.write_text(err1, encoding="utf-8")
        return []
    if check:
        problems = []
        if not out_file.exists() or out_file.read_text(encoding="utf-8") != out1:
            problems.append(f"{path.name}: PyTorch's output differs from {out_file.name}")
        recorded_err = err_file.read_text(encoding="utf-8") if err_file.exists() else ""
        if recorded_err != err1:
            problems.append(f"{path.name}: PyTorch's warnings differ from {err_file.name}")
        return problems
    out_file.write_text(out1, encoding="utf-8")
    if err1:
        err_file.write_text(err1, encoding="utf-8")
    elif err_file.exists():
        err_file.unlink()
    return []


def record_zen4(path: Path, out: str, err: str, check: bool) -> list[str]:
    """`NAME.zen4.out` where `out` differs from both families' recorded texts (`NAME.avx2.out`,
    where there is none `NAME.out`), none elsewhere; with check, compare. Problems."""
    zen4_file = path.with_suffix(".zen4.out")
    known = [
        f.read_text(encoding="utf-8")
        for f in (path.with_suffix(".out"), path.with_suffix(".avx2.out"))
        if f.exists()
    ]
    if check:
        recorded = [zen4_file.read_text(encoding="utf-8")] if zen4_file.exists() else known
        return (
            [] if out in recorded else [f"{path.name}: PyTorch's output differs from the zen4 text"]
        )
    if out in known:
        zen4_file.unlink(missing_ok=True)
    else:
        zen4_file.write_text(out, encoding="utf-8")
    err_file = path.with_suffix(".err")
    if err and not err_file.exists():
        err_file.write_text(err, encoding="utf-8")
    return []


def torch_site(python: str) -> tuple[str, str, str]:
    """torch's version, the site-packages directory it is installed in and its CPU capability
    (AVX2, AVX512...)."""
    probe = (
        "import os, torch; print(torch.__version__); print(os.path.dirname(torch.__path__[0]));"
        " print(torch.backends.cpu.get_cpu_capability())"
    )
    proc = subprocess.run(
        [python, "-c", probe], capture_output=True, text=True, env=environment(), timeout=TIMEOUT
    )
    if proc.returncode != 0:
        raise SystemExit(f"record.py: {python} cannot import torch:\n{proc.stderr}")
    version, site, capability = proc.stdout.split("\n")[:3]
    return version, site, capability


HOST_CHECK = HERE.parent.parent / "surface" / "data" / "sgemm" / "host_check.py"


def host_note(python: str) -> str | None:
    """What `host_check.py` says when this machine's PyTorch computes float32 matrix products to
    other bits than the machine the corpus was recorded on (MKL picks its kernels by the CPU);
    None when they agree or the check cannot run."""
    try:
        proc = subprocess.run(
            [python, str(HOST_CHECK)],
            capture_output=True,
            text=True,
            env=environment(),
            timeout=TIMEOUT,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if proc.returncode != 1:
        return None
    return proc.stdout.strip() or None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("names", nargs="*", help="program file names (default: all)")
    parser.add_argument("--python", default=DEFAULT_PYTHON, help="a Python with torch 2.13.0")
    parser.add_argument("--check", action="store_true", help="compare with the recorded files")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="programs run at once")
    parser.add_argument(
        "--family",
        choices=("avx512", "avx2", "zen4"),
        default="avx512",
        help="the kernel family this machine's PyTorch is recorded as (avx2: NAME.avx2.out, "
        "zen4: NAME.zen4.out)",
    )
    args = parser.parse_args(argv)

    version, site, capability = torch_site(args.python)
    if version.split("+")[0] != TORCH_VERSION:
        raise SystemExit(f"record.py: needs torch {TORCH_VERSION}, {args.python} has {version}")
    paths = programs(args.names)
    note = host_note(args.python)
    # MKL's other bits and ATen's vector width tell the families apart
    family = "avx512" if not note else "zen4" if capability == "AVX512" else "avx2"
    if args.family != "avx512" and args.family != family:
        raise SystemExit(
            f"record.py: --family {args.family} needs a machine of that family (avx2: an AVX2 "
            "CPU without AVX-512; zen4: an AMD CPU with AVX-512); this one is of the "
            f"{family} family"
        )
    if note and args.family == "avx512":
        sys.stderr.write(
            f"record.py: warning: {note}; where a program prints float32 products' last digits, "
            "what is recorded here is this machine's, not gradcli's (nor the recorded corpus's); "
            f"record with --family {family}\n"
        )
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(
            pool.map(lambda p: record(args.python, p, site, args.check, args.family), paths)
        )
    problems = [p for r in results for p in r]
    warned = sorted(p.with_suffix(".err").name for p in paths if p.with_suffix(".err").exists())
    for problem in problems:
        sys.stderr.write(problem.rstrip("\n") + "\n")
    verb = "checked" if args.check else "recorded"
    print(f"{verb} {len(paths)} programs, {len(problems)} problems")
    if warned:
        print("with PyTorch warnings on standard error: " + ", ".join(warned))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
