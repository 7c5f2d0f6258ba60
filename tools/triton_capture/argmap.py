"""Map the Python arguments of one launch onto the arguments of the TTIR kernel function.

Pure standard library (the self-test runs it without torch or triton); the launch hook
(hook.py) supplies the values and turns the pointer and descriptor entries into buffers.

How Triton 3.6 builds the TTIR argument list (see README, "Launcher arguments -> TTIR"):

* ``CompiledKernel.src.signature`` is an ordered ``{param name: type}`` covering *every* Python
  parameter; a launcher receives one value per entry, in that order, after its 9 leading
  arguments (grid x/y/z, stream, function, packed metadata, launch metadata, enter hook, exit
  hook).
* Types: ``"*fp32"`` / ``"*kfp16"`` (pointers, ``k`` = const), ``"i32" "i64" "u64" "u1"``
  (integers; Python bools are ``u1``), ``"fp32"`` (Python floats), ``"constexpr"``
  (``tl.constexpr`` parameters, ``None`` and integers equal to 1 when specialization is on),
  ``"tensordesc<fp16[64, 64]>"`` (host ``TensorDescriptor``), or a tuple of these (tuple params).
* ``CompiledKernel.src.constants`` maps paths ``(i,)`` / ``(i, j)`` to constexpr values.
* The code generator (``ASTFunction.serialize``) gives the TTIR function one argument per
  flattened leaf whose path is not in ``constants``; a tensordesc leaf becomes three groups:
  the ``!tt.tensordesc`` itself, then ``ndim`` i32 shape scalars, then ``ndim`` i64 strides.

The mapping is checked leaf by leaf against the parsed TTIR argument types; a mismatch raises
MappingError and the launch is listed as skipped rather than recorded wrongly.
"""

import math
import struct
from dataclasses import dataclass
from typing import Any, Dict, List, Sequence, Tuple

from .ttir_signature import TTIRArg


class MappingError(ValueError):
    pass


# Triton signature scalar types -> TTIR scalar type.
SIG_TO_TTIR = {
    "i1": "i1", "u1": "i1", "i8": "i8", "u8": "i8", "i16": "i16", "u16": "i16",
    "i32": "i32", "u32": "i32", "i64": "i64", "u64": "i64",
    "fp16": "f16", "bf16": "bf16", "fp32": "f32", "f32": "f32", "fp64": "f64",
}
INT_BITS = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64}
FLOAT_HEX_DIGITS = {"f16": 4, "bf16": 4, "f32": 8, "f64": 16}


@dataclass
class Leaf:
    path: Tuple[int, ...]
    name: str  # 'x_ptr' or 'pair[1]' for tuple members
    ty: Any  # signature type string
    value: Any
    const: bool  # path in constants, or type 'constexpr'


@dataclass
class Planned:
    kind: str  # 'ptr' | 'desc' | 'scalar'
    ttir: TTIRArg
    leaf: Leaf
    value: Any  # the Python object (tensor, TensorDescriptor, number)
    role: str = ""  # for desc-derived scalars: 'shape[k]' / 'stride[k]'


# ----------------------------------------------------------------------------------------------
# Scalars


def to_signed(value: int, bits: int) -> int:
    """Two's-complement reinterpretation of `value` in `bits` bits (i1 -> 0/1)."""
    if bits == 1:
        return int(value) & 1
    value = int(value) & ((1 << bits) - 1)
    return value - (1 << bits) if value >> (bits - 1) else value


def _f32_bits(x: float) -> int:
    try:
        return struct.unpack("<I", struct.pack("<f", x))[0]
    except OverflowError:  # C's (float) cast gives +-inf; struct refuses
        return 0x7F800000 if x > 0 else 0xFF800000


def float_bits(ty: str, x: float) -> int:
    """IEEE bits of `x` rounded (to nearest even) to the TTIR float type `ty`."""
    x = float(x)
    if ty == "f64":
        return struct.unpack("<Q", struct.pack("<d", x))[0]
    if ty == "f32":
        return _f32_bits(x)
    if ty == "f16":
        try:
            return struct.unpack("<H", struct.pack("<e", x))[0]
        except OverflowError:
            return 0x7C00 if x > 0 else 0xFC00
    if ty == "bf16":
        b = _f32_bits(x)
        if math.isnan(x):
            return ((b >> 16) | 0x40) & 0xFFFF  # quiet NaN, sign kept
        b += 0x7FFF + ((b >> 16) & 1)  # round to nearest even on the low 16 bits
        return (b >> 16) & 0xFFFF
    raise ValueError(f"not a float type: {ty}")


def bits_hex(ty: str, bits: int) -> str:
    return "0x" + format(bits, "0%dx" % FLOAT_HEX_DIGITS[ty])


def json_number(x: Any) -> Any:
    """A JSON-safe rendering of a Python number (non-finite floats become strings)."""
    if isinstance(x, bool):
        return int(x)
    if isinstance(x, int):
        return x
    x = float(x)
    if math.isfinite(x):
        return x
    return "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")


def _as_number(value: Any) -> Any:
    if isinstance(value, (bool, int, float)):
        return value
    if hasattr(value, "item"):  # numpy / torch scalars
        return value.item()
    if hasattr(value, "__index__"):
        return int(value)
    if hasattr(value, "__float__"):
        return float(value)
    raise MappingError(f"scalar argument of type {type(value).__name__}")


