"""debian_packages: a repository made of the Debian packages pinned by one lockfile.

The packages are fetched and verified by materialize.sh (see there); verified .debs are
kept in a cache keyed by sha256 outside the output base, so a fresh clone or
`bazel clean --expunge` does not download again.

A pinned version the archive no longer serves is replaced by the version it serves, with a
warning naming the lockfile, both versions and `tools/lock/relock`; TCPU_STRICT_LOCK=1 makes
that an error instead (materialize.sh). The repository's debian_packages.lock lists the rows
actually used.

Environment (also through --repo_env):
  TCPU_DEB_CACHE     cache folder (default ~/.cache/tcpu-sdk/debs)
  TCPU_DEB_DIR       folder of pre-downloaded .debs (pool file names) for air-gapped hosts
  TCPU_APT_SOURCES   an apt sources file used instead of the host's sources (a mirror, or an
                     archive service that keeps old versions)
  TCPU_STRICT_LOCK   1: fail on a pin the archive no longer serves (release builds)
"""

def _cache_dir(rctx):
    env = rctx.os.environ
    if env.get("TCPU_DEB_CACHE"):
        return env["TCPU_DEB_CACHE"]
    home = env.get("HOME")
    if not home:
        fail("debian_packages(%s): HOME is unset; set TCPU_DEB_CACHE to a cache folder" % rctx.name)
    base = env.get("XDG_CACHE_HOME") or (home + "/.cache")
    return base + "/tcpu-sdk/debs"

# Appended to every package set's BUILD file: each package's license statement (Debian's
# copyright file; LICENSE/COPYING of upstream source tarballs) and the owner of every file
# (materialize.sh), which the SDK bundle's SBOM reads (//packaging).
_LICENSE_FILES = """
exports_files(["debian_package_files.tsv", "debian_packages.lock"])

filegroup(
    name = "debian_license_files",
    srcs = glob([
        "usr/share/doc/*/copyright",
        "src/*/LICENSE*",
        "src/*/COPYING*",
    ]),
    visibility = ["//visibility:public"],
)
"""

def _debian_packages_impl(rctx):
    script = rctx.path(rctx.attr._materialize)
    rctx.path(rctx.attr._apt_state)  # Makes the sourced helper a tracked input.
    lockfile = rctx.path(rctx.attr.lockfile)
    label = rctx.attr.lockfile
    shown = (label.package + "/" if label.package else "") + label.name
    result = rctx.execute(
        ["bash", script, lockfile, rctx.path("."), _cache_dir(rctx), shown],
        timeout = 3600,
        quiet = True,
    )
    if result.return_code != 0:
        fail("\n" + (result.stderr or result.stdout).strip())

    # Pins the archive no longer serves, replaced (materialize.sh): one warning per package.
    for line in result.stderr.splitlines():
        if line.startswith("WARNING: "):
            print(line[len("WARNING: "):])
    for launcher, tool in rctx.attr.launchers.items():
        rctx.template(launcher, rctx.attr._launcher_template, executable = True, substitutions = {
            "%{tool}": tool,
            "%{multiarch}": "x86_64-linux-gnu",
        })
    rctx.file("BUILD.bazel", rctx.read(rctx.attr.build_file) + _LICENSE_FILES)
    rctx.file("WORKSPACE", "workspace(name = \"%s\")\n" % rctx.name)

debian_packages = repository_rule(
    implementation = _debian_packages_impl,
    attrs = {
        "lockfile": attr.label(mandatory = True, allow_single_file = True),
        "build_file": attr.label(mandatory = True, allow_single_file = True),
        "launchers": attr.string_dict(
            doc = "Launcher path -> binary in the tree; a launcher runs its binary with the " +
                  "tree's x86-64 shared libraries (for host tools such as clang or qemu).",
        ),
        "_launcher_template": attr.label(default = "//toolchains/debian:launcher.sh.tpl"),
        "_materialize": attr.label(default = "//toolchains/debian:materialize.sh"),
        "_apt_state": attr.label(default = "//toolchains/debian:apt_state.sh"),
    },
    environ = [
        "TCPU_DEB_CACHE",
        "TCPU_DEB_DIR",
        "TCPU_APT_SOURCES",
        "TCPU_STRICT_LOCK",
        "XDG_CACHE_HOME",
        "HOME",
    ],
    doc = "Extracts the Debian packages pinned in `lockfile` and adds `build_file` as BUILD.",
)
