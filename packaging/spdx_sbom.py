"""Writes the SDK bundle's SPDX 2.3 JSON SBOM: the project, the files it ships, the Debian
packages linked into each of them, and the packages of the tools that built them (name,
version, sha256, license).

  spdx_sbom.py --manifest M.json --version V --date ISO --output OUT.spdx.json \
      --lockfile ROLE:REPO:REPO_TREE/debian_packages.lock ... --license-files LIST \
      --links LINKS.json \
      --owners REPO_TREE/debian_package_files.tsv ...

ROLE says how a package set reaches the bundle: `linked` (the shipped files' links and
compiles take files from it: sysroot, MLIR, header-only libraries) or `build_tool` (ran during
the build). Of a `linked` set the SBOM lists only the packages some shipped file takes, each
with its own relationship from that file: STATIC_LINK for archives whose members a link took,
objects and header-only libraries compiled in, DYNAMIC_LINK for shared libraries. LINKS.json
says per shipped file what its link was given (`libraries`), the header-only headers its code
includes (`headers`) and the lld traces of the link (`traces`: --dependency-file and
--why-extract files); the --owners tables (materialize.sh) say which package owns each file.
A package's license comes from its Debian copyright file when that file is machine-readable
(DEP-5 `License:` fields, mapped to SPDX identifiers where one exists); otherwise the SBOM says
NOASSERTION and why. Nothing here depends on the clock or the machine, so the SBOM is
reproducible.
"""

import argparse
import hashlib
import json
import os
import re
import sys

# Debian short license names (DEP-5) -> SPDX identifiers. Names not listed stay
# LicenseRef-Debian-<name>, with the text the copyright file gives.
DEBIAN_TO_SPDX = {
    "apache-2.0": "Apache-2.0",
    "apache-2.0 with llvm exception": "Apache-2.0 WITH LLVM-exception",
    "apache-2-llvm-exceptions": "Apache-2.0 WITH LLVM-exception",
    "artistic": "Artistic-1.0-Perl",
    "artistic-2.0": "Artistic-2.0",
    "bsd-2-clause": "BSD-2-Clause",
    "bsd-3-clause": "BSD-3-Clause",
    "bsd-4-clause": "BSD-4-Clause",
    "bsl-1.0": "BSL-1.0",
    "cc0-1.0": "CC0-1.0",
    "expat": "MIT",
    "mit": "MIT",
    "gfdl-1.2+": "GFDL-1.2-or-later",
    "gfdl-1.3+": "GFDL-1.3-or-later",
    "gpl-1+": "GPL-1.0-or-later",
    "gpl-2": "GPL-2.0-only",
    "gpl-2+": "GPL-2.0-or-later",
    "gpl-2.0": "GPL-2.0-only",
    "gpl-2.0+": "GPL-2.0-or-later",
    "gpl-3": "GPL-3.0-only",
    "gpl-3+": "GPL-3.0-or-later",
    "gpl-3.0+": "GPL-3.0-or-later",
    "isc": "ISC",
    "lgpl-2": "LGPL-2.0-only",
    "lgpl-2+": "LGPL-2.0-or-later",
    "lgpl-2.1": "LGPL-2.1-only",
    "lgpl-2.1+": "LGPL-2.1-or-later",
    "lgpl-3": "LGPL-3.0-only",
    "lgpl-3+": "LGPL-3.0-or-later",
    "mpl-1.1": "MPL-1.1",
    "mpl-2.0": "MPL-2.0",
    "ncsa": "NCSA",
    "openssl": "OpenSSL",
    "psf-2": "PSF-2.0",
    "public-domain": "LicenseRef-Debian-public-domain",
    "zlib": "Zlib",
}

ROLES = ("linked", "build_tool")


def spdx_id(*parts):
    """SPDX identifiers allow letters, digits, '.' and '-' only."""
    return "SPDXRef-" + "-".join(re.sub(r"[^A-Za-z0-9.]+", "-", p).strip("-") for p in parts)


def read_lockfile(path):
    """The rows of a package set's debian_packages.lock (materialize.sh), each with the lockfile
    that pinned it and, where the archive no longer served the pinned version, that version."""
    rows, lockfile, pinned = [], os.path.basename(path), {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.startswith("# lockfile:"):
                lockfile = line.split(":", 1)[1].strip()
            elif line.startswith("# substituted:"):
                # "# substituted: NAME PINNED -> USED (ARCH)"
                fields = line.split(":", 1)[1].split()
                if len(fields) != 5 or fields[2] != "->":
                    sys.exit(f"spdx_sbom: {path}:{number}: expected '# substituted: NAME PINNED "
                             f"-> USED (ARCH)', got {line!r}")
                pinned[(fields[0], fields[3])] = fields[1]
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) != 5:
                sys.exit(f"spdx_sbom: {path}:{number}: expected 5 tab-separated fields "
                         f"(name version arch sha256 file), got {len(fields)}")
            rows.append(dict(zip(("name", "version", "arch", "sha256", "file"), fields)))
    if not rows:
        sys.exit(f"spdx_sbom: {path} lists no packages")
    for row in rows:
        row["lockfile"] = lockfile
        row["pinned"] = pinned.get((row["name"], row["version"]))
    return rows


