"""Versions, GPU and the Inductor settings every capture runs with."""

import os
import platform

REQUIRED = {"torch": "2.11", "triton": "3.6"}


def major_minor(version: str) -> str:
    parts = str(version).split("+")[0].split(".")
    return ".".join(parts[:2])


def check_versions(any_version: bool = False) -> str:
    """'' when torch and triton are the versions the tool was written against, else a message."""
    import torch
    import triton

    found = {"torch": torch.__version__, "triton": triton.__version__}
    bad = [f"{k} {found[k]} (need {v}.x)" for k, v in REQUIRED.items() if major_minor(found[k]) != v]
    if not bad:
        return ""
    msg = ("triton_capture was written against torch 2.11 and triton 3.6 (their launcher and "
           "Inductor internals are patched); found " + ", ".join(bad) + ".")
    if any_version:
        return ""
    return msg + " Pass --any-version to run anyway."


def environment() -> dict:
    import torch
    import triton

    gpu = torch.cuda.get_device_name(0) if torch.cuda.is_available() else "none"
    cc = ""
    if torch.cuda.is_available():
        major, minor = torch.cuda.get_device_capability(0)
        cc = f"sm_{major}{minor}"
    return {
        "torch": torch.__version__,
        "triton": triton.__version__,
        "cuda": str(torch.version.cuda),
        "gpu": gpu,
        "compute_capability": cc,
        "python": platform.python_version(),
    }


def set_env_before_torch(cache_dir: str, compile_threads: int) -> None:
    """Environment variables that must be set before torch is imported."""
    os.environ["TORCHINDUCTOR_USE_STATIC_CUDA_LAUNCHER"] = "0"  # launch through Triton's launcher
    os.environ.pop("TORCHINDUCTOR_CUDAGRAPHS", None)
    os.environ["TORCHINDUCTOR_AUTOTUNE_IN_SUBPROC"] = "0"  # benchmark in this process (guarded)
    os.environ["TORCHINDUCTOR_FX_GRAPH_REMOTE_CACHE"] = "0"
    os.environ["TORCHINDUCTOR_AUTOTUNE_REMOTE_CACHE"] = "0"
    os.environ.setdefault("TORCHINDUCTOR_CACHE_DIR", os.path.join(cache_dir, "inductor"))
    os.environ.setdefault("TRITON_CACHE_DIR", os.path.join(cache_dir, "triton"))
    if compile_threads > 0:
        os.environ["TORCHINDUCTOR_COMPILE_THREADS"] = str(compile_threads)
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")


def configure_inductor() -> None:
    """Inductor settings for every workload (templates add their own, see workloads)."""
    import torch
    import torch._inductor.config as ic

    ic.use_static_cuda_launcher = False
    ic.triton.cudagraphs = False
    ic.autotune_in_subproc = False
    ic.autotune_remote_cache = False
    ic.fx_graph_remote_cache = False
    torch._dynamo.config.cache_size_limit = max(torch._dynamo.config.cache_size_limit, 64)
