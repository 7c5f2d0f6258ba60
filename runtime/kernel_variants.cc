// ComposedVariant (kernel_variants.h): the fused kernels' variant names.
#include "runtime/kernel_variants.h"

#include <cstring>

std::string tcpu::ComposedVariant(const char* op, const char* base_variant) {
  const char* colon = std::strchr(base_variant, ':');
  return std::string(op) + ":" + (colon != nullptr ? colon + 1 : base_variant);
}
