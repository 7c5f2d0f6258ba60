"""linked_libraries_aspect: what a C++ target takes from other repositories (Debian packages).

Follows `deps` and collects, from every cc_library of another repository (the package sets of
toolchains/lockfiles), the prebuilt libraries it gives the link (MLIR's and abseil's static
archives, ...) and, for a header-only library (nlohmann-json), its headers: code compiled into
the objects that include them. The SDK bundle's SBOM maps these files to the packages that
own them (packaging/spdx_sbom.py).
"""

LinkedLibrariesInfo = provider(
    doc = "Files of other repositories that a target's link takes, or that its code compiles in.",
    fields = {
        "libraries": "depset of prebuilt library Files (archives, shared objects)",
        "headers": "depset of the header Files of header-only libraries",
    },
)

def _library_files(linker_input):
    files = []
    for library in linker_input.libraries:
        for file in [
            library.static_library,
            library.pic_static_library,
            library.dynamic_library,
            library.interface_library,
        ]:
            if file != None:
                files.append(file)
    return files

def _linked_libraries_aspect_impl(target, ctx):
    libraries = []
    headers = []
    if target.label.workspace_name and CcInfo in target:
        cc = target[CcInfo]
        own = [
            linker_input
            for linker_input in cc.linking_context.linker_inputs.to_list()
            if linker_input.owner == target.label
        ]
        for linker_input in own:
            libraries.extend(_library_files(linker_input))
        if not libraries:
            headers = cc.compilation_context.direct_public_headers + \
                      cc.compilation_context.direct_private_headers
    deps = [
        dep[LinkedLibrariesInfo]
        for dep in getattr(ctx.rule.attr, "deps", [])
        if LinkedLibrariesInfo in dep
    ]
    return [LinkedLibrariesInfo(
        libraries = depset(libraries, transitive = [d.libraries for d in deps]),
        headers = depset(headers, transitive = [d.headers for d in deps]),
    )]

linked_libraries_aspect = aspect(
    implementation = _linked_libraries_aspect_impl,
    attr_aspects = ["deps"],
    doc = "LinkedLibrariesInfo of a C++ target (see the file's docstring).",
)
