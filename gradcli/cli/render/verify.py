"""Renderers of `check`, `symbolic` and `ops`: results in, text / JSON objects / rich
renderables out. They never print; rich is imported only by the table renderers.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...analysis.check import METHOD_HELP
from ...analysis.results import VERDICT, CheckResult, jsonable, verdict_line
from ..views import Custom, Doc

OPS_START = "<!-- ops:start -->"
OPS_END = "<!-- ops:end -->"


def _g(v: float, digits: int = 2) -> str:
    """A difference: a couple of significant digits."""
    v = float(v)
    if not np.isfinite(v):
        return "nan" if np.isnan(v) else "inf"
    if v == 0:
        return "0"
    return f"{v:.{digits}g}"


def _num(v: Any, precision: int | None) -> str:
    from .common import scalar

    return scalar(v, precision)


def _idx(name: str, idx: list[int]) -> str:
    return f"{name}[{','.join(str(i) for i in idx)}]" if idx else name


# --- check ---------------------------------------------------------------------------------


def check_json(res: CheckResult) -> dict[str, Any]:
    return res.to_json()


def _methods_line(res: CheckResult) -> str:
    used: list[str] = []
    for r in res.results:
        for m in r.methods:
            if m not in used:
                used.append(m)
    parts = []
    for m in used:
        h = METHOD_HELP.get(m, m)
        if m == "numeric":
            h += f", step {res.eps:g}*max(1,|x|)"
        parts.append(f"{m}: {h}")
    return "; ".join(parts)


def _skipped_lines(res: CheckResult) -> list[str]:
    seen: dict[tuple[str, str], list[str]] = {}
    notes: list[str] = []
    for r in res.results:
        for n in r.notes:
            line = f"{r.of} / {r.wrt}: {n}"
            if line not in notes:
                notes.append(line)
    for r in res.results:
        for m, why in r.skipped.items():
            if why.startswith("not asked for"):
                continue
            seen.setdefault((m, why), []).append(r.wrt)
    return notes + [f"{m} skipped for {', '.join(ws)}: {why}" for (m, why), ws in seen.items()]


def _kink_lines(res: CheckResult) -> list[str]:
    out = []
    for r in res.results:
        if r.kinks is not None and r.kinks.any():
            n = int(r.kinks.sum())
            out.append(
                f"{r.of} / {r.wrt}: {n} entr{'y is' if n == 1 else 'ies are'} at a "
                "point where the function is not differentiable (relu or abs at 0, a "
                "tie of max, a clamp bound): compared with the one-sided derivatives"
            )
    return out


def check_plain(res: CheckResult, precision: int | None = None) -> str:
    lines = [f"check `{res.of}`: {_methods_line(res)}"]
    for w in res.warnings:
        lines.append(f"warning: {w}")
    for s in _skipped_lines(res):
        lines.append(f"note: {s}")
    for s in _kink_lines(res):
        lines.append(f"note: {s}")
    for r in res.results:
        lines.append("")
        lines.append(
            f"# {r.of} / {r.wrt}  {list(r.of_shape)} x {list(r.wrt_shape)}  {VERDICT[r.status]}"
        )
        for c in r.comparisons:
            lines.append(
                f"{c.a} vs {c.b}: max abs {_g(c.max_abs)}, max rel {_g(c.max_rel)}"
                + ("" if c.ok else "  <- disagree")
            )
    lines.append("")
    lines.append(_verdict(res, precision))
    return "\n".join(lines)


def _verdict(res: CheckResult, precision: int | None) -> str:
    if res.ok:
        return res.summary()
    out = []
    for r in res.results:
        if r.ok:
            continue
        text = verdict_line(r)
        if precision is not None and r.status == "disagree":
            w = r.worst()
            if w is not None:
                vals = ", ".join(
                    f"{m} {_num(v, precision) if not isinstance(v, str) else v}"
                    for m, v in w["values"].items()
                )
                first, _, rest = text.partition("\n")
                head = first.split(": d ", 1)[0]
                first = f"{head}: d {_idx(r.of, w['output'])} / d {_idx(r.wrt, w['input'])}: {vals}"
                text = first + ("\n" + rest if rest else "")
        out.append(text)
    return "\n".join(out)


def check_tables(res: CheckResult, precision: int | None = None) -> list[Any]:
    from rich.table import Table
    from rich.text import Text

    items: list[Any] = []
    head = Text()
    head.append("check ", style="bold")
    head.append(f"`{res.of}`", style="cyan")
    items.append(head)
    items.append(Text(_methods_line(res), style="dim"))
    for w in res.warnings:
        items.append(Text(f"warning: {w}", style="yellow"))
    for s in _skipped_lines(res) + _kink_lines(res):
        items.append(Text(f"note: {s}", style="yellow"))
    table = Table(title=None, show_lines=False, pad_edge=False, box=None, header_style="bold")
    table.add_column("of / wrt", style="cyan", no_wrap=True)
    table.add_column("methods", no_wrap=True)
    table.add_column("max abs", justify="right")
    table.add_column("max rel", justify="right")
    table.add_column("", justify="center")
    for r in res.results:
        first = True
        for c in r.comparisons:
            style = "" if c.ok else "bold red"
            table.add_row(
                f"{r.of} / {r.wrt}" if first else "",
                f"{c.a} vs {c.b}",
                Text(_g(c.max_abs), style=style),
                Text(_g(c.max_rel), style=style),
                Text("ok", style="green") if c.ok else Text("DISAGREE", style="bold red"),
            )
            first = False
        if not r.comparisons:
            table.add_row(f"{r.of} / {r.wrt}", Text("(one method only)", style="dim"), "", "", "")
    items.append(Text(""))
    items.append(Text("largest differences between each pair of methods", style="bold"))
    items.append(table)
    items.append(Text(""))
    verdict = _verdict(res, precision)
    items.append(Text(verdict, style="green" if res.ok else "bold red"))
    return items


# --- symbolic ------------------------------------------------------------------------------


def _d(res: Any, out_idx: tuple, name: str, in_idx: tuple, latex: bool) -> str:
    if latex:
        o = res.of + (f"_{{{','.join(map(str, out_idx))}}}" if out_idx else "")
        i = name + (f"_{{{','.join(map(str, in_idx))}}}" if in_idx else "")
        return rf"\frac{{\partial {o}}}{{\partial {i}}}"
    return f"d {_idx(res.of, list(out_idx))} / d {_idx(name, list(in_idx))}"


def _entries(res: Any, w: Any, zeros: bool) -> tuple[list[tuple[tuple, tuple, Any, int]], int]:
    """(output index, input index, expression, flat row, flat col) of each shown entry, and
    how many zero entries were left out."""
    out = []
    hidden = 0
    n_out, n_in = w.matrix.shape
    for i in range(n_out):
        oi = tuple(int(k) for k in np.unravel_index(i, res.of_shape)) if res.of_shape else ()
        for j in range(n_in):
            e = w.matrix[i, j]
            if not zeros and e == 0 and (w.engine is None or w.engine[i, j] == 0):
                hidden += 1
                continue
            ij = tuple(int(k) for k in np.unravel_index(j, w.shape)) if w.shape else ()
            out.append((oi, ij, e, i * n_in + j))
    return out, hidden


def _at(w: Any, flat: int, precision: int | None) -> tuple[str, str, bool]:
    i, j = divmod(flat, w.matrix.shape[1])
    return (_num(w.values[i, j], precision), _num(w.engine[i, j], precision), bool(w.agree[i, j]))


def _formula(res: Any, e: Any, latex: bool) -> str:
    return res.latex(e) if latex else res.text(e)


def _output_lines(res: Any, latex: bool) -> list[str]:
    lines = []
    for idx in np.ndindex(res.output.shape):
        name = (
            (res.of + (f"_{{{','.join(map(str, idx))}}}" if idx else ""))
            if latex
            else _idx(res.of, list(idx))
        )
        lines.append(f"{name} = {_formula(res, res.output[idx], latex)}")
    return lines


def _gradient_lines(res: Any, latex: bool) -> list[str]:
    """For a one-element output: each input's gradient as formulas, in the input's shape."""
    if int(np.prod(res.of_shape)) != 1:
        return []
    lines = []
    for w in res.wrt:
        exprs = w.matrix.reshape(w.shape) if w.shape else w.matrix.reshape(())
        if latex:
            body = _latex_array(res, exprs)
            lines.append(rf"\nabla_{{{w.name}}} {res.of} = {body}")
        else:
            lines.append(f"grad {w.name} = d {res.of} / d {w.name} = {_nested(res, exprs)}")
    if sum(len(line) for line in lines) > GRADIENT_CHARS:
        return ['# the gradient as nested formulas is long: --format json has it ("gradient")']
    return lines


GRADIENT_CHARS = 2000


def _nested(res: Any, a: Any) -> str:
    if not isinstance(a, np.ndarray):
        return res.text(a)
    if a.ndim == 0:
        return res.text(a[()])
    return "[" + ", ".join(_nested(res, a[k]) for k in range(a.shape[0])) + "]"


def _latex_array(res: Any, a: np.ndarray) -> str:
    if a.ndim == 0:
        return res.latex(a[()])
    m = a.reshape(a.shape[0], -1) if a.ndim > 1 else a.reshape(1, -1)
    rows = [" & ".join(res.latex(e) for e in row) for row in m]
    return r"\begin{bmatrix}" + r" \\ ".join(rows) + r"\end{bmatrix}"


def symbolic_plain(
    res: Any, *, latex: bool = False, zeros: bool = False, precision: int | None = None
) -> str:
    lines = []
    if res.custom:
        lines.append(
            "# custom gradients (" + ", ".join(f"`{c}`" for c in res.custom) + "): "
            "the formulas differentiate their forward bodies"
        )
    lines += _output_lines(res, latex)
    for w in res.wrt:
        entries, hidden = _entries(res, w, zeros)
        lines.append("")
        for oi, ij, e, flat in entries:
            line = f"{_d(res, oi, w.name, ij, latex)} = {_formula(res, e, latex)}"
            if w.values is not None:
                v, eng, ok = _at(w, flat, precision)
                line += f"  = {v}  (engine {eng}) {'ok' if ok else 'DIFFERENT'}"
            lines.append(line)
        if hidden:
            lines.append(
                f"# {hidden} more entr{'y is' if hidden == 1 else 'ies are'} 0 (--zeros shows them)"
            )
    grads = _gradient_lines(res, latex)
    if grads:
        lines.append("")
        lines += grads
    if res.at:
        lines.append("")
        lines.append(
            "ok: the formulas give the engine's numbers"
            if res.ok
            else "DIFFERENT: some formulas do not give the engine's numbers"
        )
    return "\n".join(lines)


def symbolic_tables(
    res: Any, *, latex: bool = False, zeros: bool = False, precision: int | None = None
) -> list[Any]:
    from rich.table import Table
    from rich.text import Text

    items: list[Any] = []
    head = Text()
    head.append("symbolic ", style="bold")
    head.append(f"{res.of} {list(res.of_shape)}", style="cyan")
    items.append(head)
    if res.custom:
        items.append(
            Text(
                "custom gradients (" + ", ".join(res.custom) + "): the formulas "
                "differentiate their forward bodies",
                style="yellow",
            )
        )
    for line in _output_lines(res, latex):
        items.append(Text(line))
    for w in res.wrt:
        entries, hidden = _entries(res, w, zeros)
        table = Table(box=None, pad_edge=False, show_header=True, header_style="dim")
        table.add_column("derivative", style="cyan", no_wrap=True)
        table.add_column("formula", overflow="fold", ratio=1)
        if w.values is not None:
            table.add_column("value", justify="right")
            table.add_column("engine", justify="right")
            table.add_column("")
        for oi, ij, e, flat in entries:
            row: list[Any] = [_d(res, oi, w.name, ij, latex), _formula(res, e, latex)]
            if w.values is not None:
                v, eng, ok = _at(w, flat, 4 if precision is None else precision)
                row += [v, eng, Text("=", style="green") if ok else Text("≠", style="bold red")]
            table.add_row(*row)
        items.append(Text(""))
        items.append(
            Text(f"d {res.of} / d {w.name}  {list(res.of_shape)} x {list(w.shape)}", style="bold")
        )
        items.append(table)
        if hidden:
            items.append(
                Text(
                    f"{hidden} more entr{'y is' if hidden == 1 else 'ies are'} 0 "
                    "(--zeros shows them)",
                    style="dim",
                )
            )
    grads = _gradient_lines(res, latex)
    if grads:
        items.append(Text(""))
        for g in grads:
            items.append(Text(g))
    if res.at:
        items.append(Text(""))
        items.append(
            Text("ok: the formulas give the engine's numbers", style="green")
            if res.ok
            else Text("DIFFERENT: some formulas do not give the engine's numbers", style="bold red")
        )
    return items


def symbolic_json(res: Any, *, zeros: bool = True) -> dict[str, Any]:
    obj: dict[str, Any] = {
        "of": res.of,
        "of_shape": list(res.of_shape),
        "custom": list(res.custom),
        "output": _str_nested(res, res.output, latex=False),
        "output_latex": _str_nested(res, res.output, latex=True),
        "wrt": {},
    }
    for w in res.wrt:
        entries, _ = _entries(res, w, zeros)
        items = []
        for oi, ij, e, flat in entries:
            item: dict[str, Any] = {
                "output": list(oi),
                "input": list(ij),
                "formula": res.text(e),
                "latex": res.latex(e),
            }
            if w.values is not None:
                i, j = divmod(flat, w.matrix.shape[1])
                item["value"] = jsonable(np.asarray(w.values[i, j]))
                item["engine"] = jsonable(np.asarray(w.engine[i, j]))
                item["agree"] = bool(w.agree[i, j])
            items.append(item)
        obj["wrt"][w.name] = {
            "wrt_shape": list(w.shape),
            "jacobian": [[res.text(e) for e in row] for row in w.matrix],
            "entries": items,
        }
    if int(np.prod(res.of_shape)) == 1:
        obj["gradient"] = {
            w.name: _str_nested(res, w.matrix.reshape(w.shape), latex=False) for w in res.wrt
        }
    if res.at:
        obj["ok"] = res.ok
    return obj


def _str_nested(res: Any, a: Any, latex: bool) -> Any:
    if not isinstance(a, np.ndarray):
        return res.latex(a) if latex else res.text(a)
    if a.ndim == 0:
        return res.latex(a[()]) if latex else res.text(a[()])
    return [_str_nested(res, a[k], latex) for k in range(a.shape[0])]


# --- ops -----------------------------------------------------------------------------------


def _derivative_text(info: Any) -> str:
    if info.derivative:
        return ", ".join(f"{k} = {v}" for k, v in info.derivative)
    return f"vjp: {info.vjp}"


def _compositions() -> list[tuple[list[str], list[str]]]:
    """The names declared as compositions, grouped by the records they are built on."""
    from ...analysis.catalog import declared

    names, composed, _ = declared()
    groups: dict[tuple[str, ...], list[str]] = {}
    for user in names:
        if user in composed:
            groups.setdefault(tuple(o.name for o in names[user]), []).append(user)
    return [(list(k), v) for k, v in sorted(groups.items())]


def ops_plain(infos: list[Any]) -> str:
    lines = []
    for i in infos:
        names = ", ".join(i.names) or "-"
        also = f" (also used by {', '.join(i.also)})" if i.also else ""
        kink = f"; at kinks: {i.kink}" if i.kink else ""
        lines.append(f"{i.name}: {names}{also} | {_derivative_text(i)}{kink}")
    for records, names_ in _compositions():
        lines.append(f"composition of {' '.join(records)}: {', '.join(names_)}")
    return "\n".join(lines)


def ops_detail_plain(infos: list[Any], name: str | None = None) -> str:
    blocks = []
    for k, i in enumerate(infos):
        rows = [("names", ", ".join(i.names) or "-")]
        if i.also:
            rows.append(("also used by", ", ".join(i.also)))
        rows.append(("signature", i.signature))
        rows.append(("VJP rule", f"{i.vjp}   (g: the upstream gradient, out: the result)"))
        rows += [(k, v) for k, v in i.derivative]
        rows += [(f"{k} (LaTeX)", v) for k, v in i.derivative_latex]
        rows.append(("at kinks", i.kink or "-"))
        # The values in one column, after the longest label.
        width = max(len(k) for k, _ in rows) + 2
        lines = [f"{i.name}  ({i.kind}, grad_fn {i.torch_name})"]
        if k and name is not None:
            # Why a second record is listed for one name.
            lines.insert(0, f"`{name}` also records `{i.name}` (a part of what it computes):")
        lines += [f"  {(label + ':').ljust(width)}{v}" for label, v in rows]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def ops_json(infos: list[Any]) -> dict[str, Any]:
    from ...analysis.catalog import declared

    names, composed, _ = declared()
    return {
        "ops": [i.to_json() for i in infos],
        "names": {n: [o.name for o in ops] for n, ops in names.items()},
        "compositions": sorted(composed),
    }


def ops_tables(infos: list[Any]) -> list[Any]:
    from rich.table import Table
    from rich.text import Text

    table = Table(box=None, pad_edge=False, header_style="bold")
    table.add_column("operation", style="cyan", no_wrap=True)
    table.add_column("names", overflow="fold")
    table.add_column("derivative", overflow="fold")
    table.add_column("at kinks", overflow="fold", style="yellow")
    for i in infos:
        names = ", ".join(i.names) or Text("-", style="dim")
        table.add_row(i.name, names, _derivative_text(i), i.kink or "")
    built = Table(box=None, pad_edge=False, header_style="bold", title="compositions")
    built.add_column("built on", style="cyan")
    built.add_column("names", overflow="fold")
    for records, names_ in _compositions():
        built.add_row(" ".join(records), ", ".join(names_))
    hint = Text("gradcli ops NAME shows one operation in full", style="dim")
    return [table, built, hint]


def ops_markdown(infos: list[Any] | None = None) -> str:
    """The README's operation list, markers included: one row per operation with the names
    that are it (in backticks: the list a test compares with `gradcli ops`), its derivative
    and its convention at kinks; then the names declared as compositions, by the records they
    are built on."""
    if infos is None:
        from ...analysis.catalog import op_catalog

        infos = op_catalog()

    def cell(s: str) -> str:
        return s.replace("|", "\\|").replace("\n", " ")

    lines = [OPS_START, "| operation | names | derivative | at kinks |", "|---|---|---|---|"]
    for i in infos:
        if not i.names:
            continue
        names = ", ".join(f"`{n}`" for n in i.names)
        deriv = (
            ", ".join(f"{k} = `{v}`" for k, v in i.derivative) if i.derivative else f"VJP `{i.vjp}`"
        )
        lines.append(f"| {i.name} | {names} | {cell(deriv)} | {cell(i.kink or '')} |")
    lines += ["", "Compositions of the operations above:", ""]
    lines += ["| built on | names |", "|---|---|"]
    for records, names_ in _compositions():
        built = ", ".join(f"`{r}`" for r in records)
        lines.append(f"| {built} | {', '.join(f'`{n}`' for n in names_)} |")
    lines.append(OPS_END)
    return "\n".join(lines)


def markdown_names(section: str) -> set[str]:
    """The names listed in an ops section (the backticked names of the `names` column)."""
    import re

    names: set[str] = set()
    for line in section.splitlines():
        if not line.startswith("|") or line.startswith("|---"):
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        if len(cells) < 2 or cells[1] == "names":
            continue
        names.update(re.findall(r"`([^`]+)`", cells[1]))
    return names


# --- docs ----------------------------------------------------------------------------------


def check_doc(res: CheckResult, precision: int | None) -> Doc:
    return Doc(
        "check",
        [Custom(lambda: check_tables(res, precision), check_plain(res, precision))],
        json=lambda: check_json(res),
        exit_code=0 if res.ok else EXIT_DISAGREE,
    )


def symbolic_doc(res: Any, *, latex: bool, zeros: bool, at: bool, precision: int | None) -> Doc:
    return Doc(
        "symbolic",
        [
            Custom(
                lambda: symbolic_tables(res, latex=latex, zeros=zeros, precision=precision),
                symbolic_plain(res, latex=latex, zeros=zeros, precision=precision),
            )
        ],
        json=lambda: symbolic_json(res, zeros=True),
        exit_code=EXIT_DISAGREE if at and not res.ok else 0,
    )


def ops_doc(infos: list[Any]) -> Doc:
    return Doc(
        "ops", [Custom(lambda: ops_tables(infos), ops_plain(infos))], json=lambda: ops_json(infos)
    )


def ops_detail_doc(name: str, chosen: list[Any]) -> Doc:
    text = ops_detail_plain(chosen, name)
    return Doc(
        "ops",
        [Custom(lambda: [_plain_text(text)], text)],
        json=lambda: {"name": name, "ops": [i.to_json() for i in chosen]},
    )


def _plain_text(text: str) -> Any:
    from rich.text import Text

    return Text(text)


EXIT_DISAGREE = 3
