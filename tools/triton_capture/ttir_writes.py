"""Which kernel arguments may a launch write through? (A conservative def-use walk over TTIR text.)

Used only to choose which *unchanged* buffers to poison (see README, "Poison rule"): filling a
buffer the kernel only reads with 0xFF teaches the replay nothing (the buffer stays 0xFF, so no
`poisoned` entry would be written) and can crash the GPU context when the buffer holds indices
(an out-of-bounds gather, or Inductor's indirect-indexing device assert). So a buffer is poisoned
only when some argument pointing into it may be written.

Method: build "value B is computed from value A" edges for every op of the public function, except
through ops whose results are loaded or computed *data* (tt.load, atomics' old values, tt.dot, ...);
scf.for / scf.while / scf.if are connected position by position (init -> iter arg, yield -> iter
arg and result, condition -> after-region argument and result). Then walk backwards from the pointer
operand of every store-like op (tt.store, tt.descriptor_store/scatter/reduce, tt.atomic_rmw,
tt.atomic_cas) and from every operand of tt.call; the function arguments reached may be written.
"""

import re
from dataclasses import dataclass, field
from typing import Dict, List, Set

from .ttir_signature import TTIRFunc, TTIRParseError, _skip_string, match_closing

_NAME = r"[A-Za-z0-9_$.\-]+"
_VALUE_RE = re.compile(r"%(" + _NAME + r"(?:#\d+)?)")
_RESULTS_RE = re.compile(r"^((?:%" + _NAME + r"(?::\d+)?)(?:\s*,\s*%" + _NAME + r"(?::\d+)?)*)\s*=\s*(.*)$")
_PAIR_RE = re.compile(r"%(" + _NAME + r")\s*=\s*%(" + _NAME + r"(?:#\d+)?)")
_BLOCK_ARG_RE = re.compile(r"%(" + _NAME + r")\s*:")

# Results of these ops are data loaded from memory or computed values, never pointers.
DATA_OPS = {
    "tt.load", "tt.descriptor_load", "tt.descriptor_gather", "tt.atomic_rmw", "tt.atomic_cas",
    "tt.get_program_id", "tt.get_num_programs", "arith.constant", "tt.make_range", "tt.histogram",
    "tt.dot", "tt.dot_scaled", "tt.extern_elementwise", "tt.precise_sqrt", "tt.precise_divf",
    "arith.cmpi", "arith.cmpf", "tt.experimental_descriptor_load",
}
STORE_OPS = {"tt.store", "tt.descriptor_store", "tt.descriptor_scatter", "tt.descriptor_reduce",
             "tt.experimental_descriptor_store"}
ATOMIC_OPS = {"tt.atomic_rmw", "tt.atomic_cas"}


@dataclass
class WriteInfo:
    stores: Set[int] = field(default_factory=set)  # argument indices written by plain stores
    atomics: Set[int] = field(default_factory=set)  # ... by atomics
    calls: Set[int] = field(default_factory=set)  # ... passed to a tt.call (unknown: assume written)

    def may_write(self, index: int) -> bool:
        return index in self.stores or index in self.atomics or index in self.calls

    def only_atomic(self, index: int) -> bool:
        return index in self.atomics and index not in self.stores and index not in self.calls


def strip_locs(text: str) -> str:
    """Remove every 'loc(...)' (balanced, strings skipped)."""
    out, i, n = [], 0, len(text)
    while i < n:
        j = text.find("loc(", i)
        if j < 0:
            out.append(text[i:])
            break
        if j > 0 and (text[j - 1].isalnum() or text[j - 1] in "_."):
            out.append(text[i:j + 4])
            i = j + 4
            continue
        out.append(text[i:j])
        try:
            i = match_closing(text, j + 3, "(", ")") + 1
        except TTIRParseError:  # unbalanced: the rest is the loc
            break
    return "".join(out)


def _strip_strings(text: str) -> str:
    """Replace quoted strings by "" so that '%' or braces inside them are not seen."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text[i] == '"':
            j = _skip_string(text, i)
            out.append('""')
            i = j
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def _results(spec: str) -> List[str]:
    names = []
    for part in spec.split(","):
        part = part.strip().lstrip("%")
        if ":" in part:
            base, count = part.split(":")
            names.extend(f"{base}#{k}" for k in range(int(count)))
        else:
            names.append(part)
    return names


def _op_name(rest: str) -> str:
    rest = rest.strip()
    if rest.startswith('""'):  # generic form with the string stripped: recover from original
        return ""
    m = re.match(r'([A-Za-z_][A-Za-z0-9_.]*)', rest)
    return m.group(1) if m else ""


def _operands_before_types(text: str) -> List[str]:
    """Operand values of an op's text, ignoring anything after ' : ' (types)."""
    head = text.split(" : ", 1)[0]
    return _VALUE_RE.findall(head)


