#include "tools/perf/tests/probe_loop.h"

__asm__(
    ".text\n"
    ".p2align 2\n"
    ".globl tcpu_count_probe_loop\n"
    ".type tcpu_count_probe_loop, %function\n"
    "tcpu_count_probe_loop:\n"
    "  mov x1, x0\n"
    "1:\n"
    "  subs x1, x1, #1\n"
    "  b.ne 1b\n"
    "  ret\n"
    ".size tcpu_count_probe_loop, . - tcpu_count_probe_loop\n");
