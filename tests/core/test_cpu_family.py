"""The kernel family gradcli's float32 emulations follow (gradcli.core.cpu)."""

from __future__ import annotations

import os

import pytest
from typer.testing import CliRunner

from gradcli.base.errors import UsageError
from gradcli.cli.main import app
from gradcli.core import cpu


def test_the_environment_picks_the_family(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in cpu.FAMILIES:
        monkeypatch.setenv(cpu.ENV, name)
        assert cpu.family() == name
        assert cpu.avx2() == (name == "avx2")
        # MKL's kernels and the ATen kernels measured alike on both AMD families
        assert cpu.mkl_avx2() == (name in ("avx2", "zen4"))
        assert cpu.amd() == (name in ("avx2", "zen4"))


def test_zen4_takes_mkls_avx2_models_and_atens_avx512_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    from gradcli.core import vecloop
    from gradcli.ops import flash32, softmax32

    monkeypatch.setenv(cpu.ENV, "zen4")
    assert cpu.mkl_avx2() and not cpu.avx2()
    # ATen's 16-lane loops (softmax, flash attention, activations' steps) stay the AVX-512 ones
    assert softmax32._lanes() == flash32._lanes() == 16
    assert vecloop.vec_step() == vecloop.VEC_STEP
    monkeypatch.setenv(cpu.ENV, "avx2")
    assert softmax32._lanes() == flash32._lanes() == 8
    assert vecloop.vec_step() == vecloop.VEC_STEP_AVX2


def test_unset_follows_the_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    from gradcli.base.numpyhost import cpuinfo

    vendor, flags = cpuinfo()
    if not flags:
        pytest.skip("no /proc/cpuinfo here")
    monkeypatch.delenv(cpu.ENV, raising=False)
    features = {"AVX512F": "avx512f" in flags, "AVX2": "avx2" in flags, "FMA3": "fma" in flags}
    expected = cpu.choose(features, vendor)
    assert cpu.family() == expected
    monkeypatch.setenv(cpu.ENV, "")
    assert cpu.family() == expected


def test_the_family_of_each_kind_of_processor() -> None:
    avx512 = {"AVX2": True, "FMA3": True, "AVX512F": True}
    avx2 = {"AVX2": True, "FMA3": True, "AVX512F": False}
    assert cpu.choose(avx512, "GenuineIntel") == "avx512"
    assert cpu.choose(avx512, "AuthenticAMD") == "zen4"  # MKL's AVX2 code, ATen's AVX-512 one
    assert cpu.choose(avx512, "") == "avx512"
    assert cpu.choose(avx2, "AuthenticAMD") == "avx2"
    assert cpu.choose(avx2, "GenuineIntel") == "avx2"
    assert cpu.choose({"AVX2": False, "AVX512F": False}, "AuthenticAMD") == "avx512"
    assert cpu.choose({"AVX2": False, "AVX512F": True}, "AuthenticAMD") == "avx512"
    assert cpu.choose({}, "") == "avx512"


def test_a_family_that_does_not_exist_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cpu.ENV, "avx1024")
    with pytest.raises(UsageError) as info:
        cpu.family()
    assert info.value.found == "'avx1024'"


def test_the_cli_reports_a_bad_family_without_a_traceback(tmp_path) -> None:
    program = tmp_path / "p.py"
    program.write_text("import torch\nprint(torch.tensor([2.0]).sqrt())\n")
    result = CliRunner().invoke(app, ["run", str(program)], env={cpu.ENV: "avx1024"})
    assert result.exit_code == 2, result.output
    assert "GRADCLI_KERNELS names no kernel family" in result.stderr
    assert "Traceback" not in result.stderr


def test_physical_cores_count_each_core_once(tmp_path) -> None:
    # two packages of two cores with two hardware threads each: PyTorch's inter-op pool has 4
    info = tmp_path / "cpuinfo"
    blocks = []
    for n in range(8):
        package, core = n // 4, (n // 2) % 2
        blocks.append(f"processor\t: {n}\nphysical id\t: {package}\ncore id\t\t: {core}\n")
    info.write_text("\n".join(blocks))
    assert cpu.physical_cores(str(info)) == min(4, os.cpu_count() or 1)
    assert cpu.physical_cores(str(tmp_path / "absent")) == (os.cpu_count() or 1)


def test_the_default_inter_op_threads_are_the_physical_cores(tmp_path) -> None:
    program = tmp_path / "p.py"
    program.write_text(
        "import torch\nprint(torch.get_num_threads(), torch.get_num_interop_threads())\n"
    )
    result = CliRunner().invoke(app, ["run", str(program)])
    assert result.exit_code == 0, result.output
    assert result.stdout == f"1 {cpu.physical_cores()}\n"