class _Frame:
    def __init__(self, op: str, results: List[str]):
        self.op = op
        self.results = results
        self.region = 0
        self.iter_args: List[str] = []  # scf.for / scf.while region-0 arguments
        self.cond_values: List[str] = []  # scf.while: values forwarded by scf.condition
        self.after_args: List[str] = []  # scf.while: region-1 block arguments


def analyze_writes(func: TTIRFunc) -> WriteInfo:
    """Return which arguments of `func` may be written (see module docstring)."""
    body = strip_locs(func.body)
    edges: Dict[str, Set[str]] = {}
    sinks: List[tuple] = []  # (value, kind) with kind in 'store' 'atomic' 'call'

    def edge(src: str, dst: str) -> None:
        edges.setdefault(dst, set()).add(src)

    stack: List[_Frame] = []
    for raw in body.splitlines():
        line = raw.strip()
        if not line:
            continue
        # Generic-form op names are quoted: "tt.reduce"(%x) ... -> tt.reduce(%x) ...
        line = re.sub(r'"([a-z_]+\.[A-Za-z0-9_.]+)"\s*\(', r'\1(', line)
        line = _strip_strings(line)
        if line.startswith("^"):  # block header: ^bb0(%a: f32, %b: f32):
            if stack:
                fr = stack[-1]
                names = _BLOCK_ARG_RE.findall(line)
                if fr.op == "scf.while" and fr.region == 1:
                    fr.after_args = names
                    for k, v in enumerate(fr.cond_values):
                        if k < len(names):
                            edge(v, names[k])
            continue
        if line.startswith("}"):
            if line.rstrip().endswith("{") and stack:  # '} else {', '} do {'
                stack[-1].region += 1
            elif stack:
                stack.pop()
            continue

        m = _RESULTS_RE.match(line)
        if m:
            results, rest = _results(m.group(1)), m.group(2)
        else:
            results, rest = [], line
        op = _op_name(rest)
        after_op = rest[len(op):] if op else rest
        opens_region = line.endswith("{")

        if op == "scf.for":
            fr = _Frame(op, results)
            span = re.search(r"iter_args\((.*?)\)\s*->", after_op)
            if span:
                for arg, init in _PAIR_RE.findall(span.group(1)):
                    fr.iter_args.append(arg)
                    edge(init, arg)
            stack.append(fr)
            continue
        if op == "scf.while":
            fr = _Frame(op, results)
            span = re.match(r"\s*\((.*?)\)\s*:", after_op)
            if span:
                for arg, init in _PAIR_RE.findall(span.group(1)):
                    fr.iter_args.append(arg)
                    edge(init, arg)
            stack.append(fr)
            continue
        if op == "scf.condition":
            close = after_op.find(")")
            vals = _operands_before_types(after_op[close + 1:]) if close >= 0 else []
            if stack and stack[-1].op == "scf.while":
                fr = stack[-1]
                fr.cond_values = vals
                for k, v in enumerate(vals):
                    if k < len(fr.results):
                        edge(v, fr.results[k])
            continue
        if op == "scf.yield":
            vals = _operands_before_types(after_op)
            if stack:
                fr = stack[-1]
                targets: List[List[str]] = []
                if fr.op == "scf.for":
                    targets = [fr.iter_args, fr.results]
                elif fr.op == "scf.while":
                    targets = [fr.iter_args] if fr.region == 1 else []
                else:
                    targets = [fr.results]
                for names in targets:
                    for k, v in enumerate(vals):
                        if k < len(names):
                            edge(v, names[k])
            continue
        if op.endswith(".return") or op == "tt.return":
            continue

        operands = _operands_before_types(after_op)
        if op in STORE_OPS or op in ATOMIC_OPS or op.startswith("tt.descriptor_") and (
                "store" in op or "scatter" in op or "reduce" in op):
            if operands:
                sinks.append((operands[0], "atomic" if op in ATOMIC_OPS else "store"))
        elif op == "tt.call":
            for v in operands:
                sinks.append((v, "call"))
        if op not in DATA_OPS:
            for r in results:
                for o in operands:
                    edge(o, r)
        if opens_region:
            stack.append(_Frame(op, results))

    arg_index = {a.name: a.index for a in func.args}
    info = WriteInfo()
    for value, kind in sinks:
        seen, todo = set(), [value]
        while todo:
            v = todo.pop()
            if v in seen:
                continue
            seen.add(v)
            if v in arg_index:
                getattr(info, {"store": "stores", "atomic": "atomics", "call": "calls"}[kind]).add(arg_index[v])
            todo.extend(edges.get(v, ()))
    return info
