// ASan's defaults for every program that links the prebuilt MLIR/LLVM archives.
//
// LLVM's headers poison and unpoison the free space of BumpPtrAllocator slabs when the code
// including them is built with ASan (LLVM_ADDRESS_SANITIZER_BUILD). Our instrumented code
// inlines those header functions, the uninstrumented archives do not: memory the archives
// hand out of a slab our code poisoned reads as "use-after-poison". Turning user poisoning
// off keeps every other check (heap, stack and global overflows, use after free, leaks).
//
// No quarantine: it holds freed memory back (256 MB by default) so that instrumented code
// reading it is caught, but these programs' allocations are made and freed by code ASan does
// not instrument (the MLIR and LLVM archives, and the dialect, which keeps only the coverage
// instrumentation: COVERAGE_ONLY_COPTS). With it, one tcpu-compile of tutorial 03's matmul
// peaked at 1.2 GB and spent 1.9-2.7 s of its 10 s in the kernel; without, 170 MB and 0.4 s.
// Leaks are still reported. The environment's ASAN_OPTIONS still override these.

// Compiled without ASan itself (BUILD): an ASan runtime reads the hook where the program links
// one (the fuzzers), and a program that links none (tcpu-compile and tcpu-opt in the same
// configuration) ignores it.
extern "C" const char* __asan_default_options() {
  return "allow_user_poisoning=0:quarantine_size_mb=0";
}