def license_ref(name):
    return "LicenseRef-Debian-" + re.sub(r"[^A-Za-z0-9.]+", "-", name).strip("-")


def spdx_license(short_name, extracted):
    """One DEP-5 short name (possibly `A or B`, `A and B`) as an SPDX expression."""
    terms = re.split(r"\s+(or|and)\s+", short_name.strip(), flags=re.IGNORECASE)
    out = []
    for i, term in enumerate(terms):
        if i % 2:
            out.append(term.upper())
            continue
        key = re.sub(r"\s+", " ", term.strip().strip(",").lower())
        spdx = DEBIAN_TO_SPDX.get(key)
        if spdx is None or spdx.startswith("LicenseRef-"):
            spdx = spdx or license_ref(term.strip())
            extracted.setdefault(spdx, term.strip())
        out.append(spdx)
    expression = " ".join(out)
    return f"({expression})" if len(terms) > 1 else expression


def debian_copyright_license(text, extracted):
    """The licenses a machine-readable (DEP-5) copyright file declares, as one expression."""
    first = text.lstrip().splitlines()[0] if text.strip() else ""
    if not first.lower().startswith("format:") or "copyright-format" not in first:
        return None
    names = []
    for match in re.finditer(r"^License:[ \t]*(\S[^\n]*)$", text, flags=re.MULTILINE):
        name = match.group(1).strip()
        if name and name not in names:
            names.append(name)
    if not names:
        return None
    expressions = []
    for name in names:
        expression = spdx_license(name, extracted)
        if expression not in expressions:
            expressions.append(expression)
    return " AND ".join(sorted(expressions))


def upstream_license(text):
    """The license of an upstream source tarball from its LICENSE/COPYING text."""
    head = " ".join(text[:4000].split())
    if "Apache License" in head and "Version 2.0" in head:
        return "Apache-2.0"
    if "Permission is hereby granted, free of charge" in head:
        return "MIT"
    return None


def license_files_by_repo(paths):
    """external/<repo>/usr/share/doc/<pkg>/copyright or external/<repo>/src/<pkg>/LICENSE."""
    found = {}
    for path in paths:
        parts = path.split("/")
        if "external" not in parts:
            continue
        base = parts.index("external")
        repo, rest = parts[base + 1], parts[base + 2:]
        if rest[:3] == ["usr", "share", "doc"] and len(rest) == 5:
            found.setdefault((repo, rest[3]), path)
        elif rest[:1] == ["src"] and len(rest) == 3:
            found.setdefault((repo, rest[1]), path)
    return found


def read_owners(paths):
    """{(repo, path in the repo): package} and [(repo, folder prefix, package)] (sources)."""
    owners, folders = {}, []
    for path in paths:
        parts = os.path.normpath(path).split(os.sep)
        if "external" not in parts:
            sys.exit(f"spdx_sbom: --owners {path}: not in an external/<repository> tree")
        repo = parts[parts.index("external") + 1]
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                fields = line.rstrip("\n").split("\t")
                if len(fields) != 3:
                    sys.exit(f"spdx_sbom: --owners {path}:{number}: expected PACKAGE<TAB>VERSION"
                             f"<TAB>PATH, got {line!r}")
                package, _, owned = fields
                if owned.endswith("/"):
                    folders.append((repo, owned, package))
                else:
                    owners[(repo, owned)] = package
    return owners, folders


def owner_of(path, owners, folders):
    """(repo, package) of an execroot-relative path in a package set; None for our own files;
    exits naming the file if a package set does not know it."""
    parts = os.path.normpath(path).split(os.sep)
    if "external" not in parts:
        return None
    base = parts.index("external")
    repo, inner = parts[base + 1], "/".join(parts[base + 2:])
    package = owners.get((repo, inner))
    if package is None:
        package = next((p for r, prefix, p in folders if r == repo and inner.startswith(prefix)),
                       None)
    if package is None:
        if not any(r == repo for r, _ in owners) and not any(r == repo for r, _, _ in folders):
            return None  # Not a package set (e.g. a repository of generated files).
        sys.exit(f"spdx_sbom: {path}: no package of @{repo} owns this file")
    return repo, package


def dependency_file_inputs(path):
    """The inputs of a make-style dependency file (lld --dependency-file): its first rule."""
    text = open(path, encoding="utf-8").read().split("\n\n", 1)[0]
    _, _, inputs = text.partition(": ")
    return [word for word in inputs.replace("\\\n", " ").split() if word != "\\"]


