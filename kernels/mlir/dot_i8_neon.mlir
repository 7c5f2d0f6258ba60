// sum_i a[i] * b[i] in int32 (wrapping, like SDOT): 16 int8 lanes per tcpu.sdot on NEON
// (FEAT_DotProd), a scalar loop for the last n % 16 elements.
module attributes {tcpu.target = #tcpu.target<arch = "armv8.2-a", features = ["dotprod"], vector_bits = 0>} {
  func.func @tcpu_mlir_dot_i8_neon(%a: memref<?xi8>, %b: memref<?xi8>) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %zero = arith.constant dense<0> : vector<4xi32>
    %n = memref.dim %a, %c0 : memref<?xi8>
    %tail = arith.remui %n, %c16 : index
    %body = arith.subi %n, %tail : index
    %acc = scf.for %i = %c0 to %body step %c16 iter_args(%acc = %zero) -> vector<4xi32> {
      %va = vector.load %a[%i] : memref<?xi8>, vector<16xi8>
      %vb = vector.load %b[%i] : memref<?xi8>, vector<16xi8>
      %next = tcpu.sdot %acc, %va, %vb : vector<16xi8> into vector<4xi32>
      scf.yield %next : vector<4xi32>
    }
    %sum = vector.reduction <add>, %acc : vector<4xi32> into i32
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
