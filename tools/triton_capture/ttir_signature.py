"""Parse the public ``tt.func`` of a TTIR module: its name, its arguments and its body.

Only the standard library: this runs in the self-test without torch or triton.

The argument list of the kernel function looks like (one line in a real dump)::

    tt.func public @add_kernel(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32} loc("a.py":28:0),
                               %d: !tt.tensordesc<tensor<4x8xf32>> loc(#loc1), %n: i32) attributes {...} {

Every argument is ``%name: TYPE`` optionally followed by an attribute dictionary ``{...}`` and a
location ``loc(...)``. Types nest ``<...>``; locations hold quoted file names that may contain
any character, so the scanner below skips quoted strings and tracks bracket depth.
"""

import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

SCALAR_TYPES = ("i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64")
_OPEN = "([{<"
_CLOSE = ")]}>"


class TTIRParseError(ValueError):
    pass


@dataclass
class TTIRArg:
    index: int
    name: str  # without the leading '%'
    type: str  # the type as printed, e.g. '!tt.ptr<f32>'
    kind: str  # 'ptr' | 'desc' | 'scalar' | 'other'
    elem: Optional[str] = None  # pointee (ptr) / element (desc) type, e.g. 'f32', 'f8E4M3FN'
    block: Optional[List[int]] = None  # desc: block shape
    attrs: Dict[str, str] = field(default_factory=dict)  # e.g. {'tt.divisibility': '16'}


@dataclass
class TTIRFunc:
    name: str
    args: List[TTIRArg]
    body: str  # text between the body's braces


def _skip_string(text: str, i: int) -> int:
    """text[i] is '"'; return the index just past the closing quote."""
    i += 1
    while i < len(text):
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == '"':
            return i + 1
        i += 1
    raise TTIRParseError("unterminated string")


def match_closing(text: str, i: int, opening: str = _OPEN, closing: str = _CLOSE,
                  what: str = "brackets") -> int:
    """text[i] opens a bracket; return the index of the one closing it. Only `opening` and
    `closing` count; strings are skipped; '->' is an arrow, not a closing '>'."""
    depth = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == '"':
            i = _skip_string(text, i)
            continue
        if c in opening:
            depth += 1
        elif c in closing and not (c == ">" and i > 0 and text[i - 1] == "-"):
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise TTIRParseError("unbalanced " + what)


def match_bracket(text: str, i: int) -> int:
    """text[i] is an opening bracket of any kind; the index of its matching closing bracket."""
    return match_closing(text, i)


def match_brace(text: str, i: int) -> int:
    """text[i] is '{'; the index of the matching '}' (only braces count)."""
    return match_closing(text, i, "{", "}", "braces")


