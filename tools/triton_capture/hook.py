"""Intercept every Triton kernel launch and record it (README: "How launches are hooked").

Where launches go through, in Triton 3.6 and PyTorch 2.11:

* ``triton.compiler.compiler.CompiledKernel.run`` is a property: the first access runs
  ``_init_handles()``, which sets ``self._run = driver.active.launcher_cls(self.src, self.metadata)``
  (a ``CudaLauncher``), and returns it.
* ``JITFunction.run`` (``kernel[grid](...)``) calls ``kernel.run(grid_0, grid_1, grid_2, stream,
  kernel.function, kernel.packed_metadata, launch_metadata, launch_enter_hook, launch_exit_hook,
  *bound_args.values())`` -- one value per Python parameter, constexprs included.
* Inductor (``TritonCompileResult.make_launcher``) reads ``binary.run`` once when it builds a
  launcher and calls it with the same 9 leading arguments and one value per kernel parameter
  (``call_args = fn.arg_names``, constexprs replaced by their values). Its static CUDA launcher
  (``StaticallyLaunchedCudaKernel``) bypasses Triton's launcher; the worker turns it off
  (``torch._inductor.config.use_static_cuda_launcher = False``) and this module counts any launch
  that still goes that way.

So replacing the ``run`` property with one that returns a wrapper around the real launcher sees
every launch with the CompiledKernel it belongs to. The kernel arguments are the last
``len(kernel.src.signature)`` positional arguments, the grid the first three.

Launches made while Inductor or triton.testing benchmark (autotuning) are not recorded: the
benchmarking entry points are wrapped to raise a counter, and those launches are only counted.
"""

import functools
import json
import os
import re
import sys
import traceback
import weakref
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from .argmap import MappingError, encode_scalar, plan_launch
from .families import classify
from .record import TTIR_HASH_CHARS, WorkDir, WorkloadWriter, sha256_hex, validate_record
from .ttir_signature import TTIRFunc, TTIRParseError, parse_public_func
from .ttir_writes import WriteInfo, analyze_writes

LAUNCH_HEAD = 9  # gridX gridY gridZ stream function packed_metadata launch_metadata enter exit
FLOAT_ELEMS = re.compile(r"^(f16|bf16|f32|f64|f8.*|tf32)$")
POISON_FILL = 255


class Skip(Exception):
    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass
class KernelPlan:
    name: str
    ttir: str = ""
    ttir_hash: str = ""
    ttir_path: str = ""
    func: Optional[TTIRFunc] = None
    writes: Optional[WriteInfo] = None
    signature: List[Tuple[str, Any]] = field(default_factory=list)
    constants: Dict[Tuple[int, ...], Any] = field(default_factory=dict)
    num_warps: Any = None
    num_stages: Any = None
    py_src: str = ""
    error: Optional[str] = None
    families: Dict[Any, str] = field(default_factory=dict)


@dataclass
class Buffer:
    id: int
    storage: Any
    base: int
    nbytes: int
    device: Any
    arg_indices: List[int] = field(default_factory=list)  # TTIR argument indices pointing in
    elems: List[str] = field(default_factory=list)  # their TTIR element types
    _view: Any = None

    def view(self):
        """A uint8 tensor over the whole storage."""
        if self._view is None:
            import torch
            v = torch.empty(0, dtype=torch.uint8, device=self.device)
            try:
                v.set_(self.storage, 0, (self.nbytes,), (1,))
            except (TypeError, RuntimeError):  # older bindings want a typed storage
                typed = torch.storage.TypedStorage(wrap_storage=self.storage, dtype=torch.uint8, _internal=True)
                v.set_(typed, 0, (self.nbytes,), (1,))
            self._view = v
        return self._view


@dataclass
class Prepared:
    plan: KernelPlan
    grid: Tuple[int, int, int]
    params: List[Dict[str, Any]]
    args: List[Dict[str, Any]]
    buffers: List[Buffer]
    key: Any
    total_bytes: int


