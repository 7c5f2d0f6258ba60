#!/usr/bin/env bash
# Runs one unittest file of tools/deploy/tests with the pinned CPython, isolated.
set -euo pipefail
exec ../python3/bin/python3 -B -I -S "$1"