def extracted_archives(path):
    """Archives at least one of whose members lld took (--why-extract: reference, extracted,
    symbol; extracted is ARCHIVE(MEMBER))."""
    archives = set()
    with open(path, encoding="utf-8") as f:
        next(f, None)  # The header line.
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) >= 2 and fields[1].endswith(")") and "(" in fields[1]:
                archives.add(fields[1][:fields[1].rindex("(")])
    return archives


def is_shared_object(path):
    return re.search(r"\.so(\.[0-9]+)*$", path) is not None


def linked_packages(links, owners, folders):
    """{shipped path: {(repo, package): (relationship, how)}} from LINKS.json."""
    result = {}
    for shipped, linked in sorted(links.items()):
        found = {}

        def add(path, relationship, how):
            owner = owner_of(path, owners, folders)
            if owner is not None:
                found.setdefault(owner, (relationship, how))

        archives = set()
        for trace in linked["traces"]:
            if trace.endswith(".why_extract.tsv"):
                archives |= {os.path.normpath(a) for a in extracted_archives(trace)}
        for trace in linked["traces"]:
            if not trace.endswith(".d"):
                continue
            for path in map(os.path.normpath, dependency_file_inputs(trace)):
                if path.endswith(".a"):
                    if path in archives:
                        add(path, "STATIC_LINK", f"members of {os.path.basename(path)} linked in")
                elif is_shared_object(path):
                    add(path, "DYNAMIC_LINK", f"linked against {os.path.basename(path)}")
                elif path.endswith(".o"):
                    add(path, "STATIC_LINK", f"{os.path.basename(path)} linked in")
        for path in linked["libraries"]:
            relationship = "DYNAMIC_LINK" if is_shared_object(path) else "STATIC_LINK"
            add(path, relationship, f"its link takes {os.path.basename(path)}")
        for path in linked["headers"]:
            add(path, "STATIC_LINK", "header-only library compiled in")
        result[shipped] = found
    return result


