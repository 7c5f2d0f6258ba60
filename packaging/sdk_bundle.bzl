"""sdk_bundle: the SDK as one deterministic tarball for users outside Bazel.

    tcpu-sdk-<version>-aarch64/
      bin/<tool>                      aarch64 programs (static), one per entry of `tools`
      include/tcpu/*.h                the C ABI
      lib/libtcpu.a                   the runtime, every kernel and the engine (with the
                                      tokenizer's PCRE2 and utf8proc members)
      lib/libtcpu.so.<version>        the same, shared; soname libtcpu.so.<soversion>
      lib/libtcpu.so.<soversion>, lib/libtcpu.so   symlinks
      lib/pkgconfig/tcpu.pc
      lib/cmake/tcpu/tcpuConfig.cmake, tcpuConfigVersion.cmake   find_package(tcpu)
      share/doc/tcpu-sdk/tcpu-sdk.spdx.json                     SPDX 2.3 SBOM
      SHA256SUMS                      sha256sum -c format, every regular file

Programs are built for //platforms:linux_aarch64 through the same transition as the QEMU
matrix, so a bundle build reuses what the tests built.
"""

load("//platforms:aarch64_binary.bzl", "to_aarch64")
load(":linked_libraries.bzl", "LinkedLibrariesInfo", "linked_libraries_aspect")

def _header_path(header):
    # runtime/include/tcpu/x.h -> include/tcpu/x.h
    marker = "/include/"
    index = header.short_path.rfind(marker)
    if index < 0:
        fail("sdk_bundle: header %s is not under an include/ folder" % header.short_path)
    return header.short_path[index + 1:]

def _add(entries, inputs, path, file, mode = 0o644):
    entries.append({"path": path, "source": file.path, "mode": mode})
    inputs.append(file)

def _linked(info, traces, archives_from_traces = False):
    """One shipped file's entry of links.json (packaging/spdx_sbom.py reads it). With
    archives_from_traces, the prebuilt archives count only as far as the traces show members
    taken from them (a link that searched them), not merely given."""
    libraries = info.libraries.to_list()
    if archives_from_traces:
        libraries = [f for f in libraries if not f.path.endswith(".a")]
    return {
        "libraries": [f.path for f in libraries],
        "headers": [f.path for f in info.headers.to_list()],
        "traces": traces,
    }

