"""npm_package: one npm tarball, pinned in a lockfile by version and sha256, as a repository.

The tarball is fetched from the npm registry's own URL (the one `npm pack` uses) and checked
against the lockfile's sha256; Bazel's repository cache keeps it, keyed by that sha256.
"""

_REGISTRY = "https://registry.npmjs.org"

def _lock_row(rctx, package):
    for line in rctx.read(rctx.attr.lockfile).splitlines():
        if not line or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 3:
            fail("npm_package(%s): lockfile row '%s' is not 'name<TAB>version<TAB>sha256'" %
                 (rctx.name, line))
        if fields[0] == package:
            return fields[1], fields[2]
    fail("npm_package(%s): package '%s' is not in %s" % (rctx.name, package, rctx.attr.lockfile))

def _npm_package_impl(rctx):
    package = rctx.attr.package
    version, sha256 = _lock_row(rctx, package)

    # "@scope/name" is served as @scope/name/-/name-VERSION.tgz.
    basename = package.split("/")[-1]
    url = "%s/%s/-/%s-%s.tgz" % (_REGISTRY, package, basename, version)
    rctx.download_and_extract(url = url, sha256 = sha256, stripPrefix = "package")
    rctx.symlink(rctx.attr.build_file, "BUILD.bazel")
    rctx.file("WORKSPACE", "workspace(name = \"%s\")\n" % rctx.name)

npm_package = repository_rule(
    implementation = _npm_package_impl,
    attrs = {
        "package": attr.string(mandatory = True, doc = "npm name, e.g. @lenml/tokenizers"),
        "lockfile": attr.label(mandatory = True, allow_single_file = True),
        "build_file": attr.label(mandatory = True, allow_single_file = True),
    },
    doc = "Extracts the npm tarball of `package` at the version and sha256 pinned in `lockfile`.",
)
