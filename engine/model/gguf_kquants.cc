#include "engine/model/gguf_kquants.h"

#include <cmath>
#include <cstring>

#include "engine/model/safetensors.h"
#include "tcpu/bf16.h"

namespace tcpu::model {
namespace {

using gguf::TensorType;

float Half(const uint8_t* p) {
  uint16_t h;
  std::memcpy(&h, p, 2);
  return HalfToFloat(h);
}

// The 6-bit scale and min of sub-block j (0..7) from Q4_K/Q5_K's 12 packed bytes: bytes 0..3
// hold scales 0..3 in their low 6 bits, bytes 4..7 mins 0..3; sub-blocks 4..7 keep their low 4
// bits in bytes 8..11 (scale low nibble, min high nibble) and their top 2 bits in the top bits
// of bytes 0..3 (scales) and 4..7 (mins).
void ScaleAndMin(const uint8_t* packed, int j, int* scale, int* min) {
  if (j < 4) {
    *scale = packed[j] & 63;
    *min = packed[j + 4] & 63;
  } else {
    *scale = (packed[j + 4] & 0x0f) | ((packed[j - 4] >> 6) << 4);
    *min = (packed[j + 4] >> 4) | ((packed[j] >> 6) << 4);
  }
}

// Q4_K and Q5_K (qh == nullptr for Q4_K): value = d * sc * q - dmin * m.
bool DequantizeScaleMinBlock(const uint8_t* block, const uint8_t* qh, const uint8_t* qs,
                             float* out) {
  const float d = Half(block), dmin = Half(block + 2);
  if (!std::isfinite(d) || !std::isfinite(dmin)) return false;
  for (int sub = 0; sub < 8; ++sub, out += 32) {
    int scale, min;
    ScaleAndMin(block + 4, sub, &scale, &min);
    const float step = d * static_cast<float>(scale), offset = dmin * static_cast<float>(min);
    // Sub-blocks 2c and 2c + 1 share the 32 bytes qs[32c..]: low nibbles, then high ones.
    const uint8_t* nibbles = qs + 32 * (sub / 2);
    const int shift = 4 * (sub % 2);
    if (qh == nullptr) {
      for (int l = 0; l < 32; ++l) {
        out[l] = step * static_cast<float>((nibbles[l] >> shift) & 0x0f) - offset;
      }
    } else {
      for (int l = 0; l < 32; ++l) {
        const int q = ((nibbles[l] >> shift) & 0x0f) | (((qh[l] >> sub) & 1) << 4);
        out[l] = step * static_cast<float>(q) - offset;
      }
    }
  }
  return true;
}

// Q6_K: value v of the super-block is d * scales[v / 16] * (q - 32). Each half of 128 values
// takes 64 bytes of ql and 32 of qh: its value 32k + l (k 0..3, l 0..31) has its low 4 bits
// in ql[l + 32 (k % 2)] (the low nibble for k < 2, the high one for k >= 2) and its top 2 bits
// at bit 2k of qh[l].
bool DequantizeQ6_KBlock(const uint8_t* block, float* out) {
  const uint8_t* ql = block;
  const uint8_t* qh = block + 128;
  const auto* scales = reinterpret_cast<const int8_t*>(block + 192);
  const float d = Half(block + 208);
  if (!std::isfinite(d)) return false;
  for (int half = 0; half < 2; ++half, ql += 64, qh += 32) {
    for (int k = 0; k < 4; ++k) {
      const uint8_t* low = ql + 32 * (k % 2);
      const int low_shift = 4 * (k / 2), high_shift = 2 * k;
      for (int sub = 0; sub < 2; ++sub, out += 16) {
        const float step = d * static_cast<float>(*scales++);
        for (int l = 16 * sub; l < 16 * sub + 16; ++l) {
          const int q = ((low[l] >> low_shift) & 0x0f) | (((qh[l] >> high_shift) & 3) << 4);
          out[l - 16 * sub] = step * static_cast<float>(q - 32);
        }
      }
    }
  }
  return true;
}

bool DequantizeBlock(TensorType type, const uint8_t* block, float* out) {
  switch (type) {
    case TensorType::kQ4_K:
      return DequantizeScaleMinBlock(block, nullptr, block + 16, out);
    case TensorType::kQ5_K:
      return DequantizeScaleMinBlock(block, block + 16, block + 48, out);
    case TensorType::kQ6_K:
      return DequantizeQ6_KBlock(block, out);
    default:  // not a k-quant (IsLoadedKQuant)
      return false;
  }
}

}  // namespace

bool IsLoadedKQuant(TensorType type) {
  return type == TensorType::kQ4_K || type == TensorType::kQ5_K || type == TensorType::kQ6_K;
}

int64_t DequantizeKQuant(TensorType type, const uint8_t* data, int64_t blocks, float* out) {
  const int64_t block_bytes = gguf::FindTensorType(static_cast<uint32_t>(type))->block_bytes;
  for (int64_t b = 0; b < blocks; ++b, data += block_bytes, out += kKQuantBlock) {
    if (!DequantizeBlock(type, data, out)) return b;
  }
  return -1;
}

int64_t DequantizeKQuantToBf16(TensorType type, const uint8_t* data, int64_t blocks,
                               uint16_t* out) {
  const int64_t block_bytes = gguf::FindTensorType(static_cast<uint32_t>(type))->block_bytes;
  float values[kKQuantBlock];
  for (int64_t b = 0; b < blocks; ++b, data += block_bytes, out += kKQuantBlock) {
    if (!DequantizeBlock(type, data, values)) return b;
    for (int64_t i = 0; i < kKQuantBlock; ++i) out[i] = tcpu_f32_to_bf16(values[i]);
  }
  return -1;
}

}  // namespace tcpu::model
