#include "engine/model/tests/kquant_encoder.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "engine/model/safetensors.h"

namespace tcpu::testing {
namespace {

using gguf::TensorType;

// The smallest fp16 at or above v >= 0 (round to nearest, then one up if that fell below), so
// that a factor derived from a maximum never pushes an integer scale past its range.
uint16_t HalfAtLeast(float v) {
  const _Float16 h = static_cast<_Float16>(v);
  uint16_t bits;
  std::memcpy(&bits, &h, 2);
  if (model::HalfToFloat(bits) < v) ++bits;
  return bits;
}

void PutHalf(uint8_t* p, uint16_t bits) { std::memcpy(p, &bits, 2); }

// The least integer k in 0..limit with k * unit >= need (0 when unit is 0).
int CeilRatio(double need, double unit, int limit) {
  if (unit == 0) return 0;
  return std::clamp(static_cast<int>(std::ceil(need / unit)), 0, limit);
}

// Q4_K (levels 15) and Q5_K (levels 31): eight sub-blocks of 32, value = d*sc*q - dmin*m.
void EncodeScaleMin(int levels, const float* x, uint8_t* block, uint8_t* qh, uint8_t* qs,
                    float* values) {
  double lowest[8], highest[8];
  double max_negative = 0;
  for (int s = 0; s < 8; ++s) {
    lowest[s] = 0;
    highest[s] = x[32 * s];
    for (int l = 0; l < 32; ++l) {
      lowest[s] = std::min<double>(lowest[s], x[32 * s + l]);
      highest[s] = std::max<double>(highest[s], x[32 * s + l]);
    }
    max_negative = std::max(max_negative, -lowest[s]);
  }
  // The mins first (each offset covers its sub-block's most negative value), then the scales
  // over what the offsets leave.
  const uint16_t dmin_bits = HalfAtLeast(static_cast<float>(max_negative / 63));
  const double dmin = model::HalfToFloat(dmin_bits);
  int mins[8], scales[8];
  double offset[8], need[8], max_need = 0;
  for (int s = 0; s < 8; ++s) {
    mins[s] = CeilRatio(-lowest[s], dmin, 63);
    offset[s] = dmin * mins[s];
    need[s] = std::max(0.0, highest[s] + offset[s]) / levels;
    max_need = std::max(max_need, need[s]);
  }
  const uint16_t d_bits = HalfAtLeast(static_cast<float>(max_need / 63));
  const double d = model::HalfToFloat(d_bits);
  for (int s = 0; s < 8; ++s) scales[s] = CeilRatio(need[s], d, 63);

  PutHalf(block, d_bits);
  PutHalf(block + 2, dmin_bits);
  uint8_t* packed = block + 4;  // 12 bytes, as ScaleAndMin in gguf_kquants.cc reads them
  for (int j = 0; j < 4; ++j) {
    packed[j] = static_cast<uint8_t>(scales[j] | ((scales[j + 4] >> 4) << 6));
    packed[j + 4] = static_cast<uint8_t>(mins[j] | ((mins[j + 4] >> 4) << 6));
    packed[j + 8] = static_cast<uint8_t>((scales[j + 4] & 0x0f) | ((mins[j + 4] & 0x0f) << 4));
  }
  std::memset(qs, 0, 128);
  if (qh != nullptr) std::memset(qh, 0, 32);
  for (int s = 0; s < 8; ++s) {
    const double step = d * scales[s];
    for (int l = 0; l < 32; ++l) {
      const double scaled = step == 0 ? 0 : std::round((x[32 * s + l] + offset[s]) / step);
      const int q = static_cast<int>(std::clamp(scaled, 0.0, static_cast<double>(levels)));
      qs[32 * (s / 2) + l] |= static_cast<uint8_t>((q & 0x0f) << (4 * (s % 2)));
      if (qh != nullptr) qh[l] |= static_cast<uint8_t>((q >> 4) << s);
      values[32 * s + l] = static_cast<float>(step * q - offset[s]);
    }
  }
}

// Q6_K: sixteen sub-blocks of 16, value = d * sc * (q - 32) with sc a signed byte.
void EncodeQ6_K(const float* x, uint8_t* block, float* values) {
  double need[16], max_need = 0;
  for (int s = 0; s < 16; ++s) {
    double amax = 0;
    for (int l = 0; l < 16; ++l) amax = std::max<double>(amax, std::fabs(x[16 * s + l]));
    need[s] = amax / 31;  // q - 32 kept in -31..31, symmetric
    max_need = std::max(max_need, need[s]);
  }
  const uint16_t d_bits = HalfAtLeast(static_cast<float>(max_need / 127));
  const float d = model::HalfToFloat(d_bits);
  uint8_t* ql = block;
  uint8_t* qh = block + 128;
  auto* scales = reinterpret_cast<int8_t*>(block + 192);
  std::memset(block, 0, 208);
  PutHalf(block + 208, d_bits);
  for (int s = 0; s < 16; ++s) scales[s] = static_cast<int8_t>(CeilRatio(need[s], d, 127));
  for (int v = 0; v < 256; ++v) {
    const float step = d * scales[v / 16];
    const double scaled = step == 0 ? 0 : std::round(x[v] / static_cast<double>(step));
    const int q = static_cast<int>(std::clamp(scaled, -32.0, 31.0)) + 32;
    const int half = v / 128, k = (v % 128) / 32, l = v % 32;
    ql[64 * half + l + 32 * (k % 2)] |= static_cast<uint8_t>((q & 0x0f) << (4 * (k / 2)));
    qh[32 * half + l] |= static_cast<uint8_t>((q >> 4) << (2 * k));
    values[v] = step * static_cast<float>(q - 32);
  }
}

}  // namespace

void EncodeKQuantBlock(TensorType type, const float* x, std::vector<uint8_t>* out, float* values) {
  const size_t at = out->size();
  switch (type) {
    case TensorType::kQ4_K:
      out->resize(at + 144);
      EncodeScaleMin(15, x, out->data() + at, nullptr, out->data() + at + 16, values);
      break;
    case TensorType::kQ5_K:
      out->resize(at + 176);
      EncodeScaleMin(31, x, out->data() + at, out->data() + at + 16, out->data() + at + 48, values);
      break;
    case TensorType::kQ6_K:
      out->resize(at + 210);
      EncodeQ6_K(x, out->data() + at, values);
      break;
    default:
      break;
  }
}

}  // namespace tcpu::testing
