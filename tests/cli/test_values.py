"""Tests for gradcli.values: tensor values written on the command line."""

from __future__ import annotations

import json
import os
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gradcli.base.errors import GradcliError, LimitError, UsageError
from gradcli.cli import values as V
from gradcli.cli.values import parse_assignment, parse_values


def err(text, shape, **kw) -> GradcliError:
    """The GradcliError that parsing `text` raises (and only a GradcliError)."""
    with pytest.raises(GradcliError) as info:
        parse_values(text, shape, **kw)
    return info.value


def ok(text, shape, **kw) -> np.ndarray:
    array, note = parse_values(text, shape, **kw)
    assert note is None
    return array


def everything(e: GradcliError) -> str:
    return e.format()


# --------------------------------------------------------------------------------------------
# Flat numbers


@pytest.mark.parametrize(
    "text",
    ["1,0,0,0", "1 0 0 0", "1, 0, 0, 0", "1\t0\n0  0", "1 ,0 , 0,0", "  1,0,0,0  ", "1,0 0,0"],
)
def test_flat_separators(text):
    np.testing.assert_array_equal(ok(text, (4,)), [1, 0, 0, 0])


def test_flat_number_forms():
    got = ok("1.5, -2, +3, .5, 4., 1e3, -2.5E-2, 0, -0", (9,))
    np.testing.assert_array_equal(got, [1.5, -2, 3, 0.5, 4, 1000, -0.025, 0, 0])
    assert got.dtype == np.float64


def test_flat_reshaped_row_major_with_note():
    array, note = parse_values("1,2,3,4,5,6", (2, 3))
    np.testing.assert_array_equal(array, [[1, 2, 3], [4, 5, 6]])
    assert note == "the flat --grad of 6 values was reshaped to the output's shape [2, 3]"


def test_flat_note_names_the_target():
    _, note = parse_values("1,0,0,0", (1, 4), target="the output `z`")
    assert note == "the flat --grad of 4 values was reshaped to the output `z`'s shape [1, 4]"


def test_flat_1d_has_no_note():
    assert parse_values("1,2,3", (3,))[1] is None


@pytest.mark.parametrize("shape", [(), (1,), (1, 1), (1, 1, 1)])
def test_single_number_for_one_element(shape):
    array = ok("0.5", shape)
    assert array.shape == shape
    assert array.reshape(-1)[0] == 0.5


def test_zero_d_shape():
    array = ok(" -2.5 ", ())
    assert array.shape == () and float(array) == -2.5
    e = err("1,2", ())
    assert e.message == "--grad has 2 values but the output has shape [] (1 element)"


def test_wrong_count_names_both_counts():
    e = err("1,2,3", (1, 4), target="the output `z`")
    assert e.message == "--grad has 3 values but the output `z` has shape [1, 4] (4 elements)"
    e = err("1,2,3,4,5", (2, 2))
    assert "5 values" in e.message and "[2, 2] (4 elements)" in e.message


def test_single_number_is_not_broadcast():
    e = err("1", (2, 3))
    assert "single number" in e.message and "[2, 3] (6 elements)" in e.message
    assert e.hint == "write `ones`, or give all 6 values"
    e = err("0", (3,))
    assert e.hint == "write `zeros`, or give all 3 values"
    e = err("1", (3,), allow_special=False)
    assert e.hint == "give all 3 values"


@pytest.mark.parametrize("text", ["nan", "NaN", "1,nan", "inf", "-inf", "+Infinity", "1 -INF"])
def test_non_finite_rejected(text):
    e = err(text, (2,) if " " in text or "," in text else (1,))
    assert "finite" in e.message
    assert text.split(",")[-1].split(" ")[-1] in e.message


def test_overflow_rejected():
    e = err("1, 1e400", (2,))
    assert "1e400" in e.message and "finite" in e.message and "index 1" in e.message


def test_underflow_is_zero():
    assert ok("1e-400", (1,))[0] == 0.0


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("1,,2", "index 1 is empty"),
        ("1,2,", "index 2 is empty"),
        ("1,x", "`x` (the value at index 1) is not a number"),
        ("0x10", "`0x10`"),
        ("1_000", "`1_000`"),
        ("١", "is not a number"),  # a non-ASCII digit
        ("1e", "`1e`"),
        ("--1", "`--1`"),
        ("1,2]", "`2]`"),
        ("(1,2)", "`(1`"),
    ],
)
def test_flat_bad_values(text, fragment):
    e = err(text, (2,))
    assert fragment in e.message


