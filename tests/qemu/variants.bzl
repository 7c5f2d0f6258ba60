"""The QEMU matrix: each variant is a qemu-aarch64 -cpu string and what it promises.

Verified with a HWCAP/prctl probe under the pinned qemu-user 7.2 (tests/toolchain).
"""

_ARMV9 = ["sve", "sve2", "i8mm", "bf16", "dotprod", "fp16", "fp16fml"]

def _variant(cpu, sve_vl_bits, features, tags):
    return struct(cpu = cpu, sve_vl_bits = sve_vl_bits, features = features, tags = tags)

# Name (the test-target suffix) -> variant. SVE vector lengths are in bits.
QEMU_VARIANTS = {
    "vl128": _variant("max,sve-default-vector-length=16", 128, _ARMV9, ["cpu_max"]),
    "vl256": _variant("max,sve-default-vector-length=32", 256, _ARMV9, ["cpu_max"]),
    "vl512": _variant("max,sve-default-vector-length=64", 512, _ARMV9, ["cpu_max"]),
    "vl1024": _variant("max,sve-default-vector-length=128", 1024, _ARMV9, ["cpu_max"]),
    "vl2048": _variant("max,sve-default-vector-length=256", 2048, _ARMV9, ["cpu_max"]),
    "nosve": _variant("max,sve=off", 0, ["i8mm", "bf16", "dotprod", "fp16", "fp16fml"], ["cpu_max"]),
    "a64fx": _variant("a64fx", 512, ["sve", "fp16"], ["cpu_a64fx"]),
    "n1": _variant("neoverse-n1", 0, ["dotprod", "fp16"], ["cpu_n1"]),
    "a53": _variant("cortex-a53", 0, [], ["cpu_a53"]),
}

ALL_VARIANTS = QEMU_VARIANTS.keys()
