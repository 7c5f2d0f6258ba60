"""Hand-written Triton kernels (import the submodules; they need triton)."""
