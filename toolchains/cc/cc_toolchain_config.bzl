"""cc_toolchain_config for clang 19 from the pinned packages, targeting one Debian sysroot.

Every path is relative to the execroot (external/<repo>/...), so no absolute path reaches
a command line or an output, and sandboxed actions see only the declared toolchain files.
"""

load("@bazel_tools//tools/build_defs/cc:action_names.bzl", "ACTION_NAMES")
load(
    "@bazel_tools//tools/cpp:cc_toolchain_config_lib.bzl",
    "feature",
    "flag_group",
    "flag_set",
    "tool_path",
    "with_feature_set",
)

_COMPILE_ACTIONS = [
    ACTION_NAMES.assemble,
    ACTION_NAMES.preprocess_assemble,
    ACTION_NAMES.c_compile,
    ACTION_NAMES.cpp_compile,
    ACTION_NAMES.cpp_header_parsing,
    ACTION_NAMES.cpp_module_compile,
    ACTION_NAMES.cpp_module_codegen,
    ACTION_NAMES.linkstamp_compile,
]

_CXX_ACTIONS = [
    ACTION_NAMES.cpp_compile,
    ACTION_NAMES.cpp_header_parsing,
    ACTION_NAMES.cpp_module_compile,
    ACTION_NAMES.cpp_module_codegen,
    ACTION_NAMES.linkstamp_compile,
]

_LINK_ACTIONS = [
    ACTION_NAMES.cpp_link_executable,
    ACTION_NAMES.cpp_link_dynamic_library,
    ACTION_NAMES.cpp_link_nodeps_dynamic_library,
]

_EXECUTABLE_LINK_ACTIONS = [ACTION_NAMES.cpp_link_executable]

def _flags(actions, flags, features = None):
    return flag_set(
        actions = actions,
        flag_groups = [flag_group(flags = flags)],
        with_features = [with_feature_set(features = features)] if features else [],
    )

def _impl(ctx):
    bin = "bin/"
    tool_paths = [
        tool_path(name = "gcc", path = bin + "clang"),
        tool_path(name = "cpp", path = bin + "clang"),
        tool_path(name = "ld", path = bin + "ld.lld"),
        tool_path(name = "ar", path = bin + "llvm-ar"),
        tool_path(name = "nm", path = bin + "llvm-nm"),
        tool_path(name = "objcopy", path = bin + "llvm-objcopy"),
        tool_path(name = "objdump", path = bin + "llvm-objdump"),
        tool_path(name = "strip", path = bin + "llvm-strip"),
        tool_path(name = "gcov", path = bin + "llvm-cov"),
        tool_path(name = "dwp", path = "/bin/false"),
    ]

    target = "--target=" + ctx.attr.target_triple
    deterministic = [
        "-no-canonical-prefixes",
        "-Wno-builtin-macro-redefined",
        "-D__DATE__=\"redacted\"",
        "-D__TIMESTAMP__=\"redacted\"",
        "-D__TIME__=\"redacted\"",
        "-fdebug-compilation-dir=.",
        "-fcoverage-compilation-dir=.",
    ]

    features = [
        feature(name = "opt"),
        feature(name = "dbg"),
        feature(name = "fastbuild"),
        feature(name = "supports_pic", enabled = True),
        # Executables stay non-PIE under --force_pic (the device configuration sets it, so
        # libtcpu.so and the static test programs link the same objects): this replaces Bazel's
        # legacy feature of this name, which would add -pie to every executable link.
        feature(name = "force_pic_flags"),
        feature(
            name = "default_compile_flags",
            enabled = True,
            flag_sets = [
                _flags(_COMPILE_ACTIONS, [target] + deterministic + [
                    "-fstack-protector-strong",
                    "-Wall",
                    "-Wextra",
                    "-Wno-unused-parameter",
                    "-Wthread-safety",
                    "-Wself-assign",
                    "-fcolor-diagnostics",
                    "-fno-omit-frame-pointer",
                ] + ctx.attr.extra_compile_flags),
                _flags(_COMPILE_ACTIONS, ["-O0", "-g"], ["dbg"]),
                # A build without -c: quick to compile, quick enough to run. The QEMU tests build at
                # -c opt whatever -c is (`to_aarch64`, platforms/aarch64_binary.bzl).
                _flags(_COMPILE_ACTIONS, ["-O1", "-g0"], ["fastbuild"]),
                _flags(_COMPILE_ACTIONS, [
                    "-O2",
                    "-g0",
                    "-DNDEBUG",
                    "-ffunction-sections",
                    "-fdata-sections",
                ], ["opt"]),
                _flags(_CXX_ACTIONS, ["-std=c++17"]),
            ],
        ),
        feature(
            name = "default_link_flags",
            enabled = True,
            flag_sets = [
                _flags(_LINK_ACTIONS, [
                    target,
                    "-fuse-ld=lld",
                    "-no-canonical-prefixes",
                    "-Wl,--build-id=sha1",
                ]),
            ] + ([
                # A shared library (libtcpu.so of the SDK bundle) cannot take -static.
                _flags(_EXECUTABLE_LINK_ACTIONS, ctx.attr.executable_link_flags),
            ] if ctx.attr.executable_link_flags else []) + [
                _flags(_LINK_ACTIONS, ctx.attr.extra_link_flags + ["-lm"]),
                _flags(_LINK_ACTIONS, ["-Wl,--gc-sections"], ["opt"]),
            ],
        ),
        # A binary with no ASan-instrumented code links no ASan runtime, even where the
        # configuration's --linkopt asks for one (the host-tool configuration: tcpu-compile and
        # tcpu-opt, platforms/host_tool.bzl). Features come after the user's link flags, so
        # this -fno-sanitize is the last word.
        feature(
            name = "no_asan_runtime",
            flag_sets = [_flags(_LINK_ACTIONS, ["-fno-sanitize=address"])],
        ),
    ]

    return cc_common.create_cc_toolchain_config_info(
        ctx = ctx,
        features = features,
        toolchain_identifier = "clang19-" + ctx.attr.target_triple,
        host_system_name = "x86_64-linux-gnu",
        target_system_name = ctx.attr.target_triple,
        target_cpu = ctx.attr.target_cpu,
        target_libc = "glibc",
        compiler = "clang",
        abi_version = "local",
        abi_libc_version = "local",
        tool_paths = tool_paths,
        builtin_sysroot = ctx.attr.sysroot,
        cxx_builtin_include_directories = ctx.attr.builtin_include_directories,
    )

cc_toolchain_config = rule(
    implementation = _impl,
    attrs = {
        "target_triple": attr.string(mandatory = True),
        "target_cpu": attr.string(mandatory = True),
        "sysroot": attr.string(mandatory = True, doc = "Execroot-relative sysroot path."),
        "builtin_include_directories": attr.string_list(mandatory = True),
        "extra_compile_flags": attr.string_list(),
        "extra_link_flags": attr.string_list(),
        "executable_link_flags": attr.string_list(doc = "Link flags of executables only."),
    },
    provides = [CcToolchainConfigInfo],
)