def test_flat_bad_value_hints():
    assert err("one", (2,)).hint == "did you mean `ones`?"
    assert err("zero", (2,)).hint == "did you mean `zeros`?"
    assert err("onehto:1", (2,)).hint == "did you mean `onehot`?"
    assert "[ ]" in err("(1,2)", (2,)).hint
    assert err("one", (2,), allow_special=False).hint is None


@pytest.mark.parametrize("text", ["", "   ", "\n\t "])
def test_empty(text):
    e = err(text, (2,))
    assert e.message == "--grad is empty"


def test_what_names_the_option():
    e = err("1,2,3", (2,), what="--set x")
    assert e.message == "--set x has 3 values but `x` has shape [2] (2 elements)"
    _, note = parse_values("1,2,3,4", (2, 2), what="--set w")
    assert note == "the flat --set w of 4 values was reshaped to `w`'s shape [2, 2]"


# --------------------------------------------------------------------------------------------
# Nested lists


def test_nested_exact():
    np.testing.assert_array_equal(ok("[[1,0],[0,1]]", (2, 2)), np.eye(2))
    np.testing.assert_array_equal(ok("[1, 2, 3]", (3,)), [1, 2, 3])
    np.testing.assert_array_equal(ok("[[[1],[2]]]", (1, 2, 1)), [[[1], [2]]])


def test_nested_whitespace_and_lenient_numbers():
    text = "  [ [ +1 , .5 ] ,\n\t[ 1. , -2e1 ] ]  "
    np.testing.assert_array_equal(ok(text, (2, 2)), [[1, 0.5], [1, -20]])


def test_nested_flat_list_reshaped_with_note():
    array, note = parse_values("[1,2,3,4]", (2, 2))
    np.testing.assert_array_equal(array, [[1, 2], [3, 4]])
    assert note == "the flat --grad of 4 values was reshaped to the output's shape [2, 2]"


def test_nested_one_element_list_for_scalar():
    array = ok("[0.5]", ())
    assert array.shape == () and float(array) == 0.5


def test_nested_other_shape_same_size():
    e = err("[[1,2,3,4]]", (2, 2))
    assert e.message == (
        "--grad has shape [1, 4] (4 elements) but the output has shape [2, 2] (4 elements)"
    )
    assert "flat" in e.hint


def test_nested_other_shape_other_size():
    e = err("[[1,2],[3,4]]", (3,))
    assert "[2, 2] (4 elements)" in e.message and "[3] (3 elements)" in e.message
    e = err("[1,2,3]", (2, 2))
    assert "3 values" in e.message and "[2, 2] (4 elements)" in e.message


def test_nested_single_number_list_not_broadcast():
    e = err("[1]", (3,))
    assert "single number" in e.message and "ones" in e.hint


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("[[1,2],[3]]", "item [1] is a list of 1 item but item [0] is a list of 2 items"),
        ("[1,[2]]", "item [1] is a list of 1 item but item [0] is a number"),
        ("[[1],2]", "item [1] is a number but item [0] is a list of 1 item"),
        ("[[[1,2]],[[1,2],[3,4]]]", "item [1] is a list of shape [2, 2]"),
        ("[[[1,2],[3]]]", "item [0][1] is a list of 1 item"),
        ("[[],[1]]", "ragged"),
    ],
)
def test_ragged(text, fragment):
    e = err(text, (2, 2))
    assert "ragged" in e.message and fragment in e.message


def test_empty_lists():
    assert ok("[]", (0,)).shape == (0,)
    assert ok("[[],[]]", (2, 0)).shape == (2, 0)
    e = err("[]", (2,))
    assert "0 values" in e.message


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("[1 2]", "expecting ',' delimiter at position 3"),
        ("[1,,2]", "expecting value at position 3"),
        ("[1,2,]", "position 5"),
        ("[1,2],[3,4]", "extra data at position 5"),
        ("[-]", "position 1"),
        ("[1e]", "not a valid nested list"),
        ("[1.2.3]", "not a valid nested list"),
        ("[1,2", "1 unclosed `[`"),
        ("[[[1,2]", "2 unclosed `[`s"),
        ("[1,2]]", "a `]` with no `[` to close, at position 5"),
        ("[1,'a']", "unexpected character `'` at position 3"),
        ('[1,"2"]', 'unexpected character `"`'),
        ("[1,{}]", "unexpected character `{`"),
        ("[1,true]", "unexpected character `t`"),
        ("[1, x]", "unexpected character `x`"),
        ("[1,\x00]", "unexpected character `\\x00`"),
        ("[__import__('os')]", "unexpected character `_`"),
    ],
)
def test_nested_malformed(text, fragment):
    e = err(text, (2,))
    assert fragment in e.message


