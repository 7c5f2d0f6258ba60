// sum_i a[i] * b[i] in int32 (wrapping, like SDOT): vector-length agnostic SVE, 16 * vscale
// int8 lanes per tcpu.sdot, a scalar loop for the rest. Needs SVE (not SVE2: runs on A64FX).
module attributes {tcpu.target = #tcpu.target<arch = "armv8.2-a", features = ["sve"], vector_bits = 0>} {
  func.func @tcpu_mlir_dot_i8_sve(%a: memref<?xi8>, %b: memref<?xi8>) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %zero = arith.constant dense<0> : vector<[4]xi32>
    %n = memref.dim %a, %c0 : memref<?xi8>
    %vscale = vector.vscale
    %step = arith.muli %vscale, %c16 : index
    %tail = arith.remui %n, %step : index
    %body = arith.subi %n, %tail : index
    %acc = scf.for %i = %c0 to %body step %step iter_args(%acc = %zero) -> vector<[4]xi32> {
      %va = vector.load %a[%i] : memref<?xi8>, vector<[16]xi8>
      %vb = vector.load %b[%i] : memref<?xi8>, vector<[16]xi8>
      %next = tcpu.sdot %acc, %va, %vb : vector<[16]xi8> into vector<[4]xi32>
      scf.yield %next : vector<[4]xi32>
    }
    %sum = vector.reduction <add>, %acc : vector<[4]xi32> into i32
    %total = scf.for %i = %body to %n step %c1 iter_args(%s = %sum) -> i32 {
      %x = memref.load %a[%i] : memref<?xi8>
      %y = memref.load %b[%i] : memref<?xi8>
      %x32 = arith.extsi %x : i8 to i32
      %y32 = arith.extsi %y : i8 to i32
      %p = arith.muli %x32, %y32 : i32
      %s2 = arith.addi %s, %p : i32
      scf.yield %s2 : i32
    }
    return %total : i32
  }
}