def split_top_level(text: str, sep: str = ",") -> List[str]:
    """Split at `sep` where no bracket is open and outside strings."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(text):
        c = text[i]
        if c == '"':
            i = _skip_string(text, i)
            continue
        if c in _OPEN:
            depth += 1
        elif c in _CLOSE and not (c == ">" and i > 0 and text[i - 1] == "-"):
            depth -= 1
        elif c == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
        i += 1
    tail = text[start:]
    if tail.strip():
        parts.append(tail)
    return [p.strip() for p in parts]


def _read_type(text: str) -> Tuple[str, str]:
    """Read one type at the start of `text`; return (type, rest)."""
    text = text.lstrip()
    depth, i = 0, 0
    while i < len(text):
        c = text[i]
        if c in "<([":
            depth += 1
        elif c in ">)]":
            depth -= 1
        elif c in " \t\n{" and depth == 0:
            break
        elif c == "," and depth == 0:
            break
        i += 1
    return text[:i], text[i:]


def _parse_attrs(text: str) -> Dict[str, str]:
    """'{tt.divisibility = 16 : i32, tt.foo}' -> {'tt.divisibility': '16', 'tt.foo': ''}"""
    inner = text.strip()[1:-1]
    out = {}
    for item in split_top_level(inner):
        if "=" in item:
            key, value = item.split("=", 1)
            value = value.strip()
            if " : " in value:  # '16 : i32'
                value = value.split(" : ", 1)[0].strip()
            out[key.strip()] = value
        elif item:
            out[item.strip()] = ""
    return out


_TENSOR_RE = re.compile(r"^tensor<((?:\d+x)*)([A-Za-z0-9_]+)")


def classify_type(ty: str) -> Tuple[str, Optional[str], Optional[List[int]]]:
    """Return (kind, elem, block) for a TTIR argument type."""
    if ty.startswith("!tt.ptr<") and ty.endswith(">"):
        inner = ty[len("!tt.ptr<"):-1]
        elem = split_top_level(inner)[0]
        return "ptr", elem, None
    if ty.startswith("!tt.tensordesc<") and ty.endswith(">"):
        inner = ty[len("!tt.tensordesc<"):-1].strip()
        m = _TENSOR_RE.match(inner)
        if not m:
            raise TTIRParseError(f"cannot read tensor descriptor type {ty!r}")
        dims = [int(d) for d in m.group(1).split("x") if d]
        return "desc", m.group(2), dims
    if ty in SCALAR_TYPES:
        return "scalar", ty, None
    return "other", None, None


def parse_arg(index: int, text: str) -> TTIRArg:
    text = text.strip()
    m = re.match(r'%([A-Za-z0-9_$.#-]+)\s*:\s*', text)
    if not m:
        raise TTIRParseError(f"cannot read argument {text[:80]!r}")
    name = m.group(1)
    ty, rest = _read_type(text[m.end():])
    rest = rest.strip()
    attrs = {}
    if rest.startswith("{"):
        end = match_bracket(rest, 0)
        attrs = _parse_attrs(rest[:end + 1])
        rest = rest[end + 1:].strip()
    if rest and not rest.startswith("loc("):
        raise TTIRParseError(f"unexpected text after argument {name}: {rest[:60]!r}")
    kind, elem, block = classify_type(ty)
    return TTIRArg(index=index, name=name, type=ty, kind=kind, elem=elem, block=block, attrs=attrs)


_FUNC_RE = re.compile(r'\btt\.func\s+public\s+@("?)([A-Za-z0-9_$.-]+)\1\s*\(')


def parse_public_func(ttir: str) -> TTIRFunc:
    """Find the (first) public tt.func and parse its arguments and body."""
    m = _FUNC_RE.search(ttir)
    if not m:
        raise TTIRParseError("no 'tt.func public' in the TTIR")
    open_paren = m.end() - 1
    close_paren = match_bracket(ttir, open_paren)
    arg_text = ttir[open_paren + 1:close_paren]
    args = [parse_arg(i, a) for i, a in enumerate(split_top_level(arg_text))]
    # After the argument list: optional '-> results', optional 'attributes {...}', then '{' body.
    i = close_paren + 1
    n = len(ttir)
    while i < n:
        c = ttir[i]
        if c == '"':
            i = _skip_string(ttir, i)
            continue
        if ttir.startswith("attributes", i):
            j = ttir.index("{", i)
            i = match_brace(ttir, j) + 1
            continue
        if c == "{":
            break
        i += 1
    if i >= n:
        raise TTIRParseError("no body after the function signature")
    end = match_brace(ttir, i)
    return TTIRFunc(name=m.group(2), args=args, body=ttir[i + 1:end])


def signature_summary(func: TTIRFunc) -> List[str]:
    """['ptr:f32', 'desc:f32[4x8]', 'scalar:i32', ...] (handy in messages and tests)."""
    out = []
    for a in func.args:
        if a.kind == "ptr":
            out.append(f"ptr:{a.elem}")
        elif a.kind == "desc":
            out.append(f"desc:{a.elem}[{'x'.join(map(str, a.block or []))}]")
        elif a.kind == "scalar":
            out.append(f"scalar:{a.elem}")
        else:
            out.append(f"other:{a.type}")
    return out