def test_nested_hints():
    assert "outer" in err("[1,2],[3,4]", (2, 2)).hint
    assert "commas" in err("[1 2]", (2,)).hint


@pytest.mark.parametrize("text", ["[nan, 1]", "[1, Infinity]", "[-inf,0]", "[NaN]"])
def test_nested_non_finite(text):
    e = err(text, (2,))
    assert "finite" in e.message


def test_nested_overflow():
    e = err("[1, -1e999]", (2,))
    assert "-1e999" in e.message and "finite" in e.message


def test_nesting_limit():
    shape = (1,) * 32
    text = "[" * 32 + "1" + "]" * 32
    assert ok(text, shape).shape == shape
    e = err("[" * 33 + "1" + "]" * 33, (1,) * 33)
    assert isinstance(e, LimitError)
    assert "33" in e.message and "32" in e.message


def test_nesting_limit_checked_before_parsing():
    text = "[" * 200_000 + "]" * 200_000  # would be a RecursionError in json.loads
    e = err(text, (1,))
    assert isinstance(e, LimitError) and "nesting depth" in e.message


def test_nesting_limit_env(monkeypatch):
    monkeypatch.setenv("GRADCLI_VALUE_NESTING", "2")
    assert ok("[[1]]", (1, 1)).shape == (1, 1)
    assert isinstance(err("[[[1]]]", (1, 1, 1)), LimitError)


def test_text_size_limit():
    e = err(" " * 10_000_000 + "1", (1,))
    assert isinstance(e, LimitError)
    assert "10,000,001" in e.message and "10,000,000" in e.message
    assert ok(" " * 9_999_999 + "1", (1,))[0] == 1.0


def test_text_size_counts_bytes(monkeypatch):
    monkeypatch.setenv("GRADCLI_VALUE_TEXT_BYTES", "10")
    assert ok("1,2,3,4,5", (5,)).shape == (5,)
    assert ok("1 \u00a0\u00a0\u00a0\u00a0", (1,))[0] == 1  # 6 characters, 10 bytes
    assert isinstance(err("1" + "\u00a0" * 5, (1,)), LimitError)  # 6 characters, 11 bytes


# --------------------------------------------------------------------------------------------
# ones, zeros, onehot


def test_ones_zeros():
    np.testing.assert_array_equal(ok("ones", (2, 3)), np.ones((2, 3)))
    np.testing.assert_array_equal(ok(" zeros\n", (4,)), np.zeros(4))
    np.testing.assert_array_equal(ok("ONES", ()), np.array(1.0))
    assert ok("ones", (0, 3)).shape == (0, 3)


def test_onehot_flat_index():
    np.testing.assert_array_equal(ok("onehot:3", (2, 2)), [[0, 0], [0, 1]])
    np.testing.assert_array_equal(ok("onehot: 0", (3,)), [1, 0, 0])
    np.testing.assert_array_equal(ok("onehot:0", ()), np.array(1.0))


@pytest.mark.parametrize("text", ["onehot:1,2", "onehot:1 2", "onehot:(1, 2)", "onehot:[1,2]"])
def test_onehot_multi_index(text):
    expected = np.zeros((2, 3))
    expected[1, 2] = 1
    np.testing.assert_array_equal(ok(text, (2, 3)), expected)


def test_onehot_out_of_range_names_range():
    e = err("onehot:4", (2, 2))
    assert "onehot index 4 is out of range" in e.message and "0..3" in e.message
    assert "[2, 2] (4 elements)" in e.message
    assert "0..3" in err("onehot:-1", (2, 2)).message
    assert "0..3" in err("onehot:" + "9" * 5000, (2, 2)).message
    e = err("onehot:1,3", (2, 3))
    assert "axis 1" in e.message and "0..2" in e.message
    e = err("onehot:2,0", (2, 3))
    assert "axis 0" in e.message and "0..1" in e.message


