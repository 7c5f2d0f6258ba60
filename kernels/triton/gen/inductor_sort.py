#!/usr/bin/env python3
"""Writes the TTIR of an Inductor persistent reduction that sorts each row with its indices
and takes its argmax, as Triton 3.6 prints it once Inductor's `triton_helpers.sort_with_index`
(a bitonic sort over reshapes to [n_outer * 2^i, 2, 2^(n-i-1)], sums along the middle axis and
broadcasts back) and `max_with_index` are inlined: the kernel `torch.compile` makes of

    values, indices = torch.sort(x, dim=-1, stable=True); arg = torch.argmax(x, dim=-1)

for an x of [xnumel, r0_numel] float32 rows, r0_numel <= R0_BLOCK. Outputs: the sorted rows
(f32), their indices (i64), the argmax of each row (i64; NaN counts as the largest, the first
index wins ties). Padding lanes (r >= r0_numel) sort last.

    python3 kernels/triton/gen/inductor_sort.py XBLOCKxR0_BLOCK... > kernels/triton/inductor_sort.ttir

writes one module with a kernel per configuration (triton_per_fused_argmax_sort_x{XBLOCK}_r{R0_BLOCK}).
"""
import sys


class Emitter:
    def __init__(self):
        self.lines = []
        self.count = 0

    def op(self, text, results=1):
        name = f"%{self.count}"
        self.count += 1
        self.lines.append(f"    {name}{':' + str(results) if results > 1 else ''} = {text}")
        return name

    def raw(self, text):
        self.lines.append(f"    {text}")


def tensor(shape, element):
    return "tensor<" + "x".join(str(d) for d in shape) + f"x{element}>"


