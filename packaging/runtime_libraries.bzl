"""libtcpu.a and libtcpu.so for aarch64 from the runtime's cc_library graph.

`runtime_libraries` collects the position-independent objects of `deps` (built for
//platforms:linux_aarch64 through `to_aarch64`, the configuration the QEMU matrix uses, so the
objects are shared with the tests) into:

  - libtcpu.a: one deterministic archive (llvm-ar D: zero timestamps, uids and modes) holding
    every object, so a user links one file;
  - libtcpu.so.<major>: the same objects linked with the pinned clang/lld, soname
    libtcpu.so.<major>, a version script that exports only the C ABI (`tcpu_*`), and libstdc++
    and libgcc linked in statically (the board needs no particular GLIBCXX, as for executables).

Only objects compiled in this workspace are collected: a dependency that is a prebuilt
archive (a Debian static library) is refused, since it would be missing from libtcpu.a.
"""

load("@bazel_tools//tools/build_defs/cc:action_names.bzl", "ACTION_NAMES")
load("//platforms:aarch64_binary.bzl", "to_aarch64")

def _pic_objects(deps):
    objects = []
    for dep in deps:
        for linker_input in dep[CcInfo].linking_context.linker_inputs.to_list():
            for library in linker_input.libraries:
                found = library.pic_objects or library.objects
                if not found:
                    prebuilt = library.static_library or library.pic_static_library
                    if prebuilt or library.dynamic_library:
                        fail("runtime_libraries: %s brings a prebuilt library (%s); only " % (
                            linker_input.owner,
                            (prebuilt or library.dynamic_library).short_path,
                        ) + "objects compiled here can go into libtcpu.a")
                    continue
                objects.extend(found)

    # The same object reaches several linker inputs only through one library: keep the
    # first occurrence so the archive's member order is stable.
    seen = {}
    unique = []
    for obj in objects:
        if obj.path not in seen:
            seen[obj.path] = True
            unique.append(obj)
    return unique

def _runtime_libraries_impl(ctx):
    cc_toolchain = ctx.toolchains["@bazel_tools//tools/cpp:toolchain_type"]
    feature_configuration = cc_common.configure_features(
        ctx = ctx,
        cc_toolchain = cc_toolchain,
        requested_features = ["supports_pic"],
    )
    objects = _pic_objects(ctx.attr.deps)

    archive = ctx.actions.declare_file(ctx.label.name + "/libtcpu.a")
    archiver = cc_common.get_tool_for_action(
        feature_configuration = feature_configuration,
        action_name = ACTION_NAMES.cpp_link_static_library,
    )
    ar_args = ctx.actions.args()
    ar_args.add("rcsD")  # D: deterministic (no timestamps, owners or modes in the members).
    ar_args.add(archive)
    ar_args.add_all(objects)
    ctx.actions.run(
        executable = archiver,
        arguments = [ar_args],
        inputs = depset(objects, transitive = [cc_toolchain.all_files]),
        outputs = [archive],
        mnemonic = "TcpuArchive",
        progress_message = "Archiving libtcpu.a (%d objects)" % len(objects),
    )

    soname = "libtcpu.so." + ctx.attr.soversion
    shared = ctx.actions.declare_file(ctx.label.name + "/" + soname)
    link_flags = [
        "-Wl,-soname," + soname,
        "-Wl,--version-script=" + ctx.file.version_script.path,
        "-Wl,--no-undefined",
        "-Wl,--whole-archive",
        archive.path,
        "-Wl,--no-whole-archive",
        "-pthread",
        # Static C++ runtime inside the .so (hidden by the version script), as executables.
        "-nostdlib++",
        "-l:libstdc++.a",
        "-static-libgcc",
    ]
    variables = cc_common.create_link_variables(
        cc_toolchain = cc_toolchain,
        feature_configuration = feature_configuration,
        output_file = shared.path,
        is_linking_dynamic_library = True,
        user_link_flags = link_flags,
    )
    action = ACTION_NAMES.cpp_link_dynamic_library
    ctx.actions.run(
        executable = cc_common.get_tool_for_action(
            feature_configuration = feature_configuration,
            action_name = action,
        ),
        arguments = cc_common.get_memory_inefficient_command_line(
            feature_configuration = feature_configuration,
            action_name = action,
            variables = variables,
        ),
        env = cc_common.get_environment_variables(
            feature_configuration = feature_configuration,
            action_name = action,
            variables = variables,
        ),
        inputs = depset([archive, ctx.file.version_script], transitive = [cc_toolchain.all_files]),
        outputs = [shared],
        mnemonic = "TcpuSharedLibrary",
        progress_message = "Linking " + soname,
    )
    return [DefaultInfo(
        files = depset([archive, shared]),
        runfiles = ctx.runfiles(files = [archive, shared]),
    )]

runtime_libraries = rule(
    implementation = _runtime_libraries_impl,
    attrs = {
        "deps": attr.label_list(
            mandatory = True,
            providers = [CcInfo],
            doc = "cc_library targets whose objects (and their dependencies') form libtcpu.",
        ),
        "soversion": attr.string(mandatory = True, doc = "The soname's version: libtcpu.so.N."),
        "version_script": attr.label(mandatory = True, allow_single_file = True),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
    },
    # The rule itself is built for aarch64, so the C++ toolchain it resolves is the aarch64 one.
    cfg = to_aarch64,
    toolchains = ["@bazel_tools//tools/cpp:toolchain_type"],
    fragments = ["cpp"],
    doc = "libtcpu.a and libtcpu.so.<soversion> for aarch64 (see the file's docstring).",
)