def test_onehot_errors():
    e = err("onehot:1,1,1", (2, 2))
    assert "3 indices" in e.message and "[2, 2] (2 axes)" in e.message
    assert "needs an index" in err("onehot", (2,)).message
    assert "needs an index" in err("onehot:", (2,)).message
    assert "needs an index" in err("onehot3", (4,)).message
    assert "`1.5` in `onehot:1.5` is not an integer index" in err("onehot:1.5", (4,)).message
    assert "not an integer index" in err("onehot:x", (4,)).message
    assert "0 elements" in err("onehot:0", (0,)).message


@pytest.mark.parametrize("text", ["ones", "zeros", "onehot:1", "Zeros"])
def test_special_forms_can_be_disallowed(text):
    e = err(text, (2,), allow_special=False, what="--set x")
    assert e.message.startswith("--set x does not accept `")
    assert text.split(":")[0].lower() in e.message
    assert "ones" not in e.expected


# --------------------------------------------------------------------------------------------
# Files


@pytest.fixture
def files(tmp_path):
    return tmp_path


def test_npy(files):
    np.save(files / "g.npy", np.arange(6.0).reshape(2, 3))
    np.testing.assert_array_equal(
        ok("@g.npy", (2, 3), base_dir=str(files)), np.arange(6.0).reshape(2, 3)
    )


def test_npy_flat_reshaped_and_cast(files):
    np.save(files / "g.npy", np.arange(4, dtype=np.int32))
    array, note = parse_values("@g.npy", (2, 2), base_dir=str(files))
    assert array.dtype == np.float64
    np.testing.assert_array_equal(array, [[0, 1], [2, 3]])
    assert note == (
        "the flat --grad file `g.npy` of 4 values was reshaped to the output's shape [2, 2]"
    )


def test_npy_scalar_and_bool(files):
    np.save(files / "s.npy", np.float32(2.5))
    assert float(ok("@s.npy", (), base_dir=str(files))) == 2.5
    assert ok("@s.npy", (1,), base_dir=str(files)).shape == (1,)
    e = err("@s.npy", (3,), base_dir=str(files))
    assert "single number" in e.message and "`s.npy`" in e.message
    np.save(files / "b.npy", np.array([True, False]))
    np.testing.assert_array_equal(ok("@b.npy", (2,), base_dir=str(files)), [1, 0])


def test_npy_shape_mismatch_names_file(files):
    np.save(files / "g.npy", np.zeros((3, 2)))
    e = err("@g.npy", (2, 3), base_dir=str(files))
    assert e.message == (
        "--grad file `g.npy` has shape [3, 2] (6 elements) "
        "but the output has shape [2, 3] (6 elements)"
    )


def test_npy_refuses_pickles_and_odd_dtypes(files):
    np.save(files / "o.npy", np.array([1, "a"], dtype=object), allow_pickle=True)
    e = err("@o.npy", (2,), base_dir=str(files))
    assert "`o.npy`" in e.message and "object" in e.message
    np.save(files / "c.npy", np.array([1 + 2j]))
    assert "complex" in err("@c.npy", (1,), base_dir=str(files)).message
    np.save(files / "u.npy", np.array(["ab"]))
    assert "`u.npy` holds" in err("@u.npy", (1,), base_dir=str(files)).message
    np.save(files / "r.npy", np.zeros(2, dtype=[("a", "f8")]))
    assert "`r.npy` holds" in err("@r.npy", (2,), base_dir=str(files)).message


def test_npy_corrupt(files):
    (files / "bad.npy").write_bytes(b"not numpy at all")
    e = err("@bad.npy", (1,), base_dir=str(files))
    assert "`bad.npy` is not a valid .npy file" in e.message
    np.save(files / "t.npy", np.zeros(1000))
    (files / "t.npy").write_bytes((files / "t.npy").read_bytes()[:500])
    e = err("@t.npy", (1000,), base_dir=str(files))
    assert "`t.npy` is truncated" in e.message and "[1000]" in e.message


def test_npy_huge_header_is_not_allocated(files):
    header = "{'descr': '<f8', 'fortran_order': False, 'shape': (10000000000000,), }"
    header = header.ljust(117) + "\n"
    (files / "h.npy").write_bytes(
        b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode()
    )
    e = err("@h.npy", (1,), base_dir=str(files))
    assert "truncated" in e.message


