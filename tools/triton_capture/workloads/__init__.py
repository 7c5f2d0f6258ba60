"""Workload registry: small functions that launch Triton kernels, each registered by name.

A workload module must not import torch, triton or transformers at module level (``--list`` and
the self-test import the registry without them); import inside the workload function instead.
A missing package then fails only the workloads that need it.

Registry order is corpus order (launch ids are given in it): hand-written Triton kernels first,
then Inductor ops, templates and flex attention, then the transformer models.
"""

from dataclasses import dataclass
from typing import Callable, Dict, List

FAMILY_HINTS = (
    "pointwise", "reduction", "persistent_reduction", "scan", "sort", "gather_scatter",
    "template_mm", "template_bmm", "template_conv", "flex_attention", "user", "mixed",
)


@dataclass
class Workload:
    name: str
    fn: Callable
    description: str
    family_hint: str
    cost: float  # rough seconds on an H200 with a cold cache (only used to schedule long ones first)


REGISTRY: Dict[str, Workload] = {}


def workload(name: str, description: str, family_hint: str, cost: float = 5.0):
    assert family_hint in FAMILY_HINTS, family_hint

    def register(fn):
        assert name not in REGISTRY, f"duplicate workload {name}"
        REGISTRY[name] = Workload(name, fn, description, family_hint, cost)
        return fn

    return register


class Ctx:
    """What a workload gets: a device, seeding, torch.compile with the capture's defaults, checks."""

    device = "cuda"

    def __init__(self, log=print):
        self.log = log

    def seed(self, seed: int = 0) -> None:
        import random

        import torch

        random.seed(seed)
        torch.manual_seed(seed)
        torch.cuda.manual_seed_all(seed)

    def compile(self, fn, **kwargs):
        import torch

        kwargs.setdefault("dynamic", False)
        return torch.compile(fn, **kwargs)

    def check_close(self, got, want, atol: float, rtol: float, what: str) -> None:
        """Fail the workload if a result is wrong (its records are kept; the error says why)."""
        import torch

        got, want = got.float(), want.float()
        if not torch.allclose(got, want, atol=atol, rtol=rtol, equal_nan=True):
            err = (got - want).abs().max().item()
            raise AssertionError(f"{what}: wrong result (max abs error {err:g})")

    def check(self, cond: bool, what: str) -> None:
        if not cond:
            raise AssertionError(what)


def load_all() -> Dict[str, Workload]:
    """Import every workload module (in corpus order) and return the registry."""
    if not REGISTRY:
        from . import triton_kernels  # noqa: F401  hand-written kernels
        from . import inductor_ops  # noqa: F401
        from . import inductor_templates  # noqa: F401
        from . import hf_models  # noqa: F401
    return REGISTRY


def select(spec: str) -> List[Workload]:
    """'all', or a comma-separated list of names (unknown names raise KeyError)."""
    reg = load_all()
    if spec.strip() in ("all", ""):
        return list(reg.values())
    out = []
    for name in [s.strip() for s in spec.split(",") if s.strip()]:
        if name not in reg:
            raise KeyError(name)
        out.append(reg[name])
    return out
