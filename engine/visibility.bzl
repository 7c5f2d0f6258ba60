"""Who may depend on engine targets: the engine itself and the layers above it.

Kernels and the runtime core sit below the engine and never see it (users outside the
repository depend on //:tcpu, the whole C ABI).
"""

ENGINE_USERS = [
    "//:__pkg__",
    "//engine:__subpackages__",
    "//packaging:__subpackages__",
    "//tests:__subpackages__",
    "//tools:__subpackages__",
]
