"""Unpacks the SDK bundle and checks every entry (packaging/sdk_bundle.bzl lists them).

  sdk_bundle_test.py --bundle B.tar.gz --version V --soversion N --date ISO \
      --llvm-nm NM --llvm-objdump OBJDUMP --tool NAME... --lockfile ROLE:REPO:PATH...
"""

import argparse
import datetime
import hashlib
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
    return condition


def run(*argv):
    result = subprocess.run(argv, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed ({result.returncode}): {result.stderr.strip()}")
    return result.stdout


def elf_machine(data):
    # e_machine is the 16-bit field at offset 18 of the ELF header (little-endian here).
    return int.from_bytes(data[18:20], "little") if data[:4] == b"\x7fELF" else None


def dynamic_section(objdump, path):
    """(SONAME, [NEEDED], has INTERP) from llvm-objdump -p."""
    text = run(objdump, "-p", path)
    soname = re.findall(r"^\s*SONAME\s+(\S+)", text, flags=re.MULTILINE)
    needed = re.findall(r"^\s*NEEDED\s+(\S+)", text, flags=re.MULTILINE)
    return (soname[0] if soname else None), needed, bool(re.search(r"^\s*INTERP\s", text,
                                                                 flags=re.MULTILINE))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bundle", required=True)
    parser.add_argument("--version", required=True)
    parser.add_argument("--soversion", required=True)
    parser.add_argument("--date", required=True)
    parser.add_argument("--llvm-nm", required=True)
    parser.add_argument("--llvm-objdump", required=True)
    parser.add_argument("--tool", action="append", default=[])
    parser.add_argument("--lockfile", action="append", default=[])
    args = parser.parse_args()

    prefix = f"tcpu-sdk-{args.version}-aarch64"
    check(os.path.basename(args.bundle) == prefix + ".tar.gz",
          f"bundle file is {os.path.basename(args.bundle)}, expected {prefix}.tar.gz")
    mtime = int(datetime.datetime.fromisoformat(args.date.replace("Z", "+00:00")).timestamp())
    with open(args.bundle, "rb") as f:
        head = f.read(10)
    check(head[4:8] == b"\0\0\0\0", "gzip header carries a timestamp")

    out = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
    with tarfile.open(args.bundle) as tar:
        members = tar.getmembers()
        names = [m.name for m in members]
        check(len(names) == len(set(names)), "duplicate members")
        for m in members:
            check(m.name == prefix or m.name.startswith(prefix + "/"), f"{m.name}: outside {prefix}/")
            check(m.mtime == mtime, f"{m.name}: mtime {m.mtime}, expected {mtime} ({args.date})")
            check(m.uid == 0 and m.gid == 0, f"{m.name}: owner {m.uid}:{m.gid}, expected 0:0")
            check(not m.name.startswith("/") and ".." not in m.name.split("/"), f"{m.name}: unsafe")
        tar.extractall(out)
    root = os.path.join(out, prefix)
    files = sorted(m.name[len(prefix) + 1:] for m in members if m.isfile())
    links = {m.name[len(prefix) + 1:]: m.linkname for m in members if m.issym()}

    so_file = f"lib/libtcpu.so.{args.version}"
    soname = f"libtcpu.so.{args.soversion}"
    expected = {"SHA256SUMS", "lib/libtcpu.a", so_file, "lib/pkgconfig/tcpu.pc",
                "lib/cmake/tcpu/tcpuConfig.cmake", "lib/cmake/tcpu/tcpuConfigVersion.cmake",
                "share/doc/tcpu-sdk/tcpu-sdk.spdx.json"}
    expected |= {"bin/" + tool for tool in args.tool}
    headers = [f for f in files if f.startswith("include/")]
    for must in ["include/tcpu/tcpu.h", "include/tcpu/status.h", "include/tcpu/triton.h",
                 "include/tcpu/decoder.h", "include/tcpu/tokenizer.h",
                 "include/tcpu/chat_template.h", "include/tcpu/generate.h"]:
        check(must in headers, f"{must} missing")
    check(all(re.fullmatch(r"include/tcpu/[a-z0-9_]+\.h", h) for h in headers),
          f"unexpected headers: {headers}")
    check(set(files) - set(headers) == expected,
          f"files differ: missing {sorted(expected - set(files))}, "
          f"unexpected {sorted(set(files) - set(headers) - expected)}")
    check(links == {f"lib/{soname}": os.path.basename(so_file), "lib/libtcpu.so": soname},
          f"symlinks {links}")

    # SHA256SUMS: every other regular file, digests right.
    sums = {}
    for line in open(os.path.join(root, "SHA256SUMS"), encoding="utf-8"):
        digest, path = line.rstrip("\n").split("  ", 1)
        sums[path] = digest
    check(set(sums) == set(files) - {"SHA256SUMS"}, "SHA256SUMS does not list every file")
    for path, digest in sums.items():
        actual = hashlib.sha256(open(os.path.join(root, path), "rb").read()).hexdigest()
        check(actual == digest, f"SHA256SUMS: {path} is {actual}, listed {digest}")

    # Programs: aarch64 (EM_AARCH64 = 183), static, executable.
    for tool in args.tool:
        path = os.path.join(root, "bin", tool)
        data = open(path, "rb").read(64)
        check(elf_machine(data) == 183, f"bin/{tool} is not an aarch64 ELF file")
        check(os.stat(path).st_mode & 0o111, f"bin/{tool} is not executable")
        _, needed, interp = dynamic_section(args.llvm_objdump, path)
        check(not interp and not needed, f"bin/{tool} is not static (NEEDED {needed})")

    # The C ABI the headers declare.
    declared = set()
    for header in headers:
        declared |= set(re.findall(r"\b(tcpu_\w+)\s*\(", open(os.path.join(root, header)).read()))

    # libtcpu.so: aarch64, versioned soname, no libstdc++ needed, exports only the C ABI.
    so = os.path.join(root, so_file)
    check(elf_machine(open(so, "rb").read(64)) == 183, "libtcpu.so is not aarch64")
    so_soname, needed, _ = dynamic_section(args.llvm_objdump, so)
    check(so_soname == soname, f"libtcpu.so soname is {so_soname}, expected {soname}")
    check(not [n for n in needed if "stdc++" in n or "gcc_s" in n],
          f"libtcpu.so needs the C++ runtime: {needed}")
    exported = set()
    for line in run(args.llvm_nm, "-D", "--defined-only", "--extern-only", so).splitlines():
        fields = line.split()
        if len(fields) >= 3:
            exported.add(fields[2].split("@")[0])
    check(len(exported) >= 20, f"libtcpu.so exports only {sorted(exported)}")
    check(exported <= declared,
          f"libtcpu.so exports symbols no header declares: {sorted(exported - declared)[:20]}")
    for symbol in ["tcpu_status_string", "tcpu_gemv_i8", "tcpu_decoder_open",
                   "tcpu_triton_launch", "tcpu_tokenizer_open", "tcpu_chat_template_render",
                   "tcpu_generate_text"]:
        check(symbol in exported, f"libtcpu.so does not export {symbol}")

    # libtcpu.a defines everything the .so exports.
    archive_defined = set()
    for line in run(args.llvm_nm, "--defined-only", "--extern-only", "-P",
                    os.path.join(root, "lib/libtcpu.a")).splitlines():
        fields = line.split()
        if len(fields) >= 2 and not fields[0].endswith(":"):
            archive_defined.add(fields[0])
    check(exported <= archive_defined,
          f"libtcpu.a lacks {sorted(exported - archive_defined)[:20]}")

    pc = open(os.path.join(root, "lib/pkgconfig/tcpu.pc")).read()
    check(f"Version: {args.version}\n" in pc, "tcpu.pc: wrong Version")
    check(re.search(r"^Libs: .*-ltcpu", pc, flags=re.MULTILINE), "tcpu.pc: no -ltcpu")
    check("prefix=${pcfiledir}/../.." in pc, "tcpu.pc is not relocatable")
    config = open(os.path.join(root, "lib/cmake/tcpu/tcpuConfig.cmake")).read()
    check("add_library(tcpu::tcpu STATIC IMPORTED)" in config, "tcpuConfig.cmake: no tcpu::tcpu")
    check(f'"${{_tcpu_prefix}}/lib/libtcpu.so.{args.version}"' in config,
          "tcpuConfig.cmake: tcpu::tcpu_shared does not point at the shipped .so")
    version_file = open(os.path.join(root, "lib/cmake/tcpu/tcpuConfigVersion.cmake")).read()
    check(f'set(PACKAGE_VERSION "{args.version}")' in version_file, "tcpuConfigVersion: version")

    # The SBOM: SPDX 2.3, the project, its files, the packages linked into each, the build tools.
    sbom = json.load(open(os.path.join(root, "share/doc/tcpu-sdk/tcpu-sdk.spdx.json")))
    check(sbom.get("spdxVersion") == "SPDX-2.3", "SBOM is not SPDX-2.3")
    check(sbom.get("dataLicense") == "CC0-1.0", "SBOM dataLicense")
    check(sbom["creationInfo"]["created"] == args.date, "SBOM creation date is not the release's")
    # The same name and version can come from several lockfiles (arm64 and amd64 builds).
    packages = {}
    for p in sbom["packages"]:
        for checksum in p.get("checksums", [{"checksumValue": None}]):
            packages[(p["name"], p["versionInfo"], checksum["checksumValue"])] = p
    check(("tcpu-sdk", args.version, None) in packages, "SBOM lacks the project itself")
    # Relationships from each shipped file to the packages linked into it.
    by_id = {p["SPDXID"]: p for p in sbom["packages"]}
    linked_into = {}  # shipped path -> {(package name, relationship)}
    for relationship in sbom["relationships"]:
        if relationship["relationshipType"] in ("STATIC_LINK", "DYNAMIC_LINK"):
            shipped = relationship["spdxElementId"]
            package = by_id.get(relationship["relatedSpdxElement"])
            if check(package is not None, f"SBOM: {relationship} names no package"):
                linked_into.setdefault(shipped, set()).add(
                    (package["name"], relationship["relationshipType"]))
    rows = 0
    licensed = 0
    linked_rows = 0
    for spec in args.lockfile:
        role, repo, lockfile = spec.split(":", 2)
        for line in open(lockfile):
            if not line.strip() or line.startswith("#"):
                continue
            name, version, _, sha256, _ = line.rstrip("\n").split("\t")
            # The same .deb (architecture "all") can be in a linked and a build-tool set: the
            # SPDXID names the set.
            package = by_id.get("SPDXRef-Package-" + "-".join(
                re.sub(r"[^A-Za-z0-9.]+", "-", p).strip("-") for p in (repo, name)))
            if role == "linked" and package is None:
                continue  # In the package set, linked into no shipped file.
            rows += 1
            linked_rows += role == "linked"
            if not check(package is not None,
                         f"SBOM lacks the build tool {name} {version} ({lockfile})"):
                continue
            check(package["checksums"] == [{"algorithm": "SHA256", "checksumValue": sha256}],
                  f"SBOM: {name} checksums {package['checksums']}")
            licensed += package["licenseDeclared"] != "NOASSERTION"
            if role == "linked":
                check(any(r["relatedSpdxElement"] == package["SPDXID"]
                          for r in sbom["relationships"]
                          if r["relationshipType"] in ("STATIC_LINK", "DYNAMIC_LINK")),
                      f"SBOM lists {name} but links it into nothing")
    check(rows > 100, f"only {rows} lockfile rows checked")
    check(5 <= linked_rows <= 40, f"{linked_rows} linked packages: expected the few that the "
          "links take (C/C++ runtime, MLIR, nlohmann-json), not a whole sysroot")

    def linked(path):
        return linked_into.get("SPDXRef-File-" + re.sub(r"[^A-Za-z0-9.]+", "-", path), set())

    for tool in args.tool:
        for package in ("libc6-dev", "libstdc++-12-dev", "libgcc-12-dev"):
            check((package, "STATIC_LINK") in linked("bin/" + tool),
                  f"SBOM: bin/{tool} is not STATIC_LINK to {package}: {sorted(linked('bin/' + tool))}")
    for tool in ("tcpu-opt", "tcpu-compile"):
        check(("libmlir-19-dev", "STATIC_LINK") in linked("bin/" + tool),
              f"SBOM: bin/{tool} is not STATIC_LINK to MLIR: {sorted(linked('bin/' + tool))}")
    check(("nlohmann-json3-dev", "STATIC_LINK") in linked("bin/tcpu-decode"),
          "SBOM: bin/tcpu-decode does not compile in nlohmann-json")
    shared = linked(f"lib/libtcpu.so.{args.version}")
    check(("libc6", "DYNAMIC_LINK") in shared and ("libstdc++-12-dev", "STATIC_LINK") in shared,
          f"SBOM: libtcpu.so links {sorted(shared)}")
    check(("libmlir-19-dev", "STATIC_LINK") not in shared, "SBOM: libtcpu.so does not link MLIR")
    # The tokenizer's Debian archives: members taken by the .so's link (its trace), every
    # member merged into the .a.
    archive = linked("lib/libtcpu.a")
    for package in ("libpcre2-dev", "libutf8proc-dev"):
        check((package, "STATIC_LINK") in shared, f"SBOM: libtcpu.so is not STATIC_LINK to "
              f"{package}: {sorted(shared)}")
        check((package, "STATIC_LINK") in archive, f"SBOM: libtcpu.a is not STATIC_LINK to "
              f"{package}: {sorted(archive)}")
    everything = set().union(*linked_into.values()) if linked_into else set()
    for package in ("googletest", "libgtest-dev", "libasan8", "libkrb5-3", "libssl3"):
        check(all(name != package for name, _ in everything),
              f"SBOM: {package} is not linked into any shipped file")
    # Most Debian copyright files are machine-readable (not GCC's, glibc's or CPython's): a
    # drop below half means the parser broke.
    check(licensed >= rows * 0.5, f"only {licensed} of {rows} packages have a license")
    sbom_files = {f["fileName"][2:]: f for f in sbom["files"]}
    check(set(sbom_files) == set(files) - {"SHA256SUMS", "share/doc/tcpu-sdk/tcpu-sdk.spdx.json"},
          "SBOM files differ from the bundle's")
    for path, entry in sbom_files.items():
        digest = [c["checksumValue"] for c in entry["checksums"] if c["algorithm"] == "SHA256"]
        check(digest == [sums.get(path)], f"SBOM: sha256 of {path} differs from SHA256SUMS")
    spdx_ids = {p["SPDXID"] for p in sbom["packages"]} | {f["SPDXID"] for f in sbom["files"]}
    check(len(spdx_ids) == len(sbom["packages"]) + len(sbom["files"]), "SBOM: duplicate SPDXID")
    for relationship in sbom["relationships"]:
        for key in ("spdxElementId", "relatedSpdxElement"):
            check(relationship[key] in spdx_ids | {"SPDXRef-DOCUMENT"},
                  f"SBOM relationship to unknown {relationship[key]}")

    size = os.path.getsize(args.bundle)
    print(f"{os.path.basename(args.bundle)}: {size} bytes, {len(files)} files, "
          f"{len(exported)} exported symbols, {rows} packages ({licensed} with a license)")
    if failures:
        print("\n".join("FAIL: " + f for f in failures))
        sys.exit(1)
    print("PASS")


if __name__ == "__main__":
    main()
