// ASan's defaults for every program that links the prebuilt MLIR/LLVM archives.
//
// LLVM's headers poison and unpoison the free space of BumpPtrAllocator slabs when the code
// including them is built with ASan (LLVM_ADDRESS_SANITIZER_BUILD). Our instrumented code
// inlines those header functions, the uninstrumented archives do not: memory the archives
// hand out of a slab our code poisoned reads as "use-after-poison". Turning user poisoning
// off keeps every other check (heap, stack and global overflows, use after free, leaks).
// The environment's ASAN_OPTIONS still override these.

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
extern "C" const char* __asan_default_options() { return "allow_user_poisoning=0"; }
#endif
#endif