class WorkloadState:
    def __init__(self, name: str, writer: WorkloadWriter, family_hint: str):
        self.name = name
        self.writer = writer
        self.family_hint = family_hint
        self.seen = set()
        self.skip_seen = set()
        self.calls = 0
        self.recorded = 0
        self.duplicates = 0
        self.autotune = 0
        self.static = 0

    def counters(self) -> Dict[str, int]:
        return {"calls": self.calls, "launches": self.recorded, "duplicates": self.duplicates,
                "autotune_launches": self.autotune, "skipped": self.writer.skips,
                "static_launcher_launches": self.static}


def _host_bytes(t) -> bytes:
    try:
        return t.numpy().tobytes()
    except Exception:  # numpy missing or unusual tensor
        return bytes(t.tolist())


def _is_float_elem(elem: Optional[str]) -> bool:
    return bool(elem) and bool(FLOAT_ELEMS.match(elem))


class _KernelMap:
    """Per-kernel values: weakly keyed (CompiledKernel objects), by identity otherwise."""

    def __init__(self):
        self._weak = weakref.WeakKeyDictionary()
        self._strong = {}

    def get(self, kernel):
        try:
            return self._weak.get(kernel)
        except TypeError:
            hit = self._strong.get(id(kernel))
            return hit[1] if hit is not None and hit[0] is kernel else None

    def set(self, kernel, value) -> None:
        try:
            self._weak[kernel] = value
        except TypeError:
            self._strong[id(kernel)] = (kernel, value)