def _sdk_bundle_impl(ctx):
    version = ctx.attr.version
    prefix = "tcpu-sdk-%s-aarch64" % version
    substitutions = {
        "@VERSION@": version,
        "@VERSION_MAJOR@": version.split(".")[0],
        "@SOVERSION@": ctx.attr.soversion,
    }
    generated = {}
    for template, path in [
        (ctx.file.pkgconfig_template, "lib/pkgconfig/tcpu.pc"),
        (ctx.file.cmake_config_template, "lib/cmake/tcpu/tcpuConfig.cmake"),
        (ctx.file.cmake_version_template, "lib/cmake/tcpu/tcpuConfigVersion.cmake"),
    ]:
        out = ctx.actions.declare_file(ctx.label.name + "/" + path)
        ctx.actions.expand_template(template = template, output = out, substitutions = substitutions)
        generated[path] = out

    entries = []
    inputs = []

    # What each shipped file links or compiles in from the package sets (the SBOM's
    # relationships): the libraries and header-only headers of its dependencies, and the traces
    # of the links that runtime_libraries ran.
    traces = ctx.attr.libraries[OutputGroupInfo].link_traces.to_list()
    trace_of = {f.basename.split(".")[0]: [] for f in traces}
    for f in traces:
        trace_of[f.basename.split(".")[0]].append(f.path)
    library_deps = ctx.attr.libraries[LinkedLibrariesInfo]
    links = {}

    for tool, name in ctx.attr.tools.items():
        _add(entries, inputs, "bin/" + name, tool[DefaultInfo].files_to_run.executable, 0o755)
        links["bin/" + name] = _linked(tool[LinkedLibrariesInfo], trace_of["link_probe"])

    libraries = {f.basename: f for f in ctx.files.libraries}
    soname = "libtcpu.so." + ctx.attr.soversion
    if "libtcpu.a" not in libraries or soname not in libraries:
        fail("sdk_bundle: libraries must give libtcpu.a and %s, got %s" % (
            soname,
            sorted(libraries.keys()),
        ))
    _add(entries, inputs, "lib/libtcpu.a", libraries["libtcpu.a"])
    _add(entries, inputs, "lib/libtcpu.so." + version, libraries[soname], 0o755)
    # The archive holds every member of the prebuilt archives; the .so took what its trace says.
    links["lib/libtcpu.a"] = _linked(library_deps, [])
    links["lib/libtcpu.so." + version] = _linked(
        library_deps,
        trace_of["libtcpu"],
        archives_from_traces = True,
    )
    entries.append({"path": "lib/" + soname, "symlink": "libtcpu.so." + version})
    entries.append({"path": "lib/libtcpu.so", "symlink": soname})

    for headers in ctx.attr.headers:
        for header in headers[CcInfo].compilation_context.direct_public_headers:
            _add(entries, inputs, _header_path(header), header)
    for path, file in generated.items():
        _add(entries, inputs, path, file)

    sbom_path = "share/doc/tcpu-sdk/tcpu-sdk.spdx.json"
    manifest = ctx.actions.declare_file(ctx.label.name + "/manifest.json")
    ctx.actions.write(manifest, json.encode({
        "prefix": prefix,
        "sbom_path": sbom_path,
        "entries": entries,
    }))

    links_file = ctx.actions.declare_file(ctx.label.name + "/links.json")
    ctx.actions.write(links_file, json.encode(links))

    license_list = ctx.actions.declare_file(ctx.label.name + "/license_files.txt")
    ctx.actions.write(license_list, "\n".join(sorted([f.path for f in ctx.files.license_files])) + "\n")

    sbom = ctx.actions.declare_file(ctx.label.name + "/tcpu-sdk.spdx.json")
    sbom_args = ctx.actions.args()
    sbom_args.add(ctx.file._spdx_sbom)
    sbom_args.add("--manifest", manifest)
    sbom_args.add("--version", version)
    sbom_args.add("--date", ctx.attr.release_date)
    sbom_args.add("--output", sbom)
    sbom_args.add("--license-files", license_list)
    sbom_args.add("--links", links_file)
    for owners in ctx.files.package_file_lists:
        sbom_args.add("--owners", owners)
    for lockfile, role_and_repo in ctx.attr.lockfiles.items():
        sbom_args.add("--lockfile", "%s:%s" % (role_and_repo, lockfile.files.to_list()[0].path))
    ctx.actions.run(
        executable = ctx.executable._python,
        tools = ctx.files._python_files,
        arguments = [sbom_args],
        inputs = inputs + [manifest, license_list, links_file, ctx.file._spdx_sbom] + traces +
                 ctx.files.lockfiles + ctx.files.license_files + ctx.files.package_file_lists,
        outputs = [sbom],
        mnemonic = "TcpuSbom",
        progress_message = "Writing the SPDX SBOM of " + prefix,
    )

    full_manifest = ctx.actions.declare_file(ctx.label.name + "/manifest_with_sbom.json")
    ctx.actions.write(full_manifest, json.encode({
        "prefix": prefix,
        "sbom_path": sbom_path,
        "entries": entries + [{"path": sbom_path, "source": sbom.path, "mode": 0o644}],
    }))
    tarball = ctx.actions.declare_file(prefix + ".tar.gz")
    tar_args = ctx.actions.args()
    tar_args.add(ctx.file._make_tarball)
    tar_args.add("--manifest", full_manifest)
    tar_args.add("--date", ctx.attr.release_date)
    tar_args.add("--output", tarball)
    ctx.actions.run(
        executable = ctx.executable._python,
        tools = ctx.files._python_files,
        arguments = [tar_args],
        inputs = inputs + [full_manifest, sbom, ctx.file._make_tarball],
        outputs = [tarball],
        mnemonic = "TcpuBundle",
        progress_message = "Packing " + tarball.basename,
    )
    return [
        DefaultInfo(files = depset([tarball]), runfiles = ctx.runfiles(files = [tarball])),
        OutputGroupInfo(sbom = depset([sbom])),
    ]

sdk_bundle = rule(
    implementation = _sdk_bundle_impl,
    attrs = {
        "version": attr.string(mandatory = True),
        "soversion": attr.string(mandatory = True),
        "release_date": attr.string(mandatory = True, doc = "ISO 8601 UTC; tar mtimes, SBOM."),
        "tools": attr.label_keyed_string_dict(
            cfg = to_aarch64,
            aspects = [linked_libraries_aspect],
            doc = "aarch64 programs -> their name in bin/.",
        ),
        "libraries": attr.label(
            mandatory = True,
            aspects = [linked_libraries_aspect],
            doc = "A runtime_libraries target.",
        ),
        "headers": attr.label_list(
            mandatory = True,
            providers = [CcInfo],
            doc = "The public headers of each layer (their include/tcpu/*.h).",
        ),
        "pkgconfig_template": attr.label(mandatory = True, allow_single_file = True),
        "cmake_config_template": attr.label(mandatory = True, allow_single_file = True),
        "cmake_version_template": attr.label(mandatory = True, allow_single_file = True),
        "lockfiles": attr.label_keyed_string_dict(
            allow_files = [".lock"],
            doc = "A package set's debian_packages.lock (the rows it was made from) -> ROLE:REPO " +
                  "(linked or build_tool; the repository).",
        ),
        "license_files": attr.label_list(
            allow_files = True,
            doc = "The :debian_license_files of each repository in `lockfiles`.",
        ),
        "package_file_lists": attr.label_list(
            allow_files = [".tsv"],
            doc = "The debian_package_files.tsv of each repository in `lockfiles`: which " +
                  "package owns each file.",
        ),
        "_python": attr.label(
            default = "@python3//:bin/python3",
            allow_single_file = True,
            executable = True,
            cfg = "exec",
        ),
        "_python_files": attr.label(default = "@python3//:python3_files", cfg = "exec"),
        "_make_tarball": attr.label(default = ":make_tarball.py", allow_single_file = True),
        "_spdx_sbom": attr.label(default = ":spdx_sbom.py", allow_single_file = True),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
    },
    doc = "The SDK bundle tarball (see the file's docstring).",
)
