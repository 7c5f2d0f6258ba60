#include "tools/cli/weights.h"

#include "tcpu/decoder.h"

namespace tcpu::cli {

bool ParseWeights(const std::string& value, int32_t* weights, std::string* error) {
  if (value == "int8") {
    *weights = TCPU_WEIGHTS_INT8;
  } else if (value == "int4") {
    *weights = TCPU_WEIGHTS_INT4;
  } else {
    *error = "--weights: '" + value.substr(0, 32) + "' is not int8 or int4";
    return false;
  }
  return true;
}

}  // namespace tcpu::cli