class Recorder:
    """Holds the current workload and records the launches made while it runs."""

    def __init__(self, work: WorkDir, size_cap_bytes: int, log=None):
        self.work = work
        self.size_cap = size_cap_bytes
        self.log = log or (lambda msg: print(msg, file=sys.stderr, flush=True))
        self.active: Optional[WorkloadState] = None
        self.bench_depth = 0
        self.busy = False
        self._plans = _KernelMap()
        self._wrappers = _KernelMap()
        self._warned = set()

    # workload bracket ------------------------------------------------------------------------
    def begin(self, name: str, writer: WorkloadWriter, family_hint: str) -> None:
        self.active = WorkloadState(name, writer, family_hint)

    def end(self) -> Dict[str, int]:
        st, self.active = self.active, None
        return st.counters() if st else {}

    def warn_once(self, key: str, msg: str) -> None:
        if key not in self._warned:
            self._warned.add(key)
            self.log(f"warning: {msg}")

    # the wrapper -----------------------------------------------------------------------------
    def wrap(self, kernel, launcher):
        w = self._wrappers.get(kernel)
        if w is not None and w[0] is launcher:
            return w[1]
        recorder = self

        def capture_launch(*args, **kwargs):
            return recorder.on_launch(kernel, launcher, args, kwargs)

        capture_launch.__wrapped__ = launcher
        self._wrappers.set(kernel, (launcher, capture_launch))
        return capture_launch

    def on_static_launch(self, name: str) -> None:
        st = self.active
        if st is not None:
            st.static += 1
            self._skip(st, name, "launched by Inductor's static CUDA launcher (not through Triton): not recorded")

    def on_launch(self, kernel, launcher, args, kwargs):
        st = self.active
        if st is None or self.busy:
            return launcher(*args, **kwargs)
        st.calls += 1
        if self.bench_depth > 0:
            st.autotune += 1
            return launcher(*args, **kwargs)
        name = self._kernel_name(kernel)
        try:
            prep = self._prepare(kernel, args)
        except Skip as s:
            self._skip(st, name, s.reason)
            return launcher(*args, **kwargs)
        except Exception as e:  # a bug here must not break the workload
            self._skip(st, name, f"capture error: {type(e).__name__}: {e}")
            return launcher(*args, **kwargs)
        if prep.key in st.seen:
            st.duplicates += 1
            return launcher(*args, **kwargs)
        st.seen.add(prep.key)
        if prep.total_bytes > self.size_cap:
            self._skip(st, name, f"size cap: {prep.total_bytes} buffer bytes > {self.size_cap}")
            return launcher(*args, **kwargs)
        return self._capture(st, launcher, args, kwargs, prep)

    # -----------------------------------------------------------------------------------------
    def _skip(self, st: WorkloadState, kernel: str, reason: str) -> None:
        key = (kernel, reason)
        if key in st.skip_seen:
            return
        st.skip_seen.add(key)
        st.writer.add_skip(kernel, reason)

    @staticmethod
    def _kernel_name(kernel) -> str:
        name = getattr(kernel, "name", None)
        if not name:
            name = getattr(getattr(kernel, "metadata", None), "name", None) or "?"
        return str(name)

    def _plan(self, kernel) -> KernelPlan:
        plan = self._plans.get(kernel)
        if plan is None:
            plan = self._make_plan(kernel)
            self._plans.set(kernel, plan)
        return plan

    def _make_plan(self, kernel) -> KernelPlan:
        plan = KernelPlan(name=self._kernel_name(kernel))
        try:
            plan.ttir = _kernel_ttir(kernel)
            if not plan.ttir:
                raise Skip("the compiled kernel has no TTIR (asm['ttir'] missing)")
            plan.ttir_hash = sha256_hex(plan.ttir.encode("utf-8"))[:TTIR_HASH_CHARS]
            src = getattr(kernel, "src", None)
            sig = getattr(src, "signature", None)
            if not isinstance(sig, dict):
                raise Skip("the compiled kernel's source has no Python signature (compiled from IR?)")
            plan.signature = list(sig.items())
            names = [n for n, _ in plan.signature]
            consts = {}
            for k, v in dict(getattr(src, "constants", None) or {}).items():
                if isinstance(k, str):
                    k = (names.index(k),)
                elif isinstance(k, int):
                    k = (k,)
                consts[tuple(k)] = v
            plan.constants = consts
            plan.func = parse_public_func(plan.ttir)
            try:
                plan.writes = analyze_writes(plan.func)
            except Exception as e:  # poison float buffers only (see _should_poison)
                self.warn_once("writes:" + plan.name, f"{plan.name}: write analysis failed ({e})")
                plan.writes = None
            md = getattr(kernel, "metadata", None)
            plan.num_warps = getattr(md, "num_warps", None)
            plan.num_stages = getattr(md, "num_stages", None)
            plan.py_src = _kernel_source(kernel, plan.ttir)
        except Skip as s:
            plan.error = s.reason
        except (TTIRParseError, ValueError) as e:
            plan.error = f"cannot read the TTIR signature: {e}"
        except Exception as e:
            plan.error = f"capture error while planning: {type(e).__name__}: {e}"
        return plan

    def _prepare(self, kernel, args) -> Prepared:
        import torch

        plan = self._plan(kernel)
        if plan.error:
            raise Skip(plan.error)
        if torch.cuda.is_current_stream_capturing():
            raise Skip("launched during CUDA graph capture")
        n = len(plan.signature)
        head = len(args) - n
        if head < 3:
            raise Skip(f"launcher called with {len(args)} arguments for {n} kernel parameters")
        if head != LAUNCH_HEAD:
            self.warn_once("head", f"launcher called with {head} leading arguments (expected {LAUNCH_HEAD}); "
                                   f"taking the grid from the first three and the kernel arguments from the last {n}")
        grid = tuple(int(g) for g in args[:3])
        if grid[0] * grid[1] * grid[2] == 0:
            raise Skip("empty grid")
        values = args[head:] if n else ()
        try:
            params, planned = plan_launch(plan.signature, plan.constants, values, plan.func.args)
        except MappingError as e:
            raise Skip(f"arguments do not match the TTIR signature: {e}")

        buffers: List[Buffer] = []
        by_base: Dict[Any, Buffer] = {}
        entries: List[Dict[str, Any]] = []
        for p in planned:
            if p.kind == "scalar":
                entries.append(encode_scalar(p.ttir.elem, p.value))
                continue
            t = p.value if p.kind == "ptr" else getattr(p.value, "base", None)
            if not isinstance(t, torch.Tensor):
                raise Skip(f"{p.leaf.name}: pointer argument is a {type(t).__name__}, not a tensor")
            if t.device.type != "cuda":
                raise Skip(f"{p.leaf.name}: tensor on {t.device}")
            storage = t.untyped_storage()
            base, nbytes = int(storage.data_ptr()), int(storage.nbytes())
            key = base if base else ("empty", len(buffers))
            buf = by_base.get(key)
            if buf is not None and buf.nbytes != nbytes:
                raise Skip(f"{p.leaf.name}: two storages start at one address with different sizes")
            if buf is None:
                buf = Buffer(id=len(buffers), storage=storage, base=base, nbytes=nbytes, device=t.device)
                by_base[key] = buf
                buffers.append(buf)
            offset = int(t.data_ptr()) - base if base else 0
            if offset < 0 or offset > nbytes:
                raise Skip(f"{p.leaf.name}: data pointer outside its storage")
            buf.arg_indices.append(p.ttir.index)
            buf.elems.append(p.ttir.elem)
            entry = {"kind": p.kind, "buffer": buf.id, "offset": offset,
                     "dtype": str(t.dtype).replace("torch.", "")}
            if p.kind == "desc":
                desc = p.value
                block = [int(b) for b in desc.block_shape]
                if block != list(p.ttir.block or []):
                    raise Skip(f"{p.leaf.name}: block shape {block} but TTIR block {p.ttir.block}")
                entry["shape"] = [int(s) for s in desc.shape]
                entry["strides"] = [int(s) for s in desc.strides]
                entry["block"] = block
            entries.append(entry)
        spans = sorted((b.base, b.base + b.nbytes) for b in buffers if b.base and b.nbytes)
        for (a0, a1), (b0, b1) in zip(spans, spans[1:]):
            if a1 > b0:
                raise Skip("two argument storages overlap in memory")
        key = (plan.ttir_hash, grid, json.dumps(entries, sort_keys=True), tuple(b.nbytes for b in buffers))
        return Prepared(plan=plan, grid=grid, params=params, args=entries, buffers=buffers, key=key,
                        total_bytes=sum(b.nbytes for b in buffers))

    def _should_poison(self, plan: KernelPlan, buf: Buffer) -> bool:
        """Poison an unchanged buffer only if the kernel may write it (and it is not a lock)."""
        w = plan.writes
        if w is None:  # no analysis: float data only (0xFF floats are NaNs, not indices)
            return all(_is_float_elem(e) for e in buf.elems)
        written = [i for i in buf.arg_indices if w.may_write(i)]
        if not written:
            return False
        if all(w.only_atomic(i) for i in written) and not any(_is_float_elem(e) for e in buf.elems):
            return False  # integers touched only by atomics: a lock or a counter (could spin forever)
        return True

    def _capture(self, st: WorkloadState, launcher, args, kwargs, prep: Prepared):
        import torch

        plan = prep.plan
        self.busy = True
        try:
            with torch.no_grad():
                try:
                    torch.cuda.synchronize()
                    views = [b.view() for b in prep.buffers]
                    before = [v.cpu() for v in views]
                except Exception as e:
                    self._skip(st, plan.name, f"capture error before the launch: {type(e).__name__}: {e}")
                    return launcher(*args, **kwargs)
                result = launcher(*args, **kwargs)  # the real launch (its exceptions propagate)
                after = None
                try:
                    torch.cuda.synchronize()
                    after = [v.cpu() for v in views]
                    changed = [not torch.equal(a, b) for a, b in zip(before, after)]
                    poisoned = {}
                    candidates = [i for i, b in enumerate(prep.buffers)
                                  if not changed[i] and self._should_poison(plan, b)]
                    if candidates:
                        for i in candidates:
                            for v, h in zip(views, before):
                                v.copy_(h)
                            views[i].fill_(POISON_FILL)
                            torch.cuda.synchronize()  # the launch may use another stream
                            launcher(*args, **kwargs)
                            torch.cuda.synchronize()
                            p = views[i].cpu()
                            if not bool((p == POISON_FILL).all()):
                                poisoned[i] = p
                        for v, h in zip(views, after):  # leave the workload's real state
                            v.copy_(h)
                        torch.cuda.synchronize()
                    self._write(st, prep, before, after, changed, poisoned)
                except Exception as e:
                    self._skip(st, plan.name, f"capture error after the launch: {type(e).__name__}: {e}")
                    self.log(traceback.format_exc())
                    if after is not None:  # a poison relaunch may have left other bytes behind
                        try:
                            for v, h in zip(views, after):
                                v.copy_(h)
                            torch.cuda.synchronize()
                        except Exception:
                            pass
                return result
        finally:
            self.busy = False

    def _write(self, st: WorkloadState, prep: Prepared, before, after, changed, poisoned) -> None:
        plan = prep.plan
        if not plan.ttir_path:
            plan.ttir_path = self.work.ttir(plan.ttir)
        bufs = []
        for i, b in enumerate(prep.buffers):
            entry = {"id": b.id, "nbytes": b.nbytes,
                     "before": self.work.blob(_host_bytes(before[i])),
                     "after": self.work.blob(_host_bytes(after[i])),
                     "changed": bool(changed[i])}
            if i in poisoned:
                entry["poisoned"] = {"fill": POISON_FILL, "after": self.work.blob(_host_bytes(poisoned[i]))}
            bufs.append(entry)
        record = {
            "id": "",
            "kernel": plan.name,
            "ttir": plan.ttir_path,
            "grid": list(prep.grid),
            "num_warps": plan.num_warps,
            "num_stages": plan.num_stages,
            "params": prep.params,
            "args": prep.args,
            "buffers": bufs,
        }
        problems = validate_record(record)
        if problems:
            raise ValueError("invalid record: " + "; ".join(problems[:3]))
        hint = st.family_hint
        family = plan.families.get(hint)
        if family is None:
            family = plan.families[hint] = classify(plan.name, plan.ttir, plan.py_src, hint)
        st.writer.add_record(record, family)
        st.recorded += 1
        if st.recorded % 25 == 0:
            self.log(f"[{st.name}] {st.recorded} launches recorded, {st.writer.skips} skipped "
                     f"({st.calls} calls, {st.duplicates} duplicates, {st.autotune} while autotuning)")


