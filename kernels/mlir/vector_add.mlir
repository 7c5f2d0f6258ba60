// out[i] = x[i] + y[i] for any n: the triton-cpu tutorial's vector add, 16 lanes per step with
// a masked tail (no scalar epilogue). Its target comes from the BUILD file (Armv8-A baseline,
// so it runs on every CPU).
module {
  func.func @tcpu_mlir_vector_add_f32(%x: memref<?xf32>, %y: memref<?xf32>, %out: memref<?xf32>) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %zero = arith.constant dense<0.0> : vector<16xf32>
    %n = memref.dim %out, %c0 : memref<?xf32>
    scf.for %i = %c0 to %n step %c16 {
      %left = arith.subi %n, %i : index
      %mask = vector.create_mask %left : vector<16xi1>
      %a = vector.maskedload %x[%i], %mask, %zero
          : memref<?xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
      %b = vector.maskedload %y[%i], %mask, %zero
          : memref<?xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
      %sum = arith.addf %a, %b : vector<16xf32>
      vector.maskedstore %out[%i], %mask, %sum : memref<?xf32>, vector<16xi1>, vector<16xf32>
    }
    return
  }
}