def file_entry(path, source):
    data = open(source, "rb").read()
    return {
        "SPDXID": spdx_id("File", path),
        "fileName": "./" + path,
        "checksums": [
            {"algorithm": "SHA1", "checksumValue": hashlib.sha1(data).hexdigest()},
            {"algorithm": "SHA256", "checksumValue": hashlib.sha256(data).hexdigest()},
        ],
        "licenseConcluded": "NOASSERTION",
        "copyrightText": "NOASSERTION",
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--manifest", required=True)
    parser.add_argument("--version", required=True)
    parser.add_argument("--date", required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("--lockfile", action="append", default=[])
    parser.add_argument("--license-files", required=True,
                        help="a file listing the license files, one path a line")
    parser.add_argument("--links", required=True, help="what each shipped file links (JSON)")
    parser.add_argument("--owners", action="append", default=[],
                        help="a debian_package_files.tsv: which package owns each file")
    args = parser.parse_args()
    owners, folders = read_owners(args.owners)
    links = linked_packages(json.load(open(args.links, encoding="utf-8")), owners, folders)
    unknown = sorted(set(links) - {e["path"] for e in json.load(open(args.manifest))["entries"]})
    if unknown:
        sys.exit(f"spdx_sbom: --links names files the bundle does not ship: {unknown}")

    manifest = json.load(open(args.manifest, encoding="utf-8"))
    license_paths = open(args.license_files, encoding="utf-8").read().split()
    licenses = license_files_by_repo(license_paths)

    project = spdx_id("Package", "tcpu-sdk")
    extracted = {}
    packages = [{
        "SPDXID": project,
        "name": "tcpu-sdk",
        "versionInfo": args.version,
        "packageFileName": manifest["prefix"] + ".tar.gz",
        "primaryPackagePurpose": "LIBRARY",
        "supplier": "Organization: tcpu-sdk",
        "downloadLocation": "NOASSERTION",
        "filesAnalyzed": True,
        "licenseConcluded": "NOASSERTION",
        "licenseDeclared": "NOASSERTION",
        "copyrightText": "NOASSERTION",
        "comment": "The SDK bundle: aarch64 tools, libtcpu.a/.so, headers, pkg-config and "
                   "CMake files. Built hermetically from pinned Debian packages: those linked "
                   "into each file, and the build tools, are listed here.",
    }]
    files = []
    relationships = [{
        "spdxElementId": "SPDXRef-DOCUMENT",
        "relationshipType": "DESCRIBES",
        "relatedSpdxElement": project,
    }]
    for entry in manifest["entries"]:
        if "source" not in entry or entry["path"] == manifest["sbom_path"]:
            continue
        files.append(file_entry(entry["path"], entry["source"]))
        relationships.append({
            "spdxElementId": project,
            "relationshipType": "CONTAINS",
            "relatedSpdxElement": files[-1]["SPDXID"],
        })
    package_verification = hashlib.sha1("".join(sorted(
        f["checksums"][0]["checksumValue"] for f in files)).encode()).hexdigest()
    packages[0]["packageVerificationCode"] = {"packageVerificationCodeValue": package_verification}

    for spec in args.lockfile:
        try:
            role, repo, path = spec.split(":", 2)
        except ValueError:
            sys.exit(f"spdx_sbom: --lockfile {spec!r}: expected ROLE:REPO:LOCKFILE")
        if role not in ROLES:
            sys.exit(f"spdx_sbom: --lockfile {spec!r}: role {role!r} is not one of {ROLES}")
        users = {}  # Shipped file -> (relationship, how), for the packages of a linked set.
        for shipped, found in links.items():
            for (repo_of, name), how in found.items():
                if repo_of == repo:
                    users.setdefault(name, {})[shipped] = how
        for row in read_lockfile(path):
            if role == "linked" and row["name"] not in users:
                continue  # In the package set, but in no shipped file.
            package = {
                "SPDXID": spdx_id("Package", repo, row["name"]),
                "name": row["name"],
                "versionInfo": row["version"],
                "packageFileName": row["file"],
                "supplier": "Organization: Debian",
                "downloadLocation": "NOASSERTION",
                "filesAnalyzed": False,
                "checksums": [{"algorithm": "SHA256", "checksumValue": row["sha256"]}],
                "licenseConcluded": "NOASSERTION",
                "copyrightText": "NOASSERTION",
                "comment": f"Pinned in {row['lockfile']} ({row['arch']}); fetched into @{repo}."
                           if row["pinned"] is None else
                           f"Pinned at {row['pinned']} in {row['lockfile']} ({row['arch']}), a "
                           f"version the archive no longer served; {row['version']}, the version "
                           f"it served, was fetched into @{repo} instead.",
            }
            if row["arch"] == "source":
                package["externalRefs"] = [{
                    "referenceCategory": "PACKAGE-MANAGER",
                    "referenceType": "purl",
                    "referenceLocator": f"pkg:deb/debian/{row['name']}@{row['version']}"
                                        "?arch=source",
                }]
            else:
                package["externalRefs"] = [{
                    "referenceCategory": "PACKAGE-MANAGER",
                    "referenceType": "purl",
                    "referenceLocator": f"pkg:deb/debian/{row['name']}@{row['version']}"
                                        f"?arch={row['arch']}",
                }]
            license_path = licenses.get((repo, row["name"]))
            declared = None
            if license_path is None:
                package["licenseComments"] = "The package ships no copyright file."
            else:
                text = open(license_path, encoding="utf-8", errors="replace").read()
                if row["arch"] == "source":
                    declared = upstream_license(text)
                    source = "the upstream " + os.path.basename(license_path)
                else:
                    declared = debian_copyright_license(text, extracted)
                    source = f"/usr/share/doc/{row['name']}/copyright"
                if declared is None:
                    package["licenseComments"] = (
                        f"{source} is not machine-readable; see that file.")
                else:
                    package["licenseComments"] = f"From {source}."
            package["licenseDeclared"] = declared or "NOASSERTION"
            packages.append(package)
            if role == "build_tool":
                relationships.append({"spdxElementId": package["SPDXID"],
                                      "relationshipType": "BUILD_TOOL_OF",
                                      "relatedSpdxElement": project})
                continue
            for shipped, (relationship, how) in sorted(users[row["name"]].items()):
                relationships.append({"spdxElementId": spdx_id("File", shipped),
                                      "relationshipType": relationship,
                                      "relatedSpdxElement": package["SPDXID"],
                                      "comment": how})

    inputs = hashlib.sha256(json.dumps(packages, sort_keys=True).encode()).hexdigest()
    document = {
        "spdxVersion": "SPDX-2.3",
        "dataLicense": "CC0-1.0",
        "SPDXID": "SPDXRef-DOCUMENT",
        "name": manifest["prefix"],
        "documentNamespace": f"urn:tcpu-sdk:spdx:{manifest['prefix']}:{inputs}",
        "creationInfo": {
            "created": args.date,
            "creators": ["Tool: tcpu-sdk packaging/spdx_sbom.py"],
        },
        "packages": packages,
        "files": files,
        "relationships": relationships,
    }
    if extracted:
        document["hasExtractedLicensingInfos"] = [{
            "licenseId": license_id,
            "name": name,
            "extractedText": f"The license Debian calls '{name}': see the copyright file of "
                             "the packages that declare it.",
        } for license_id, name in sorted(extracted.items())]
    with open(args.output, "w", encoding="utf-8") as out:
        json.dump(document, out, indent=1, sort_keys=True)
        out.write("\n")


if __name__ == "__main__":
    main()