# ----------------------------------------------------------------------------------------------


def _kernel_ttir(kernel) -> str:
    text = None
    asm = getattr(kernel, "asm", None)
    if asm is not None:
        try:
            text = asm["ttir"]
        except Exception:
            text = None
    if not text:  # fall back to the cache file the kernel was loaded from
        group = getattr(kernel, "metadata_group", None) or {}
        for key, path in dict(group).items():
            if str(key).endswith(".ttir"):
                try:
                    with open(path, "r", encoding="utf-8") as f:
                        text = f.read()
                except OSError:
                    pass
                break
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    return text or ""


_LOC_FILE = re.compile(r'loc\("([^"]+\.py)":\d+')


def _kernel_source(kernel, ttir: str) -> str:
    """The kernel's Python source (JITFunction.src), or the file its TTIR locations name."""
    fn = getattr(getattr(kernel, "src", None), "fn", None)
    try:
        src = getattr(fn, "src", None)
        if isinstance(src, str) and src:
            return src
    except Exception:
        pass
    m = _LOC_FILE.search(ttir)
    if m and os.path.isfile(m.group(1)):
        try:
            if os.path.getsize(m.group(1)) < (1 << 20):
                with open(m.group(1), "r", encoding="utf-8", errors="replace") as f:
                    return f.read()
        except OSError:
            pass
    return ""


