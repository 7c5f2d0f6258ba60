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

Link traces (output group `link_traces`), what the SBOM says is linked into each file: lld's
--dependency-file (every input the link read) and --why-extract (every archive member it
took), for libtcpu.so and for `link_probe`, a small C++ program linked as the toolchain links
every static executable (so the SDK's programs' C and C++ runtime comes from the same trace).
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

def _traced_link(ctx, cc_toolchain, feature_configuration, action, output, flags, inputs, dynamic):
    """Runs the toolchain's `action` link into `output`; returns its two trace files."""
    dependencies = ctx.actions.declare_file(output.basename + ".link_inputs.d", sibling = output)
    extracted = ctx.actions.declare_file(output.basename + ".why_extract.tsv", sibling = output)
    variables = cc_common.create_link_variables(
        cc_toolchain = cc_toolchain,
        feature_configuration = feature_configuration,
        output_file = output.path,
        is_linking_dynamic_library = dynamic,
        is_static_linking_mode = not dynamic,
        user_link_flags = flags + [
            "-Wl,--dependency-file=" + dependencies.path,
            "-Wl,--why-extract=" + extracted.path,
        ],
    )
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
        inputs = depset(inputs, transitive = [cc_toolchain.all_files]),
        outputs = [output, dependencies, extracted],
        mnemonic = "TcpuLink",
        progress_message = "Linking " + output.basename,
    )
    return [dependencies, extracted]

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
    traces = _traced_link(
        ctx,
        cc_toolchain,
        feature_configuration,
        ACTION_NAMES.cpp_link_dynamic_library,
        shared,
        link_flags,
        [archive, ctx.file.version_script],
        dynamic = True,
    )

    # The C and C++ runtime of the SDK's static programs, as the toolchain links it.
    probe_objects = cc_common.compile(
        name = ctx.label.name + "_link_probe",
        actions = ctx.actions,
        feature_configuration = feature_configuration,
        cc_toolchain = cc_toolchain,
        srcs = [ctx.file.link_probe],
    )[1]
    probe = ctx.actions.declare_file(ctx.label.name + "/link_probe")
    probe_inputs = probe_objects.pic_objects or probe_objects.objects
    traces += _traced_link(
        ctx,
        cc_toolchain,
        feature_configuration,
        ACTION_NAMES.cpp_link_executable,
        probe,
        [o.path for o in probe_inputs] + ["-pthread"],
        probe_inputs,
        dynamic = False,
    )
    return [
        DefaultInfo(
            files = depset([archive, shared]),
            runfiles = ctx.runfiles(files = [archive, shared]),
        ),
        OutputGroupInfo(link_traces = depset(traces)),
    ]

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
        "link_probe": attr.label(
            default = ":link_probe.cc",
            allow_single_file = [".cc"],
            doc = "A C++ program linked as the SDK's programs are, for its link trace.",
        ),
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