def test_npy_non_finite(files):
    np.save(files / "n.npy", np.array([[1.0, 2.0], [np.inf, 3.0]]))
    e = err("@n.npy", (2, 2), base_dir=str(files))
    assert "`n.npy`" in e.message and "[1, 0]" in e.message and "inf" in e.message


def test_json_file(files):
    (files / "g.json").write_text(json.dumps([[1, 0], [0, 1]]))
    np.testing.assert_array_equal(ok("@g.json", (2, 2), base_dir=str(files)), np.eye(2))
    (files / "n.json").write_text(" 0.25\n")
    assert float(ok("@n.json", (), base_dir=str(files))) == 0.25
    (files / "flat.json").write_text("[1, 2, 3, 4]")
    array, note = parse_values("@flat.json", (2, 2), base_dir=str(files))
    assert array.shape == (2, 2) and "`flat.json`" in note


@pytest.mark.parametrize(
    "content, fragment",
    [
        ('{"a": 1}', "holds no tensor values"),
        ("[1, 2", "unclosed"),
        ("[[1, 2], [3]]", "ragged"),
        (json.dumps([1.0, float("nan")]), "finite"),
        ("", "is empty"),
        ("  \n", "is empty"),
        ('"1"', "unexpected character"),
    ],
)
def test_json_file_bad(files, content, fragment):
    (files / "g.json").write_text(content)
    e = err("@g.json", (2,), base_dir=str(files))
    assert "`g.json`" in e.message and fragment in e.message


def test_json_file_not_utf8(files):
    (files / "g.json").write_bytes(b"[1, \xff]")
    e = err("@g.json", (2,), base_dir=str(files))
    assert "`g.json` is not UTF-8 text" in e.message


def test_json_file_with_bom(files):
    (files / "g.json").write_bytes(b"\xef\xbb\xbf[1, 2]")
    np.testing.assert_array_equal(ok("@g.json", (2,), base_dir=str(files)), [1, 2])


def test_csv_file(files):
    (files / "g.csv").write_text("1, 2, 3\n4, 5, 6\n\n")
    np.testing.assert_array_equal(ok("@g.csv", (2, 3), base_dir=str(files)), [[1, 2, 3], [4, 5, 6]])
    e = err("@g.csv", (3, 2), base_dir=str(files))
    assert "`g.csv` has shape [2, 3]" in e.message and "[3, 2]" in e.message


@pytest.mark.parametrize(
    "content", ["1,2,3,4\n", "1\n2\n3\n4\n", "1 2 3 4", "\n1\r\n2\r\n3\r\n4\r\n"]
)
def test_csv_row_or_column_is_flat(files, content):
    (files / "g.csv").write_text(content)
    array, note = parse_values("@g.csv", (2, 2), base_dir=str(files))
    np.testing.assert_array_equal(array, [[1, 2], [3, 4]])
    assert note is not None and "`g.csv`" in note
    assert ok("@g.csv", (4,), base_dir=str(files)).shape == (4,)


@pytest.mark.parametrize(
    "content, fragment",
    [
        ("1,2\n3\n", "line 2 has 1 value but line 1 has 2"),
        ("\n1,2\n\n3,4,5\n", "line 4 has 3 values but line 2 has 2"),
        ("a,b,c\n1,2\n", "line 2 has 2 values but the header row (line 1) has 3"),
        ("1,2\n3,x\n", "line 2: `x` (column 2) is not a number"),
        ("1,,2\n", "line 1: the value in column 2 is empty"),
        ("1,nan\n", "line 1: the value in column 2 is `nan`"),
        ("1,1e999\n", "too large"),
        ("", "is empty"),
    ],
)
def test_csv_file_bad(files, content, fragment):
    (files / "g.csv").write_text(content)
    e = err("@g.csv", (2, 2), base_dir=str(files))
    assert "`g.csv`" in e.message and fragment in e.message


def test_csv_header_row_is_read_as_labels(files):
    """A header row (gradcli's CSV has one) is labels, not an error."""
    (files / "g.csv").write_text("x,y\n1,2\n")
    np.testing.assert_array_equal(ok("@g.csv", (2,), base_dir=str(files)), [1, 2])
    (files / "g.csv").write_text(",[0],[1]\ng[0],1,2\ng[1],3,4\n")
    np.testing.assert_array_equal(ok("@g.csv", (2, 2), base_dir=str(files)), [[1, 2], [3, 4]])


