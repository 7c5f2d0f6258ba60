#!/bin/sh
# Offline shim: Bazel's test rules reference the coverage tools, which Debian does not package.
echo "coverage tools are not available in this offline SDK (remote_coverage_tools shim)" >&2
exit 1