# ----------------------------------------------------------------------------------------------
# Installation


def install(recorder: Recorder) -> List[str]:
    """Patch Triton's CompiledKernel and the benchmarking entry points; return what was patched."""
    from triton.compiler import compiler as tc

    done = []
    ck = tc.CompiledKernel
    prop = ck.__dict__.get("run")
    if isinstance(prop, property) and prop.fget is not None:
        fget = prop.fget

        def run(kself):
            launcher = fget(kself)
            return recorder.wrap(kself, launcher) if launcher is not None else launcher

        ck.run = property(run)
        done.append("CompiledKernel.run (property)")
    else:  # older layout: _init_handles assigns self.run
        orig_init = ck._init_handles

        def _init_handles(kself):
            orig_init(kself)
            launcher = kself.__dict__.get("run")
            if launcher is not None and getattr(launcher, "__wrapped__", None) is None:
                kself.run = recorder.wrap(kself, launcher)

        ck._init_handles = _init_handles
        done.append("CompiledKernel._init_handles")

    done += _install_benchmark_guards(recorder)
    done += _install_static_launcher_counter(recorder)
    return done


def _guard(recorder: Recorder, fn):
    if getattr(fn, "_triton_capture_guard", False):
        return fn

    @functools.wraps(fn)
    def guarded(*args, **kwargs):
        recorder.bench_depth += 1
        try:
            return fn(*args, **kwargs)
        finally:
            recorder.bench_depth -= 1

    guarded._triton_capture_guard = True
    return guarded