def kernel(xb, rb):
    n_dims = rb.bit_length() - 1
    if rb != 1 << n_dims or xb < 1 or xb & (xb - 1):
        sys.exit("XBLOCK and R0_BLOCK must be powers of two")
    name = f"triton_per_fused_argmax_sort_x{xb}_r{rb}"
    e = Emitter()
    block = [xb, rb]
    f32, i32, i16, i64, i1 = "f32", "i32", "i16", "i64", "i1"

    def const(shape, element, value):
        return e.op(f"arith.constant dense<{value}> : {tensor(shape, element)}")

    e.raw("%c" + f"{xb}_i32 = arith.constant {xb} : i32")
    pid = e.op("tt.get_program_id x : i32")
    xoffset = e.op(f"arith.muli %{pid[1:]}, %c{xb}_i32 : i32")
    xr = e.op(f"tt.make_range {{end = {xb} : i32, start = 0 : i32}} : {tensor([xb], i32)}")
    xr2 = e.op(f"tt.expand_dims {xr} {{axis = 1 : i32}} : {tensor([xb], i32)} -> {tensor([xb, 1], i32)}")
    xoff_s = e.op(f"tt.splat {xoffset} : i32 -> {tensor([xb, 1], i32)}")
    xindex = e.op(f"arith.addi {xoff_s}, {xr2} : {tensor([xb, 1], i32)}")
    xnumel_s = e.op(f"tt.splat %xnumel : i32 -> {tensor([xb, 1], i32)}")
    xmask = e.op(f"arith.cmpi slt, {xindex}, {xnumel_s} : {tensor([xb, 1], i32)}")
    rr = e.op(f"tt.make_range {{end = {rb} : i32, start = 0 : i32}} : {tensor([rb], i32)}")
    rindex = e.op(f"tt.expand_dims {rr} {{axis = 0 : i32}} : {tensor([rb], i32)} -> {tensor([1, rb], i32)}")
    rnumel_s = e.op(f"tt.splat %r0_numel : i32 -> {tensor([1, rb], i32)}")
    rmask = e.op(f"arith.cmpi slt, {rindex}, {rnumel_s} : {tensor([1, rb], i32)}")
    # offsets r1 + r0_numel * x0
    rn_x = e.op(f"tt.splat %r0_numel : i32 -> {tensor([xb, 1], i32)}")
    rowoff = e.op(f"arith.muli {rn_x}, {xindex} : {tensor([xb, 1], i32)}")
    rb_b = e.op(f"tt.broadcast {rindex} : {tensor([1, rb], i32)} -> {tensor(block, i32)}")
    row_b = e.op(f"tt.broadcast {rowoff} : {tensor([xb, 1], i32)} -> {tensor(block, i32)}")
    offs = e.op(f"arith.addi {rb_b}, {row_b} : {tensor(block, i32)}")
    mask_r = e.op(f"tt.broadcast {rmask} : {tensor([1, rb], i1)} -> {tensor(block, i1)}")
    mask_x = e.op(f"tt.broadcast {xmask} : {tensor([xb, 1], i1)} -> {tensor(block, i1)}")
    mask = e.op(f"arith.andi {mask_r}, {mask_x} : {tensor(block, i1)}")

    def ptrs(arg, element):
        s = e.op(f"tt.splat {arg} : !tt.ptr<{element}> -> {tensor(block, '!tt.ptr<' + element + '>')}")
        return e.op(f"tt.addptr {s}, {offs} : {tensor(block, '!tt.ptr<' + element + '>')}, {tensor(block, i32)}")

    zero = const(block, f32, "0.000000e+00")
    in_ptrs = ptrs("%in_ptr0", f32)
    x = e.op(f"tt.load {in_ptrs}, {mask}, {zero} : {tensor(block, '!tt.ptr<f32>')}")
    idx = e.op(f"arith.trunci {rb_b} : {tensor(block, i32)} to {tensor(block, i16)}")
    rn_b = e.op(f"tt.splat %r0_numel : i32 -> {tensor(block, i32)}")

    def compare_and_swap(x, idxs, flip, i):
        n_outer = (xb * rb) >> n_dims
        shape = [n_outer * 2**i, 2, 2 ** (n_dims - i - 1)]
        half = [shape[0], shape[2]]
        y = e.op(f"tt.reshape {x} : {tensor(block, f32)} -> {tensor(shape, f32)}")
        iy = e.op(f"tt.bitcast {y} : {tensor(shape, f32)} -> {tensor(shape, i32)}")
        ar = e.op(f"tt.make_range {{end = 2 : i32, start = 0 : i32}} : {tensor([2], i32)}")
        ar1 = e.op(f"tt.expand_dims {ar} {{axis = 0 : i32}} : {tensor([2], i32)} -> {tensor([1, 2], i32)}")
        right_mask = e.op(f"tt.expand_dims {ar1} {{axis = 2 : i32}} : {tensor([1, 2], i32)} -> {tensor([1, 2, 1], i32)}")
        one = const([1, 2, 1], i32, "1")
        left_mask = e.op(f"arith.subi {one}, {right_mask} : {tensor([1, 2, 1], i32)}")

        def side(values, element, sel, cast_mask):
            m = sel
            if cast_mask:
                m = e.op(f"arith.trunci {sel} : {tensor([1, 2, 1], i32)} to {tensor([1, 2, 1], element)}")
            mb = e.op(f"tt.broadcast {m} : {tensor([1, 2, 1], element)} -> {tensor(shape, element)}")
            prod = e.op(f"arith.muli {values}, {mb} : {tensor(shape, element)}")
            s = e.op(f'"tt.reduce"({prod}) <{{axis = 1 : i32}}> ({{\n'
                     f"    ^bb0(%a: {element}, %b: {element}):\n"
                     f"      %sum = arith.addi %a, %b : {element}\n"
                     f"      tt.reduce.return %sum : {element}\n"
                     f"    }}) : ({tensor(shape, element)}) -> {tensor(half, element)}")
            ex = e.op(f"tt.expand_dims {s} {{axis = 1 : i32}} : {tensor(half, element)} -> {tensor([shape[0], 1, shape[2]], element)}")
            b = e.op(f"tt.broadcast {ex} : {tensor([shape[0], 1, shape[2]], element)} -> {tensor(shape, element)}")
            return e.op(f"tt.reshape {b} : {tensor(shape, element)} -> {tensor(block, element)}")

        ileft = side(iy, i32, left_mask, False)
        iright = side(iy, i32, right_mask, False)
        left = e.op(f"tt.bitcast {ileft} : {tensor(block, i32)} -> {tensor(block, f32)}")
        right = e.op(f"tt.bitcast {iright} : {tensor(block, i32)} -> {tensor(block, f32)}")
        y_idx = e.op(f"tt.reshape {idxs} : {tensor(block, i16)} -> {tensor(shape, i16)}")
        left_idx = side(y_idx, i16, left_mask, True)
        right_idx = side(y_idx, i16, right_mask, True)
        lx = e.op(f"arith.extsi {left_idx} : {tensor(block, i16)} to {tensor(block, i32)}")
        left_valid = e.op(f"arith.cmpi slt, {lx}, {rn_b} : {tensor(block, i32)}")
        rx = e.op(f"arith.extsi {right_idx} : {tensor(block, i16)} to {tensor(block, i32)}")
        right_valid = e.op(f"arith.cmpi slt, {rx}, {rn_b} : {tensor(block, i32)}")
        ix = e.op(f"tt.bitcast {x} : {tensor(block, f32)} -> {tensor(block, i32)}")
        cond = e.op(f"arith.cmpf ogt, {left}, {right} : {tensor(block, f32)}")
        eq = e.op(f"arith.cmpf oeq, {left}, {right} : {tensor(block, f32)}")
        later = e.op(f"arith.cmpi sgt, {left_idx}, {right_idx} : {tensor(block, i16)}")
        tie = e.op(f"arith.andi {eq}, {later} : {tensor(block, i1)}")
        cond = e.op(f"arith.ori {cond}, {tie} : {tensor(block, i1)}")
        gt = e.op(f"arith.cmpi ugt, {right_valid}, {left_valid} : {tensor(block, i1)}")
        same = e.op(f"arith.cmpi eq, {right_valid}, {left_valid} : {tensor(block, i1)}")
        both = e.op(f"arith.andi {same}, {cond} : {tensor(block, i1)}")
        cond = e.op(f"arith.ori {gt}, {both} : {tensor(block, i1)}")
        if flip is not None:
            c32 = e.op(f"arith.extui {cond} : {tensor(block, i1)} to {tensor(block, i32)}")
            fx = e.op(f"arith.xori {c32}, {flip} : {tensor(block, i32)}")
            z = const(block, i32, "0")
            cond = e.op(f"arith.cmpi ne, {fx}, {z} : {tensor(block, i32)}")
        lr = e.op(f"arith.xori {ileft}, {iright} : {tensor(block, i32)}")
        z32 = const(block, i32, "0")
        sel = e.op(f"arith.select {cond}, {lr}, {z32} : {tensor(block, i1)}, {tensor(block, i32)}")
        ret = e.op(f"arith.xori {ix}, {sel} : {tensor(block, i32)}")
        lri = e.op(f"arith.xori {left_idx}, {right_idx} : {tensor(block, i16)}")
        z16 = const(block, i16, "0")
        seli = e.op(f"arith.select {cond}, {lri}, {z16} : {tensor(block, i1)}, {tensor(block, i16)}")
        new_idx = e.op(f"arith.xori {idxs}, {seli} : {tensor(block, i16)}")
        new_x = e.op(f"tt.bitcast {ret} : {tensor(block, i32)} -> {tensor(block, f32)}")
        return new_x, new_idx

    values, idxs = x, idx
    for stage in range(1, n_dims + 1):
        flip = None
        if stage < n_dims:
            n_outer = (xb * rb) >> n_dims
            shape = [n_outer * 2 ** (n_dims - 1 - stage), 2, 2**stage]
            ar = e.op(f"tt.make_range {{end = 2 : i32, start = 0 : i32}} : {tensor([2], i32)}")
            ar1 = e.op(f"tt.expand_dims {ar} {{axis = 0 : i32}} : {tensor([2], i32)} -> {tensor([1, 2], i32)}")
            ar2 = e.op(f"tt.expand_dims {ar1} {{axis = 2 : i32}} : {tensor([1, 2], i32)} -> {tensor([1, 2, 1], i32)}")
            fb = e.op(f"tt.broadcast {ar2} : {tensor([1, 2, 1], i32)} -> {tensor(shape, i32)}")
            flip = e.op(f"tt.reshape {fb} : {tensor(shape, i32)} -> {tensor(block, i32)}")
        for i in range(stage):
            values, idxs = compare_and_swap(values, idxs, flip, i + (n_dims - stage))

    # argmax: triton_helpers.max_with_index (NaN is the largest, the first index wins ties)
    am = e.op(f'"tt.reduce"({x}, {rb_b}) <{{axis = 1 : i32}}> ({{\n'
              f"    ^bb0(%av: f32, %ai: i32, %bv: f32, %bi: i32):\n"
              f"      %gt = arith.cmpf ogt, %av, %bv : f32\n"
              f"      %eq = arith.cmpf oeq, %av, %bv : f32\n"
              f"      %an = arith.cmpf une, %av, %av : f32\n"
              f"      %bn = arith.cmpf une, %bv, %bv : f32\n"
              f"      %true = arith.constant true\n"
              f"      %nbn = arith.xori %bn, %true : i1\n"
              f"      %anb = arith.andi %an, %nbn : i1\n"
              f"      %m0 = arith.ori %gt, %anb : i1\n"
              f"      %bothn = arith.andi %an, %bn : i1\n"
              f"      %eq1 = arith.ori %eq, %bothn : i1\n"
              f"      %lt = arith.cmpi slt, %ai, %bi : i32\n"
              f"      %tie = arith.andi %eq1, %lt : i1\n"
              f"      %m = arith.ori %m0, %tie : i1\n"
              f"      %v = arith.select %m, %av, %bv : f32\n"
              f"      %i = arith.select %m, %ai, %bi : i32\n"
              f"      tt.reduce.return %v, %i : f32, i32\n"
              f"    }}) : ({tensor(block, f32)}, {tensor(block, i32)}) -> ({tensor([xb], f32)}, {tensor([xb], i32)})", results=2)
    out_ptrs0 = ptrs("%out_ptr0", f32)
    e.raw(f"tt.store {out_ptrs0}, {values}, {mask} : {tensor(block, '!tt.ptr<f32>')}")
    idx64 = e.op(f"arith.extsi {idxs} : {tensor(block, i16)} to {tensor(block, i64)}")
    out_ptrs1 = ptrs("%out_ptr1", i64)
    e.raw(f"tt.store {out_ptrs1}, {idx64}, {mask} : {tensor(block, '!tt.ptr<i64>')}")
    arg = e.op(f"tt.expand_dims {am}#1 {{axis = 1 : i32}} : {tensor([xb], i32)} -> {tensor([xb, 1], i32)}")
    arg64 = e.op(f"arith.extsi {arg} : {tensor([xb, 1], i32)} to {tensor([xb, 1], i64)}")
    p2 = e.op(f"tt.splat %out_ptr2 : !tt.ptr<i64> -> {tensor([xb, 1], '!tt.ptr<i64>')}")
    p2b = e.op(f"tt.addptr {p2}, {xindex} : {tensor([xb, 1], '!tt.ptr<i64>')}, {tensor([xb, 1], i32)}")
    e.raw(f"tt.store {p2b}, {arg64}, {xmask} : {tensor([xb, 1], '!tt.ptr<i64>')}")
    e.raw("tt.return")

    print(f"  tt.func public @{name}(%in_ptr0: !tt.ptr<f32> {{tt.divisibility = 16 : i32}}, "
          f"%out_ptr0: !tt.ptr<f32> {{tt.divisibility = 16 : i32}}, "
          f"%out_ptr1: !tt.ptr<i64> {{tt.divisibility = 16 : i32}}, "
          f"%out_ptr2: !tt.ptr<i64> {{tt.divisibility = 16 : i32}}, "
          f"%xnumel: i32, %r0_numel: i32) attributes {{noinline = false}} {{")
    print("\n".join(e.lines))
    print("  }")


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: inductor_sort.py XBLOCKxR0_BLOCK...")
    print("module {")
    for config in sys.argv[1:]:
        xb, rb = (int(v) for v in config.split("x"))
        kernel(xb, rb)
    print("}")


if __name__ == "__main__":
    main()
