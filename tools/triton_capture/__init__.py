"""triton_capture: record Triton kernel launches (TTIR, grid, arguments, buffers before/after)
into the corpus format of FORMAT.md. Entry point: ``python3 -m triton_capture`` (capture.py)."""
