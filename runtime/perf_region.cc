// tcpu_perf_region_begin / tcpu_perf_region_end (tcpu/perf.h). On aarch64 they are written in
// assembly so that each holds exactly one load, of name[0], whatever the optimization level:
// the counting plugin takes that load's address as the region name. Elsewhere (host builds,
// where nothing counts them) they are empty functions.
#include "tcpu/perf.h"

#if defined(__aarch64__)
__asm__(
    ".text\n"
    ".p2align 2\n"
    ".globl tcpu_perf_region_begin\n"
    ".type tcpu_perf_region_begin, %function\n"
    "tcpu_perf_region_begin:\n"
    "  cbz x0, 1f\n"
    "  ldrb wzr, [x0]\n"
    "1:\n"
    "  ret\n"
    ".size tcpu_perf_region_begin, . - tcpu_perf_region_begin\n"
    ".globl tcpu_perf_region_end\n"
    ".type tcpu_perf_region_end, %function\n"
    "tcpu_perf_region_end:\n"
    "  cbz x0, 1f\n"
    "  ldrb wzr, [x0]\n"
    "1:\n"
    "  ret\n"
    ".size tcpu_perf_region_end, . - tcpu_perf_region_end\n");
#else
extern "C" void tcpu_perf_region_begin(const char*) {}
extern "C" void tcpu_perf_region_end(const char*) {}
#endif
