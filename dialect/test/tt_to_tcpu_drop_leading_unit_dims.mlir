// tcpu-drop-leading-unit-dims: a vector<1xN> row (Inductor's persistent reductions compute on
// 1 x RBLOCK tiles) and the ops on it become vector<N> ones, which tcpu-slice-rows slices; a
// scalar broadcast to the row is broadcast to the 1-D row, and a value that keeps its type (a
// result) is the row broadcast back. Tiles with no leading unit dimension are left as they are.
// RUN: tcpu-opt %s --tcpu-drop-leading-unit-dims | FileCheck %s

// CHECK-LABEL: func.func @row(
// CHECK-SAME: %[[A:[a-z0-9]+]]: vector<1x256xf32>, %[[B:[a-z0-9]+]]: vector<1x256xf32>, %[[M:[a-z0-9]+]]: f32)
// CHECK: %[[A_ROW:.*]] = vector.extract %[[A]][0] : vector<256xf32> from vector<1x256xf32>
// CHECK: %[[M_ROW:.*]] = vector.broadcast %[[M]] : f32 to vector<256xf32>
// CHECK: %[[X:.*]] = arith.subf %[[A_ROW]], %[[M_ROW]] : vector<256xf32>
// CHECK: %[[E:.*]] = math.exp %[[X]] : vector<256xf32>
// CHECK: %[[B_ROW:.*]] = vector.extract %[[B]][0] : vector<256xf32> from vector<1x256xf32>
// CHECK: %[[S:.*]] = arith.addf %[[E]], %[[B_ROW]] : vector<256xf32>
// CHECK: %[[BACK:.*]] = vector.broadcast %[[S]] : vector<256xf32> to vector<1x256xf32>
// CHECK: %[[SUM:.*]] = vector.reduction <add>, %[[S]] : vector<256xf32> into f32
// CHECK: return %[[BACK]], %[[SUM]]
// CHECK-LABEL: func.func @tile(
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<2x4xf32>
module {
  func.func @row(%a: vector<1x256xf32>, %b: vector<1x256xf32>, %m: f32) -> (vector<1x256xf32>, f32) {
    %s = vector.broadcast %m : f32 to vector<1x256xf32>
    %0 = arith.subf %a, %s : vector<1x256xf32>
    %1 = math.exp %0 : vector<1x256xf32>
    %2 = arith.addf %1, %b : vector<1x256xf32>
    %3 = vector.extract %2[0] : vector<256xf32> from vector<1x256xf32>
    %4 = vector.reduction <add>, %3 : vector<256xf32> into f32
    return %2, %4 : vector<1x256xf32>, f32
  }
  func.func @tile(%a: vector<2x4xf32>) -> vector<2x4xf32> {
    %0 = arith.addf %a, %a : vector<2x4xf32>
    return %0 : vector<2x4xf32>
  }
}
