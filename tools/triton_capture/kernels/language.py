"""Hand-written Triton kernels that exercise single language features.

tl.gather, tl.sort, tl.histogram, tl.cumsum over 4096 lanes, tl.rand/randn/randint and a dropout,
tl.device_assert (debug build), libdevice math (erf, tanh, pow, rsqrt) and a split-K matmul that
adds its partial products with tl.atomic_add. Importing this module needs triton.
"""

import triton
import triton.language as tl

try:  # Triton 3.x: the backend-neutral libdevice module
    from triton.language.extra import libdevice
except ImportError:  # pragma: no cover - older layout
    from triton.language.extra.cuda import libdevice


@triton.jit
def gather_kernel(src_ptr, idx_ptr, out_ptr, n_rows, R: tl.constexpr, C: tl.constexpr):
    """out[r, c] = src[r, idx[r, c]] for an [R, C] tile per program (tl.gather along axis 1)."""
    rows = tl.program_id(0) * R + tl.arange(0, R)
    cols = tl.arange(0, C)
    offs = rows[:, None] * C + cols[None, :]
    mask = rows[:, None] < n_rows
    src = tl.load(src_ptr + offs, mask=mask, other=0.0)
    idx = tl.load(idx_ptr + offs, mask=mask, other=0)
    tl.store(out_ptr + offs, tl.gather(src, idx, 1), mask=mask)


@triton.jit
def sort_kernel(x_ptr, out_ptr, n_rows, R: tl.constexpr, C: tl.constexpr, DESCENDING: tl.constexpr):
    """Sort each row of an [R, C] tile (tl.sort along the last axis)."""
    rows = tl.program_id(0) * R + tl.arange(0, R)
    cols = tl.arange(0, C)
    offs = rows[:, None] * C + cols[None, :]
    mask = rows[:, None] < n_rows
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, tl.sort(x, 1, descending=DESCENDING), mask=mask)


@triton.jit
def histogram_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr, NUM_BINS: tl.constexpr):
    """Counts of the values 0..NUM_BINS-1 in each program's BLOCK inputs."""
    pid = tl.program_id(0)
    x = tl.load(x_ptr + pid * BLOCK + tl.arange(0, BLOCK))
    tl.store(out_ptr + pid * NUM_BINS + tl.arange(0, NUM_BINS), tl.histogram(x, NUM_BINS))


@triton.jit
def cumsum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """Inclusive prefix sum of n <= BLOCK values in one program (BLOCK = 4096)."""
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.store(out_ptr + offs, tl.cumsum(x, axis=0), mask=mask)


@triton.jit
def random_kernel(uniform_ptr, normal_ptr, bits_ptr, seed, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(uniform_ptr + offs, tl.rand(seed, offs), mask=mask)
    tl.store(normal_ptr + offs, tl.randn(seed, offs), mask=mask)
    tl.store(bits_ptr + offs, tl.randint(seed, offs).to(tl.int32, bitcast=True), mask=mask)


@triton.jit
def dropout_kernel(x_ptr, out_ptr, n, p, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    keep = tl.rand(seed, offs) > p
    tl.store(out_ptr + offs, tl.where(keep, x / (1 - p), 0.0), mask=mask)


@triton.jit(debug=True)
def checked_sqrt_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """sqrt with a device-side check that the input is not negative (tl.device_assert)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.device_assert(x >= 0, "checked_sqrt_kernel: negative input")
    tl.store(out_ptr + offs, tl.sqrt(x), mask=mask)


@triton.jit
def libdevice_kernel(x_ptr, y_ptr, erf_ptr, tanh_ptr, pow_ptr, rsqrt_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = tl.load(y_ptr + offs, mask=mask, other=0.0)
    tl.store(erf_ptr + offs, libdevice.erf(x), mask=mask)
    tl.store(tanh_ptr + offs, libdevice.tanh(x), mask=mask)
    tl.store(pow_ptr + offs, libdevice.pow(tl.abs(x), y), mask=mask)
    tl.store(rsqrt_ptr + offs, libdevice.rsqrt(tl.abs(x) + 1.0), mask=mask)


@triton.jit
def matmul_splitk_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                         SPLIT_K: tl.constexpr):
    """C (fp32, zeroed) += A @ B; program (tile, s) sums K blocks s, s + SPLIT_K, ... and adds
    its partial tile into C with tl.atomic_add."""
    pid = tl.program_id(0)
    pid_k = tl.program_id(1)
    tiles_n = tl.cdiv(N, BLOCK_N)
    offs_m = (pid // tiles_n) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = (pid % tiles_n) * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(pid_k * BLOCK_K, K, BLOCK_K * SPLIT_K):
        offs_k = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + offs_m[:, None] * stride_am + offs_k[None, :],
                    mask=(offs_m[:, None] < M) & (offs_k[None, :] < K), other=0.0)
        b = tl.load(b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :],
                    mask=(offs_k[:, None] < K) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    tl.atomic_add(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :], acc,
                  mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))