def _guard_methods(recorder: Recorder, module, names, base=None) -> List[str]:
    import inspect

    done = []
    for cls_name, cls in list(vars(module).items()):
        if not isinstance(cls, type) or getattr(cls, "__module__", None) != module.__name__:
            continue
        if base is not None and not issubclass(cls, base):
            continue
        for name, fn in list(vars(cls).items()):
            if inspect.isfunction(fn) and any(name == n or (n.endswith("*") and name.startswith(n[:-1]))
                                              for n in names):
                setattr(cls, name, _guard(recorder, fn))
                done.append(f"{module.__name__}.{cls_name}.{name}")
    return done


def _install_benchmark_guards(recorder: Recorder) -> List[str]:
    import importlib

    done = []
    try:
        import triton.testing as tt
        for name in ("do_bench", "do_bench_cudagraph"):
            if hasattr(tt, name):
                setattr(tt, name, _guard(recorder, getattr(tt, name)))
                done.append(f"triton.testing.{name}")
    except Exception:
        pass
    specs = [
        ("torch._inductor.runtime.benchmarking", ("benchmark*",), "Benchmarker"),
        ("torch._inductor.runtime.triton_heuristics", ("bench", "benchmark_all_configs"), None),
        ("torch._inductor.autotune_process", ("benchmark", "do_bench"), None),
        ("torch._inductor.select_algorithm", ("benchmark",), None),
    ]
    for mod_name, names, base_name in specs:
        try:
            mod = importlib.import_module(mod_name)
        except Exception:
            continue
        base = getattr(mod, base_name, None) if base_name else None
        try:
            done += _guard_methods(recorder, mod, names, base)
        except Exception as e:
            recorder.log(f"warning: could not guard benchmarking in {mod_name}: {e}")
    for mod_name, fn_name in (("torch._inductor.utils", "do_bench_using_profiling"),):
        try:
            mod = importlib.import_module(mod_name)
            if hasattr(mod, fn_name):
                setattr(mod, fn_name, _guard(recorder, getattr(mod, fn_name)))
                done.append(f"{mod_name}.{fn_name}")
        except Exception:
            pass
    return done


def _install_static_launcher_counter(recorder: Recorder) -> List[str]:
    try:
        from torch._inductor.runtime import static_cuda_launcher as scl
    except Exception:
        return []
    cls = getattr(scl, "StaticallyLaunchedCudaKernel", None)
    if cls is None or not hasattr(cls, "run"):
        return []
    orig = cls.run

    @functools.wraps(orig)
    def run(self, *args, **kwargs):
        recorder.on_static_launch(str(getattr(self, "name", "?")))
        return orig(self, *args, **kwargs)

    cls.run = run
    return ["StaticallyLaunchedCudaKernel.run (counted, not recorded)"]