def test_file_relative_to_current_directory(files, monkeypatch):
    (files / "g.csv").write_text("1,2")
    monkeypatch.chdir(files)
    np.testing.assert_array_equal(ok("@g.csv", (2,)), [1, 2])
    np.testing.assert_array_equal(ok(" @ g.csv ", (2,)), [1, 2])
    e = err("@missing.csv", (2,))
    assert "the current directory" in e.hint


def test_file_absolute_path_and_subdir(files):
    (files / "sub").mkdir()
    (files / "sub" / "g.csv").write_text("1,2")
    np.testing.assert_array_equal(ok(f"@{files / 'sub' / 'g.csv'}", (2,), base_dir="/"), [1, 2])
    np.testing.assert_array_equal(ok("@sub/g.csv", (2,), base_dir=str(files)), [1, 2])


def test_file_uppercase_extension(files):
    np.save(files / "g.npy", np.ones(2))
    os.rename(files / "g.npy", files / "G.NPY")
    np.testing.assert_array_equal(ok("@G.NPY", (2,), base_dir=str(files)), [1, 1])


def test_missing_file(files):
    e = err("@nope.npy", (2,), base_dir=str(files))
    assert e.message == "--grad file `nope.npy` does not exist"
    assert str(files) in e.hint
    e = err("@nope/g.csv", (2,), base_dir=str(files))
    assert "does not exist" in e.message
    (files / "f.csv").write_text("1")
    assert "does not exist" in err("@f.csv/g.csv", (2,), base_dir=str(files)).message


def test_directory(files):
    (files / "d.npy").mkdir()
    e = err("@d.npy", (2,), base_dir=str(files))
    assert e.message == "--grad file `d.npy` is a directory, not a file"


def test_npz_gives_the_array_of_the_name_or_its_only_one(files):
    """What `-o FILE.npz` writes (one array a tensor, by name) reads back."""
    np.savez(files / "two.npz", x=np.arange(6.0).reshape(2, 3), w=np.array([1.0, -2.0]))
    np.testing.assert_array_equal(ok("@two.npz", (2,), base_dir=str(files), name="w"), [1, -2])
    got = ok("@two.npz", (2, 3), base_dir=str(files), name="x")
    np.testing.assert_array_equal(got, np.arange(6.0).reshape(2, 3))
    e = err("@two.npz", (2,), base_dir=str(files), name="y")
    assert "has no array named `y`" in e.message and "`x`, `w`" in e.found
    np.savez(files / "one.npz", g=np.array([3.0, 4.0]))
    np.testing.assert_array_equal(ok("@one.npz", (2,), base_dir=str(files), name="z"), [3, 4])


def test_npz_refused_when_broken_or_too_large(files, monkeypatch):
    (files / "bad.npz").write_text("1,2")
    assert "is not a valid .npz file" in err("@bad.npz", (2,), base_dir=str(files)).message
    # A compressed member that would decompress past the element limit: refused from its
    # header, before it is read.
    np.savez_compressed(files / "big.npz", g=np.zeros(2_000_000))
    monkeypatch.setenv("GRADCLI_TENSOR_ELEMENTS", "1000000")
    e = err("@big.npz", (2,), base_dir=str(files))
    assert isinstance(e, LimitError) and "2,000,000" in everything(e)


@pytest.mark.parametrize("name", ["g.txt", "g", "g.pkl"])
def test_wrong_extension(files, name):
    (files / name).write_text("1,2")
    e = err(f"@{name}", (2,), base_dir=str(files))
    assert f"`{name}` has an unsupported extension" in e.message
    assert ".npy" in e.expected


def test_empty_file_name():
    e = err("@", (2,))
    assert "`@` must be followed by a file name" in e.message
    assert "file name" in err("@   ", (2,)).message


def test_bad_path_characters(files):
    e = err("@g\x00.npy", (2,), base_dir=str(files))
    assert "\\x00" in e.message
    e = err("@" + "x" * 5000 + ".npy", (2,), base_dir=str(files))
    assert "cannot be read" in e.message or "does not exist" in e.message
    e = err("@\udcff.csv", (2,), base_dir=str(files))
    assert "\\udcff" in e.message


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_not_a_regular_file(files):
    os.mkfifo(files / "p.csv")
    e = err("@p.csv", (2,), base_dir=str(files))  # must not block reading the pipe
    assert e.message == "--grad file `p.csv` is not a regular file"


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0, reason="root can read anything")
def test_unreadable_file(files):
    path = files / "g.csv"
    path.write_text("1,2")
    path.chmod(0)
    try:
        e = err("@g.csv", (2,), base_dir=str(files))
        assert "`g.csv` cannot be read: permission denied" in e.message
    finally:
        path.chmod(0o644)


