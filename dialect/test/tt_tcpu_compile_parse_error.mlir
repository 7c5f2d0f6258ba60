// tcpu-compile hoists Triton's trailing #loc aliases before parsing, keeping every line where
// it was: a parse error in such a dump still names its own line and column.
// RUN: not tcpu-compile %s -o %t.o 2>&1 | FileCheck %s

#loc = loc("/tmp/bad.py":3:0)
module {
  tt.func public @bad(%x: tensor<8xf32> loc("/tmp/bad.py":3:0)) attributes {noinline = false} {
    %m = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32 loc(callsite(#loc2 at #loc1)), %b: f32 loc(callsite(#loc2 at #loc1))):
      %s = arith.addf %a, %b : f32 loc(#loc1)
      tt.reduce.return %s : f32 loc(#loc1)
    }) : (tensor<8xf32>) -> f32 loc(#loc1)
    // CHECK: tt_tcpu_compile_parse_error.mlir:[[@LINE+1]]:10: error: custom op 'tt.no_such_op' is unknown
    %y = tt.no_such_op %m : f32 loc(#loc1)
    tt.return loc(#loc1)
  } loc(#loc)
} loc(#loc)
#loc1 = loc("/tmp/bad.py":5:8)
#loc2 = loc(unknown)