def encode_scalar(ttir_type: str, value: Any) -> Dict[str, Any]:
    """The `args` entry of a scalar of TTIR type `ttir_type` (FORMAT.md)."""
    v = _as_number(value)
    if ttir_type in INT_BITS:
        if isinstance(v, float):
            if not v.is_integer():
                raise MappingError(f"float {v} passed for integer type {ttir_type}")
            v = int(v)
        return {"kind": "scalar", "type": ttir_type, "value": to_signed(v, INT_BITS[ttir_type])}
    if ttir_type in FLOAT_HEX_DIGITS:
        bits = float_bits(ttir_type, v)
        return {"kind": "scalar", "type": ttir_type, "bits": bits_hex(ttir_type, bits),
                "value": json_number(float(v))}
    raise MappingError(f"unsupported scalar type {ttir_type}")


# ----------------------------------------------------------------------------------------------
# Parameters


def _jsonable(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return json_number(value)
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    inner = getattr(value, "value", None)  # tl.constexpr wraps its value
    if inner is not None and inner is not value and type(value).__name__ == "constexpr":
        return _jsonable(inner)
    return str(value)


def _type_text(ty: Any) -> Any:
    if isinstance(ty, tuple):
        return [_type_text(t) for t in ty]
    return str(ty)


def flatten_params(signature: Sequence[Tuple[str, Any]], constants: Dict[Tuple[int, ...], Any],
                   values: Sequence[Any]) -> Tuple[List[Dict[str, Any]], List[Leaf]]:
    """Return (params for the record, leaves in TTIR order).

    `signature` is the ordered (name, type) list of CompiledKernel.src.signature, `values` the
    launcher's kernel arguments (one per signature entry).
    """
    if len(values) != len(signature):
        raise MappingError(f"{len(values)} launch arguments for {len(signature)} parameters")
    params, leaves = [], []

    def walk(path, name, ty, value):
        if isinstance(ty, (tuple, list)):
            if not isinstance(value, (tuple, list)) or len(value) != len(ty):
                raise MappingError(f"parameter {name}: tuple type but value {type(value).__name__}")
            for k, (t, v) in enumerate(zip(ty, value)):
                walk(path + (k,), f"{name}[{k}]", t, v)
            return
        const = path in constants or ty == "constexpr"
        leaves.append(Leaf(path=path, name=name, ty=ty, value=constants.get(path, value), const=const))

    for i, ((name, ty), value) in enumerate(zip(signature, values)):
        path = (i,)
        const = path in constants or ty == "constexpr"
        entry = {"name": name, "type": _type_text(ty), "constexpr": bool(const)}
        if const:
            entry["value"] = _jsonable(constants.get(path, value))
        elif isinstance(ty, str) and not ty.startswith("*") and not ty.startswith("tensordesc"):
            try:
                entry["value"] = json_number(_as_number(value))
            except MappingError:
                pass
        params.append(entry)
        walk(path, name, ty, value)
    return params, leaves


def _scalar_ok(sig_ty: str, ttir_ty: str) -> bool:
    return SIG_TO_TTIR.get(sig_ty) == ttir_ty


def plan_args(leaves: Sequence[Leaf], ttir_args: Sequence[TTIRArg],
              exclude_constants: bool = True) -> List[Planned]:
    """Pair leaves with TTIR arguments; raise MappingError on any count or kind mismatch."""
    out: List[Planned] = []
    pos = 0

    def take(expect_kind: str, leaf: Leaf) -> TTIRArg:
        nonlocal pos
        if pos >= len(ttir_args):
            raise MappingError(f"{leaf.name}: TTIR has only {len(ttir_args)} arguments")
        a = ttir_args[pos]
        if a.kind != expect_kind:
            raise MappingError(f"{leaf.name} ({leaf.ty}) meets TTIR argument %{a.name}: {a.type}")
        pos += 1
        return a

    for leaf in leaves:
        if leaf.ty == "constexpr" or (exclude_constants and leaf.const):
            continue
        ty = str(leaf.ty)
        if ty.startswith("*"):
            out.append(Planned("ptr", take("ptr", leaf), leaf, leaf.value))
        elif ty.startswith("tensordesc"):
            a = take("desc", leaf)
            desc = leaf.value
            shape = list(getattr(desc, "shape", []))
            strides = list(getattr(desc, "strides", []))
            ndim = len(a.block or [])
            if len(shape) != ndim or len(strides) != ndim:
                raise MappingError(f"{leaf.name}: descriptor of rank {len(shape)} for TTIR block {a.block}")
            out.append(Planned("desc", a, leaf, desc))
            for k in range(ndim):
                s = take("scalar", leaf)
                if s.elem != "i32":
                    raise MappingError(f"{leaf.name}: shape scalar %{s.name} is {s.type}, expected i32")
                out.append(Planned("scalar", s, leaf, int(shape[k]), role=f"shape[{k}]"))
            for k in range(ndim):
                s = take("scalar", leaf)
                if s.elem != "i64":
                    raise MappingError(f"{leaf.name}: stride scalar %{s.name} is {s.type}, expected i64")
                out.append(Planned("scalar", s, leaf, int(strides[k]), role=f"stride[{k}]"))
        else:
            a = take("scalar", leaf)
            if not _scalar_ok(ty, a.elem):
                raise MappingError(f"{leaf.name} ({ty}) meets TTIR scalar %{a.name}: {a.type}")
            out.append(Planned("scalar", a, leaf, leaf.value))
    if pos != len(ttir_args):
        raise MappingError(f"{pos} launch arguments mapped, TTIR function has {len(ttir_args)}")
    return out


def plan_launch(signature, constants, values, ttir_args) -> Tuple[List[Dict[str, Any]], List[Planned]]:
    """flatten_params + plan_args, trying Triton's rule first (constants are not arguments), then
    the rule that drops only 'constexpr'-typed parameters."""
    params, leaves = flatten_params(signature, constants, values)
    try:
        return params, plan_args(leaves, ttir_args, exclude_constants=True)
    except MappingError as first:
        try:
            return params, plan_args(leaves, ttir_args, exclude_constants=False)
        except MappingError:
            raise first