def test_file_size_limit(files, monkeypatch):
    (files / "g.csv").write_text("1,2,3,4,5\n")  # 10 bytes
    monkeypatch.setenv("GRADCLI_VALUE_FILE_BYTES", "10")
    assert ok("@g.csv", (5,), base_dir=str(files)).shape == (5,)
    monkeypatch.setenv("GRADCLI_VALUE_FILE_BYTES", "9")
    e = err("@g.csv", (5,), base_dir=str(files))
    assert isinstance(e, LimitError)
    assert "`g.csv`" in e.message and "10" in e.message and "9" in e.message


def test_file_size_default_limit(files):
    with open(files / "big.csv", "wb") as f:
        f.truncate(100_000_001)  # sparse: nothing is written
    e = err("@big.csv", (1,), base_dir=str(files))
    assert isinstance(e, LimitError)
    assert "100,000,001" in e.message and "100,000,000" in e.message


# --------------------------------------------------------------------------------------------
# dtype, arguments


def test_dtype_float32():
    array = ok("1,2", (2,), dtype=np.float32)
    assert array.dtype == np.float32
    e = err("1, 1e39", (2,), dtype=np.float32)
    assert "too large for float32" in e.message and "[1]" in e.message


def test_dtype_int():
    array = ok("[1, -2]", (2,), dtype=np.int64)
    assert array.dtype == np.int64
    np.testing.assert_array_equal(array, [1, -2])
    assert "whole number" in err("1.5", (1,), dtype=np.int64).message
    assert "whole number" in err("300", (1,), dtype=np.uint8).message


def test_internal_argument_errors():
    assert "must be text" in err(b"1,2", (2,)).message
    assert "must be text" in err(None, (2,)).message
    assert "bad shape" in err("1", "x").message
    assert "bad shape" in err("1", (1.5,)).message
    assert "negative" in err("1", (-1,)).message
    assert "dtype" in err("1", (1,), dtype="no such dtype").message
    assert "dtype" in err("1", (1,), dtype=object).message


def test_numpy_integer_shape():
    assert ok("1,2", (np.int64(2),)).shape == (2,)


def test_tensor_element_limit():
    e = err("ones", (100_000, 100_000, 100_000))
    assert isinstance(e, LimitError)


def test_messages_are_single_line_and_printable():
    e = err("1,\x1b[31mred", (2,))
    assert "\x1b" not in e.format()
    e = err("x" * 1000, (2,))
    assert len(e.message) < 200


# --------------------------------------------------------------------------------------------
# parse_assignment


@pytest.mark.parametrize(
    "text, expected",
    [
        ("x=1,2,3", ("x", "1,2,3")),
        ("x = [1,2]", ("x", "[1,2]")),
        ("  w_2=ones ", ("w_2", "ones")),
        ("x=@g.npy", ("x", "@g.npy")),
        ("b==1", ("b", "=1")),
        ("é=1", ("é", "1")),
    ],
)
def test_parse_assignment(text, expected):
    assert parse_assignment(text) == expected


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("x", "has no `=`"),
        ("", "has no `=`"),
        ("=1", "no name"),
        (" = 1", "no name"),
        ("1x=2", "`1x` is not a valid name"),
        ("a b=2", "`a b` is not a valid name"),
        ("x.y=2", "`x.y` is not a valid name"),
        ("for=1", "`for` is not a valid name"),
        ("x=", "has no values"),
        ("x=  ", "has no values"),
    ],
)
def test_parse_assignment_errors(text, fragment):
    with pytest.raises(UsageError) as info:
        parse_assignment(text)
    assert fragment in info.value.message
    assert info.value.exit_code == 2


def test_parse_assignment_not_text():
    with pytest.raises(UsageError):
        parse_assignment(None)  # type: ignore[arg-type]


def test_assignment_then_values():
    name, value = parse_assignment("w = [[1, 2], [3, 4]]")
    array, note = parse_values(value, (2, 2), what=f"--set {name}")
    np.testing.assert_array_equal(array, [[1, 2], [3, 4]])
    assert note is None


