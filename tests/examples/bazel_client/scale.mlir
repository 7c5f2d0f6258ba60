// out[i] = a * x[i] for any n, 8 lanes per step with a masked tail: the client's own kernel,
// compiled ahead of time by the SDK's tcpu-compile (tcpu_kernel_library).
module {
  func.func @client_scale_f32(%a: f32, %x: memref<?xf32>, %out: memref<?xf32>) {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant dense<0.0> : vector<8xf32>
    %scale = vector.broadcast %a : f32 to vector<8xf32>
    %n = memref.dim %out, %c0 : memref<?xf32>
    scf.for %i = %c0 to %n step %c8 {
      %left = arith.subi %n, %i : index
      %mask = vector.create_mask %left : vector<8xi1>
      %v = vector.maskedload %x[%i], %mask, %zero
          : memref<?xf32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
      %scaled = arith.mulf %v, %scale : vector<8xf32>
      vector.maskedstore %out[%i], %mask, %scaled : memref<?xf32>, vector<8xi1>, vector<8xf32>
    }
    return
  }
}
