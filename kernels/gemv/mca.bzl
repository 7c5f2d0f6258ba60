"""kernel_mca: `bazel run` target printing llvm-mca's model of one kernel's inner loop.

    kernel_mca(
        name = "gemv_dotprod_mca",
        src = "gemv_dotprod.cc",
        hdrs = ["gemv_kernels.h"],
        march = "armv8.2-a+dotprod",
        loop = "gemv_dotprod",          # the TCPU_MCA_LOOP marker in the loop body
        macs_per_iteration = 128,
        target_macs_per_cycle = 24,
    )

compiles `src` to assembly with the pinned clang (-O2, the variant's -march, and
-DTCPU_LLVM_MCA to emit the marker), then `bazel run :gemv_dotprod_mca` extracts the marked
loop and runs the pinned llvm-mca for Cortex-A720 on it. `copts`: further flags the kernel's
cc_library compiles it with (so llvm-mca sees the same loop).
"""

def kernel_mca(name, src, hdrs, march, loop, macs_per_iteration, target_macs_per_cycle,
               mattr = None, copts = []):
    asm = name + ".s"
    native.genrule(
        name = name + "_asm",
        # The instruction-count gates hold llvm-mca's cycles of this loop to a baseline.
        visibility = ["//tools/perf:__pkg__"],
        srcs = [src] + hdrs + [
            "//runtime:include/tcpu/bf16.h",
            "@sysroot_aarch64//:headers",
        ],
        outs = [asm],
        tools = [
            "@llvm_toolchain//:bin/clang",
            "@llvm_toolchain//:clang",
        ],
        # Sources are included as "kernels/<op>/..." and "tcpu/...": both roots are found
        # from the source's own path, so this also works from another workspace.
        cmd = " ".join([
            "src=$(location %s);" % src,
            "root=$${src%/kernels/*};",
            "if [ \"$$root\" = \"$$src\" ]; then root=.; fi;",
            "$(location @llvm_toolchain//:bin/clang)",
            "--target=aarch64-linux-gnu",
            "--sysroot=external/sysroot_aarch64",
            "-std=c++17 -O2 -DNDEBUG -DTCPU_LLVM_MCA",
            "-march=" + march,
        ] + copts + [
            "-I$$root -I$$root/runtime/include",
            "-S -o $@ $$src",
        ]),
    )
    native.sh_binary(
        name = name,
        srcs = ["//kernels/gemv:mca.sh"],
        data = [
            ":" + name + "_asm",
            "@llvm_toolchain//:bin/llvm-mca",
            "@llvm_toolchain//:llvm_mca",
        ],
        args = [
            "$(rootpath @llvm_toolchain//:bin/llvm-mca)",
            "$(rootpath :%s_asm)" % name,
            loop,
            str(macs_per_iteration),
            str(target_macs_per_cycle),
        ] + (["-mattr=" + mattr] if mattr else []),
    )