# --------------------------------------------------------------------------------------------
# Properties


@pytest.fixture(scope="module")
def empty_dir(tmp_path_factory):
    return str(tmp_path_factory.mktemp("empty"))


shapes = st.lists(st.integers(0, 4), min_size=0, max_size=3).map(tuple)
alphabet = st.sampled_from(list("0123456789+-.eE,[] \t\n@onehtzrsaifNI:()x\x00/\\"))
texts = st.one_of(
    st.text(max_size=60),
    st.text(alphabet, max_size=60),
    st.builds(lambda t: "[" + t, st.text(alphabet, max_size=40)),
    st.builds(lambda t: "onehot:" + t, st.text(alphabet, max_size=10)),
    st.builds(lambda t: "@" + t, st.text(max_size=20)),
)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts, shape=shapes, allow_special=st.booleans())
def test_random_text_only_raises_gradcli_error(empty_dir, text, shape, allow_special):
    try:
        array, note = parse_values(text, shape, allow_special=allow_special, base_dir=empty_dir)
    except GradcliError as e:
        assert isinstance(e.message, str) and e.message
        e.format().encode("utf-8")  # printable: no lone surrogates
        return
    assert array.shape == shape
    assert array.dtype == np.float64
    assert np.isfinite(array).all()
    assert note is None or isinstance(note, str)


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(st.text(max_size=30), st.text(alphabet, max_size=30)))
def test_random_assignment_only_raises_usage_error(text):
    try:
        name, value = parse_assignment(text)
    except UsageError:
        return
    assert name.isidentifier() and value == value.strip() and value


finite = st.floats(allow_nan=False, allow_infinity=False)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(1, 3), min_size=0, max_size=3).flatmap(
        lambda dims: st.tuples(
            st.just(tuple(dims)),
            st.lists(finite, min_size=int(np.prod(dims)), max_size=int(np.prod(dims))),
        )
    ),
    st.sampled_from([",", " ", ", ", "\n"]),
)
def test_round_trip(shape_values, sep):
    shape, values = shape_values
    expected = np.array(values, dtype=np.float64).reshape(shape)
    flat, _ = parse_values(sep.join(repr(v) for v in values), shape)
    np.testing.assert_array_equal(flat, expected)
    nested, note = parse_values(json.dumps(expected.tolist()), shape)
    np.testing.assert_array_equal(nested, expected)
    assert note is None or len(shape) != 1


def test_value_count_limit(files, monkeypatch):
    monkeypatch.setenv("GRADCLI_TENSOR_ELEMENTS", "4")
    assert ok("[1,2,3,4]", (4,)).shape == (4,)
    e = err("[1,2,3,4,5]", (4,))
    assert isinstance(e, LimitError) and "number of values in --grad" in e.message
    (files / "g.csv").write_text("1,2\n3,4\n5,6\n")
    e = err("@g.csv", (2, 2), base_dir=str(files))
    assert isinstance(e, LimitError) and "`g.csv`" in e.message
    assert isinstance(err("ones", (5,)), LimitError)


def test_memory_error_becomes_limit_error(monkeypatch):
    import gradcli.cli.values as values

    def boom(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(values.json, "loads", boom)
    e = err("[1, 2]", (2,))
    assert isinstance(e, LimitError) and "too large to read" in e.message


def test_byte_table_searches_agree_with_the_regular_expressions():
    """The fast searches of large ASCII text (byte tables) find what the regular expressions
    find: the first character no list holds, and the first run of 400 number characters."""
    import random

    rng = random.Random(7)
    alphabet = "0123456789+-.eE,[] \t\n\r\x0b\x0c\x1c\x1f" + "xnaNI{}\x00\x7f"
    for _ in range(400):
        n = rng.choice([0, 1, 5, 50, 399, 400, 401, 900])
        pool = rng.choice([alphabet, "0123456789.eE+-", "0123456789, []"])
        text = "".join(rng.choice(pool) for _ in range(n))
        bad = V._NOT_LIST_CHAR.search(text)
        assert V._first_not_list_char(text) == (None if bad is None else bad.start()), text
        long = V._LONG_NUMBER.search(text)
        want = None if long is None else (long.start(), len(long.group()))
        assert V._long_number(text) == want, text
