// Contiguity analysis of TTIR integer and pointer tensors (what Triton calls axis info):
// for every dimension, how many consecutive elements form an arithmetic run of step 1
// (contiguity) and how many are equal (constancy). Runs are aligned: contiguity c along a
// dimension means elements [k*c, (k+1)*c) are consecutive for every k. The memory lowering
// asks it whether a tensor of pointers addresses whole rows of consecutive elements.
#ifndef TT_ANALYSIS_CONTIGUITY_H_
#define TT_ANALYSIS_CONTIGUITY_H_

#include <cstdint>

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

namespace mlir::tt {

struct Contiguity {
  llvm::SmallVector<int64_t, 4> contiguity;  // per dimension, >= 1
  llvm::SmallVector<int64_t, 4> constancy;   // per dimension, >= 1

  bool operator==(const Contiguity& other) const {
    return contiguity == other.contiguity && constancy == other.constancy;
  }
};

// A number known to divide the integer scalar `value` (1 when nothing is known; a known zero
// gives 2^30): constants, `tt.divisibility` of the kernel's arguments, and products, sums and
// extensions of those. Its power-of-two part also holds of the wrapped i32 or i64 value.
int64_t scalarDivisibility(Value value);

class ContiguityAnalysis {
 public:
  // Analyses every tensor value under `root` lazily, on the first query.
  explicit ContiguityAnalysis(Operation* root) : root_(root) {}

  // The facts about `value` (a tensor of integers or pointers); scalars have no dimensions.
  const Contiguity& get(Value value);

  // Elements of the last dimension known to be consecutive in each run (1 if unknown).
  int64_t lastDimContiguity(Value value);

 private:
  Contiguity compute(Value value);
  Contiguity computeLoopArgument(Value value);

  Operation* root_;
  llvm::DenseMap<Value, Contiguity> facts_;
};

}  // namespace mlir::tt

#endif  // TT_ANALYSIS_CONTIGUITY_H_
