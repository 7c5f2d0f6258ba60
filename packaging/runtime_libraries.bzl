"""libtcpu.a and libtcpu.so for aarch64 from the runtime's cc_library graph.

`runtime_libraries` collects the position-independent objects of `deps` (built for
//platforms:linux_aarch64 through `to_aarch64`, the configuration the QEMU matrix uses, so the
objects are shared with the tests) and the prebuilt static archives the graph brings (Debian's
PCRE2 and utf8proc, which the tokenizer links) into:

  - libtcpu.a: one deterministic archive (llvm-ar D: zero timestamps, uids and modes) holding
    every object and every member of those archives, so a user links one file. Members are
    appended (`q`), never replaced, so two archives' members of the same name both stay; the
    user's link takes the members it needs, as from the original archives;
  - libtcpu.so.<major>: every object linked in, the prebuilt archives searched as usual (only
    the members needed), with the pinned clang/lld, soname libtcpu.so.<major>, a version script
    that exports only the C ABI (`tcpu_*`), and libstdc++ and libgcc linked in statically (the
    board needs no particular GLIBCXX, as for executables).

A prebuilt shared library in the graph is refused: libtcpu would depend on a file the bundle
does not ship.

Link traces (output group `link_traces`), what the SBOM says is linked into each file: lld's
--dependency-file (every input the link read) and --why-extract (every archive member it
took), for libtcpu.so and for `link_probe`, a small C++ program linked as the toolchain links
every static executable (so the SDK's programs' C and C++ runtime comes from the same trace).
"""

load("@bazel_tools//tools/build_defs/cc:action_names.bzl", "ACTION_NAMES")
load("//platforms:aarch64_binary.bzl", "to_aarch64")

def _first_of_each(files):
    """files without repeats, first occurrence kept, so the archive's member order is stable."""
    seen = {}
    unique = []
    for f in files:
        if f.path not in seen:
            seen[f.path] = True
            unique.append(f)
    return unique

def _link_inputs(deps):
    """(objects compiled here, prebuilt static archives) of `deps` and their dependencies."""
    objects = []
    archives = []
    for dep in deps:
        for linker_input in dep[CcInfo].linking_context.linker_inputs.to_list():
            for library in linker_input.libraries:
                found = library.pic_objects or library.objects
                if found:
                    objects.extend(found)
                    continue
                prebuilt = library.pic_static_library or library.static_library
                if prebuilt:
                    archives.append(prebuilt)
                elif library.dynamic_library:
                    fail("runtime_libraries: %s brings the shared library %s; libtcpu " % (
                        linker_input.owner,
                        library.dynamic_library.short_path,
                    ) + "may link only objects and static archives")
    return _first_of_each(objects), _first_of_each(archives)

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
    objects, prebuilt_archives = _link_inputs(ctx.attr.deps)

    archive = ctx.actions.declare_file(ctx.label.name + "/libtcpu.a")
    archiver = cc_common.get_tool_for_action(
        feature_configuration = feature_configuration,
        action_name = ACTION_NAMES.cpp_link_static_library,
    )
    ar_args = ctx.actions.args()

    # q: append, never replace a member of the same name; L: an archive argument adds its
    # members; D: deterministic (no timestamps, owners or modes in the members).
    ar_args.add("qcLsD")
    ar_args.add(archive)
    ar_args.add_all(objects)
    ar_args.add_all(prebuilt_archives)
    ctx.actions.run(
        executable = archiver,
        arguments = [ar_args],
        inputs = depset(objects + prebuilt_archives, transitive = [cc_toolchain.all_files]),
        outputs = [archive],
        mnemonic = "TcpuArchive",
        progress_message = "Archiving libtcpu.a (%d objects, the members of %d archives)" % (
            len(objects),
            len(prebuilt_archives),
        ),
    )

    soname = "libtcpu.so." + ctx.attr.soversion
    shared = ctx.actions.declare_file(ctx.label.name + "/" + soname)
    link_flags = [
        "-Wl,-soname," + soname,
        "-Wl,--version-script=" + ctx.file.version_script.path,
        "-Wl,--no-undefined",
    ] + [o.path for o in objects] + [a.path for a in prebuilt_archives] + [
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
        objects + prebuilt_archives + [ctx.file.version_script],
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
            doc = "cc_library targets whose objects and prebuilt static archives (and their " +
                  "dependencies') form libtcpu.",
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
