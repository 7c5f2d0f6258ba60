"""PLAIN_LOOP_COPTS: the flags of the clang -O3 peers (kernels/triton/plain_loops.h says why each).

    load("//kernels/triton:plain_loops.bzl", "PLAIN_LOOP_COPTS")
"""

# Flags a performance-minded user would pick, the features the Triton objects run with under
# the tables' QEMU (-cpu max), no SVE (no Triton object has any).
PLAIN_LOOP_COPTS = [
    "-O3",
    "-ffast-math",
    "-march=armv8.2-a+fp16+fp16fml+bf16+dotprod+i8mm",
]
