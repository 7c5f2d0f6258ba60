// --weights int8|int4: the spelling of the decoder's weight formats (tcpu/decoder.h) on the
// command lines of tcpu-decode and tcpu-quantize.
#ifndef TCPU_TOOLS_CLI_WEIGHTS_H_
#define TCPU_TOOLS_CLI_WEIGHTS_H_

#include <cstdint>
#include <string>

namespace tcpu::cli {

// TCPU_WEIGHTS_INT8 for "int8", TCPU_WEIGHTS_INT4 for "int4"; otherwise false with *error
// naming the flag and the value.
bool ParseWeights(const std::string& value, int32_t* weights, std::string* error);

}  // namespace tcpu::cli

#endif  // TCPU_TOOLS_CLI_WEIGHTS_H_
