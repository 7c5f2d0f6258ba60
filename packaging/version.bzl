"""The SDK's release: the bundle's name, the pkg-config/CMake versions and the soname."""

SDK_VERSION = "0.1.0"

# libtcpu.so.<SDK_SOVERSION>: raised when the C ABI changes incompatibly.
SDK_SOVERSION = "0"

# The bundle is rebuilt bit for bit, so its dates (tar mtimes, the SBOM's creation time) are
# the release's, never the clock's.
SDK_RELEASE_DATE = "2026-11-23T00:00:00Z"
