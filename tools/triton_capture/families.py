"""Kernel family of a recorded launch (FORMAT.md `family`).

classify(kernel_name, ttir, py_src, hint) looks, in this order, at:

1. flex attention: the Inductor flex templates (their source declares SPARSE_KV_BLOCK_SIZE /
   KV_NUM_BLKS), or 'flex' in the kernel name                      -> flex_attention
2. other Inductor templates ('triton_tem_' names): 'bmm' in the name or a batch stride
   ('stride_aq') -> template_bmm; 'conv' in the name or a kernel window (KERNEL_H) ->
   template_conv; else the workload's hint if it is a template_* family; else template_mm
3. a scan op in the TTIR (tt.scan: cumsum, cumprod, logcumsumexp, tl.cumsum) -> scan
4. sorting: 'sort'/'topk' in the name, or the source calls tl.sort / sort_with_index / a bitonic
   helper (Triton inlines them, so the TTIR has no sort op)     -> sort
5. gathers and scatters: a tt.gather op; for Inductor kernels also 'gather', 'scatter',
   'index_add', 'index_put', 'index_select' or 'embedding' in the name, or an atomic add in a
   pointwise kernel (Inductor emits atomics only for scatter-style accumulation) -> gather_scatter
6. Inductor prefixes: triton_poi_ -> pointwise, triton_red_ -> reduction, triton_per_ ->
   persistent_reduction, triton_for_ (foreach, e.g. the compiled AdamW step) -> pointwise;
   any other 'triton_' name: reduction if the TTIR reduces, else pointwise
7. anything else is hand-written                               -> user

argmax/argmin are tt.reduce reductions, so they land in reduction / persistent_reduction.
"""

import re

FAMILIES = (
    "pointwise", "reduction", "persistent_reduction", "scan", "sort", "gather_scatter",
    "template_mm", "template_bmm", "template_conv", "flex_attention", "user",
)

_OP = lambda name: re.compile(r'(^|[\s"=(])' + re.escape(name) + r'\b')  # noqa: E731
_SCAN = _OP("tt.scan")
_GATHER = _OP("tt.gather")
_REDUCE = _OP("tt.reduce")
_ATOMIC = _OP("tt.atomic_rmw")
_SORT_SRC = re.compile(r"\btl\.sort\s*\(|\bsort_with_index\b|\bbitonic|\b_sort_|\.sort\s*\(|\btopk\b")
_GATHER_NAMES = ("gather", "scatter", "index_add", "index_put", "index_select", "embedding")


def is_inductor_kernel(name: str) -> bool:
    return name.startswith("triton_")


def classify(kernel_name: str, ttir: str, py_src: str = "", hint: str = None) -> str:
    name = kernel_name.lower()
    src = py_src or ""
    inductor = is_inductor_kernel(name)

    if "flex" in name or (inductor and ("SPARSE_KV_BLOCK_SIZE" in src or "KV_NUM_BLKS" in src)):
        return "flex_attention"
    if name.startswith("triton_tem_"):
        if "bmm" in name or "stride_aq" in src:
            return "template_bmm"
        if "conv" in name or "KERNEL_H" in src or "KERNEL_W" in src:
            return "template_conv"
        if hint in ("template_mm", "template_bmm", "template_conv"):
            return hint
        return "template_mm"
    if _SCAN.search(ttir):
        return "scan"
    if "sort" in name or "topk" in name or _SORT_SRC.search(src):
        return "sort"
    if _GATHER.search(ttir):
        return "gather_scatter"
    if inductor:
        if any(k in name for k in _GATHER_NAMES):
            return "gather_scatter"
        if name.startswith("triton_poi_") and _ATOMIC.search(ttir):
            return "gather_scatter"
        if name.startswith("triton_poi_") or name.startswith("triton_for_"):
            return "pointwise"
        if name.startswith("triton_red_"):
            return "reduction"
        if name.startswith("triton_per_"):
            return "persistent_reduction"
        return "reduction" if _REDUCE.search(ttir) else "pointwise"
    return "user"
