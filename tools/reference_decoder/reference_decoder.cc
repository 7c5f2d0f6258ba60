#include "tools/reference_decoder/reference_decoder.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "tcpu/bf16.h"

namespace tcpu::reference {
namespace {

uint16_t Bf16(double value) { return tcpu_f32_to_bf16(static_cast<float>(value)); }
double F(uint16_t bf16) { return tcpu_bf16_to_f32(bf16); }

// W8A8 activation quantization as tcpu/gemv.h defines it (fp32, bit for bit).
struct QuantizedX {
  std::vector<int8_t> q;
  float scale = 0;  // absmax / 127; 0 for an all-zero x
};

QuantizedX QuantizeX(const std::vector<uint16_t>& x) {
  QuantizedX out;
  out.q.assign(x.size(), 0);
  float absmax = 0;
  for (uint16_t v : x) {
    const float a = std::fabs(tcpu_bf16_to_f32(v));
    if (a > absmax) absmax = a;  // NaN compares false: ignored
  }
  if (absmax == 0) return out;
  const float inv = 127.0f / absmax;
  for (size_t j = 0; j < x.size(); ++j) {
    const float v = tcpu_bf16_to_f32(x[j]) * inv;
    const float r = std::isnan(v) ? 0.0f : std::nearbyint(v);
    out.q[j] = static_cast<int8_t>(r > 127.0f ? 127.0f : r < -127.0f ? -127.0f : r);
  }
  out.scale = absmax / 127.0f;
  return out;
}

constexpr int64_t kGroup = 32;  // int4 weights per scale along k

int64_t Dot(const int8_t* w, const int8_t* x, int64_t k) {
  int64_t acc = 0;
  for (int64_t j = 0; j < k; ++j) acc += int64_t{w[j]} * x[j];
  return acc;
}

}  // namespace

bool ReferenceDecoder::LoadBf16(const std::string& name, const std::vector<int64_t>& shape,
                                std::vector<uint16_t>* out, std::string* error) {
  const model::TensorView* t = nullptr;
  if (!checkpoint_.Find(name, shape, &t, error)) return false;
  out->resize(t->elements);
  for (int64_t i = 0; i < t->elements; ++i) {
    (*out)[i] = tcpu_f32_to_bf16(model::ReadElementAsFloat(*t, i));
  }
  return true;
}

bool ReferenceDecoder::LoadLinear(const std::string& name, int64_t n, int64_t k, Linear* out,
                                  std::string* error) {
  const model::TensorView* t = nullptr;
  if (!checkpoint_.Find(name, {n, k}, &t, error)) return false;
  if (!int4_ && t->dtype == model::DType::kQ8_0) {
    // GGUF Q8_0 with int8 weights: the file's q and d as they are, in groups of 32 along k
    // (tcpu/gemv_q8.h), summed as int4's groups are.
    out->n = n;
    out->k = k;
    out->groups = k / kGroup;
    out->q.resize(n * k);
    out->scales.resize(n * out->groups);
    for (int64_t b = 0; b < n * out->groups; ++b) {
      const uint8_t* block = t->data + b * 34;
      uint16_t d;
      std::memcpy(&d, block, 2);
      out->scales[b] = model::HalfToFloat(d);
      std::memcpy(&out->q[b * kGroup], block + 2, kGroup);
    }
    return true;
  }
  std::vector<uint16_t> w;
  if (!LoadBf16(name, {n, k}, &w, error)) return false;
  out->n = n;
  out->k = k;
  out->q.resize(n * k);
  for (uint16_t v : w) {
    if (!std::isfinite(tcpu_bf16_to_f32(v))) {
      *error = "tensor '" + name + "' holds a NaN or infinite weight";
      return false;
    }
  }
  if (int4_) {
    // Groups of 32 along k: m = the weight of largest magnitude (the first on ties), scale =
    // m / -8 rounded to fp16 (the compiler's _Float16: RNE), q = clamp(rne(w / scale), -8, 7)
    // against that rounded scale (0 when it is 0).
    out->groups = (k + kGroup - 1) / kGroup;
    out->scales.resize(n * out->groups);
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t g = 0; g < out->groups; ++g) {
        const int64_t begin = g * kGroup, end = std::min(k, begin + kGroup);
        float m = 0;
        for (int64_t j = begin; j < end; ++j) {
          const float v = tcpu_bf16_to_f32(w[i * k + j]);
          if (std::fabs(v) > std::fabs(m)) m = v;
        }
        const float scale = static_cast<float>(static_cast<_Float16>(m / -8.0f));
        out->scales[i * out->groups + g] = scale;
        for (int64_t j = begin; j < end; ++j) {
          const float q =
              scale == 0 ? 0.0f : std::nearbyint(tcpu_bf16_to_f32(w[i * k + j]) / scale);
          out->q[i * k + j] = static_cast<int8_t>(q > 7.0f ? 7.0f : q < -8.0f ? -8.0f : q);
        }
      }
    }
    return true;
  }
  out->scales.resize(n);
  for (int64_t i = 0; i < n; ++i) {
    // Per output channel: scale = absmax / 127 (1 for an all-zero row), q = rne(w / scale).
    float absmax = 0;
    for (int64_t j = 0; j < k; ++j) {
      const float a = std::fabs(tcpu_bf16_to_f32(w[i * k + j]));
      if (!std::isfinite(a)) {
        *error = "tensor '" + name + "' holds a NaN or infinite weight";
        return false;
      }
      if (a > absmax) absmax = a;
    }
    const float scale = absmax == 0 ? 1.0f : absmax / 127.0f;
    out->scales[i] = scale;
    for (int64_t j = 0; j < k; ++j) {
      const float q = std::nearbyint(tcpu_bf16_to_f32(w[i * k + j]) / scale);
      out->q[i * k + j] = static_cast<int8_t>(q > 127.0f ? 127.0f : q < -127.0f ? -127.0f : q);
    }
  }
  return true;
}

bool ReferenceDecoder::LoadBias(const std::string& name, Linear* out, std::string* error) {
  const model::TensorView* t = nullptr;
  if (!checkpoint_.Find(name, {out->n}, &t, error)) return false;
  out->bias.resize(out->n);
  for (int64_t i = 0; i < out->n; ++i) out->bias[i] = model::ReadElementAsFloat(*t, i);
  return true;
}

bool ReferenceDecoder::Load(const std::string& dir, int64_t max_tokens, bool int4,
                            std::string* error) {
  int4_ = int4;
  bool io_error = false;
  if (!checkpoint_.Open(dir, error, &io_error)) return false;
  config_ = checkpoint_.config();
  const model::ModelConfig& c = config_;
  const int64_t h = c.hidden_size, d = c.head_dim;
  const int64_t qd = c.num_attention_heads * d, kvd = c.num_key_value_heads * d;
  max_tokens_ = max_tokens;
  if (!LoadBf16("model.embed_tokens.weight", {c.vocab_size, h}, &embed_, error)) return false;
  layers_.resize(c.num_hidden_layers);
  for (int64_t i = 0; i < c.num_hidden_layers; ++i) {
    const std::string p = "model.layers." + std::to_string(i) + ".";
    Layer& l = layers_[i];
    if (!LoadBf16(p + "input_layernorm.weight", {h}, &l.input_norm, error) ||
        !LoadBf16(p + "post_attention_layernorm.weight", {h}, &l.post_norm, error) ||
        !LoadLinear(p + "self_attn.q_proj.weight", qd, h, &l.q, error) ||
        !LoadLinear(p + "self_attn.k_proj.weight", kvd, h, &l.k, error) ||
        !LoadLinear(p + "self_attn.v_proj.weight", kvd, h, &l.v, error) ||
        !LoadLinear(p + "self_attn.o_proj.weight", h, qd, &l.o, error) ||
        !LoadLinear(p + "mlp.gate_proj.weight", c.intermediate_size, h, &l.gate, error) ||
        !LoadLinear(p + "mlp.up_proj.weight", c.intermediate_size, h, &l.up, error) ||
        !LoadLinear(p + "mlp.down_proj.weight", h, c.intermediate_size, &l.down, error)) {
      return false;
    }
    if (c.qkv_bias && (!LoadBias(p + "self_attn.q_proj.bias", &l.q, error) ||
                       !LoadBias(p + "self_attn.k_proj.bias", &l.k, error) ||
                       !LoadBias(p + "self_attn.v_proj.bias", &l.v, error))) {
      return false;
    }
    if (c.o_bias && !LoadBias(p + "self_attn.o_proj.bias", &l.o, error)) return false;
    if (c.qk_norm || checkpoint_.Has(p + "self_attn.q_norm.weight")) {
      if (!LoadBf16(p + "self_attn.q_norm.weight", {d}, &l.q_norm, error) ||
          !LoadBf16(p + "self_attn.k_norm.weight", {d}, &l.k_norm, error)) {
        return false;
      }
    }
    l.k_cache.assign(kvd * max_tokens, 0);
    l.v_cache.assign(kvd * max_tokens, 0);
  }
  if (!LoadBf16("model.norm.weight", {h}, &final_norm_, error)) return false;
  return LoadLinear(c.tie_word_embeddings ? "model.embed_tokens.weight" : "lm_head.weight",
                    c.vocab_size, h, &lm_head_, error);
}

float ReferenceDecoder::Sum(const Linear& w, int64_t i, const std::vector<int8_t>& x,
                            float x_scale) const {
  if (x_scale == 0) return 0.0f;  // an all-zero activation
  if (w.groups == 0) {
    const int64_t acc = Dot(&w.q[i * w.k], x.data(), w.k);
    return static_cast<float>(acc) * x_scale * w.scales[i];
  }
  float f = 0.0f;  // tcpu/gemv_q4.h: exact group sums, fp32 FMA over the groups in order
  for (int64_t g = 0; g < w.groups; ++g) {
    const int64_t begin = g * kGroup, len = std::min(w.k - begin, kGroup);
    const int64_t acc = Dot(&w.q[i * w.k + begin], &x[begin], len);
    f = std::fma(static_cast<float>(acc), w.scales[i * w.groups + g], f);
  }
  return f * x_scale;
}

std::vector<uint16_t> ReferenceDecoder::Gemv(const Linear& w,
                                             const std::vector<uint16_t>& x) const {
  const QuantizedX q = QuantizeX(x);
  std::vector<uint16_t> y(w.n, 0);
  for (int64_t i = 0; i < w.n; ++i) {
    const float sum = Sum(w, i, q.q, q.scale);
    if (w.bias.empty()) {
      y[i] = tcpu_f32_to_bf16(sum);
    } else {
      const float biased = sum + w.bias[i];  // fp32, then the one bf16 rounding
      y[i] = tcpu_f32_to_bf16(biased);
    }
  }
  return y;
}

std::vector<uint16_t> ReferenceDecoder::RmsNorm(const uint16_t* x, const uint16_t* w,
                                                int64_t d) const {
  double sum = 0;
  for (int64_t i = 0; i < d; ++i) sum += F(x[i]) * F(x[i]);
  const double inv = 1.0 / std::sqrt(sum / d + static_cast<float>(config_.rms_norm_eps));
  std::vector<uint16_t> out(d);
  for (int64_t i = 0; i < d; ++i) out[i] = Bf16(F(x[i]) * inv * F(w[i]));
  return out;
}

int32_t ReferenceDecoder::Step(int32_t token, std::vector<double>* logits) {
  const model::ModelConfig& c = config_;
  const int64_t h = c.hidden_size, d = c.head_dim, heads = c.num_attention_heads;
  const int64_t kv_heads = c.num_key_value_heads, group = heads / kv_heads;
  const int64_t pos = position_++;
  std::vector<uint16_t> hs(embed_.begin() + token * h, embed_.begin() + (token + 1) * h);
  const float embedding_scale = static_cast<float>(c.embedding_scale);
  if (embedding_scale != 1.0f) {
    for (uint16_t& v : hs) v = Bf16(F(v) * embedding_scale);  // the product is exact in double
  }
  const float residual_scale = static_cast<float>(c.residual_scale);
  auto add_residual = [&](const std::vector<uint16_t>& branch) {
    for (int64_t i = 0; i < h; ++i) {
      float delta = tcpu_bf16_to_f32(branch[i]);
      if (residual_scale != 1.0f) delta = delta * residual_scale;
      const float sum = tcpu_bf16_to_f32(hs[i]) + delta;
      hs[i] = tcpu_f32_to_bf16(sum);
    }
  };

  // RoPE as tcpu/rope.h defines it (a float64 angle from the config's frequencies, which
  // rope_scaling has already adjusted, fp32 cos/sin times the attention scale).
  std::vector<double> cos_t(d / 2), sin_t(d / 2);
  for (int64_t i = 0; i < d / 2; ++i) {
    const double angle = static_cast<double>(pos) * c.rope_inv_freq[i];
    cos_t[i] = static_cast<float>(std::cos(angle) * c.rope_attention_scale);
    sin_t[i] = static_cast<float>(std::sin(angle) * c.rope_attention_scale);
  }
  auto rope = [&](std::vector<uint16_t>& x, int64_t n_heads) {
    for (int64_t hd = 0; hd < n_heads; ++hd) {
      uint16_t* v = &x[hd * d];
      for (int64_t i = 0; i < d / 2; ++i) {
        const double a = F(v[i]), b = F(v[i + d / 2]);
        v[i] = Bf16(a * cos_t[i] - b * sin_t[i]);
        v[i + d / 2] = Bf16(b * cos_t[i] + a * sin_t[i]);
      }
    }
  };

  for (Layer& l : layers_) {
    std::vector<uint16_t> x = RmsNorm(hs.data(), l.input_norm.data(), h);
    std::vector<uint16_t> q = Gemv(l.q, x), k = Gemv(l.k, x), v = Gemv(l.v, x);
    if (!l.q_norm.empty()) {
      for (int64_t i = 0; i < heads; ++i) {
        const std::vector<uint16_t> n = RmsNorm(&q[i * d], l.q_norm.data(), d);
        std::copy(n.begin(), n.end(), q.begin() + i * d);
      }
      for (int64_t i = 0; i < kv_heads; ++i) {
        const std::vector<uint16_t> n = RmsNorm(&k[i * d], l.k_norm.data(), d);
        std::copy(n.begin(), n.end(), k.begin() + i * d);
      }
    }
    rope(q, heads);
    rope(k, kv_heads);
    for (int64_t g = 0; g < kv_heads; ++g) {
      std::copy(k.begin() + g * d, k.begin() + (g + 1) * d,
                l.k_cache.begin() + (g * max_tokens_ + pos) * d);
      std::copy(v.begin() + g * d, v.begin() + (g + 1) * d,
                l.v_cache.begin() + (g * max_tokens_ + pos) * d);
    }
    std::vector<uint16_t> attn(heads * d);
    const double sm_scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(d)));
    for (int64_t hd = 0; hd < heads; ++hd) {
      const int64_t g = hd / group;
      std::vector<double> scores(pos + 1);
      double max_score = -INFINITY;
      for (int64_t s = 0; s <= pos; ++s) {
        double dot = 0;
        for (int64_t i = 0; i < d; ++i) {
          dot += F(q[hd * d + i]) * F(l.k_cache[(g * max_tokens_ + s) * d + i]);
        }
        scores[s] = dot * sm_scale;
        max_score = std::max(max_score, scores[s]);
      }
      double total = 0;
      for (double& s : scores) total += (s = std::exp(s - max_score));
      for (int64_t i = 0; i < d; ++i) {
        double acc = 0;
        for (int64_t s = 0; s <= pos; ++s) {
          acc += scores[s] * F(l.v_cache[(g * max_tokens_ + s) * d + i]);
        }
        attn[hd * d + i] = Bf16(acc / total);
      }
    }
    add_residual(Gemv(l.o, attn));
    x = RmsNorm(hs.data(), l.post_norm.data(), h);
    const std::vector<uint16_t> gate = Gemv(l.gate, x), up = Gemv(l.up, x);
    std::vector<uint16_t> act(c.intermediate_size);
    for (int64_t i = 0; i < c.intermediate_size; ++i) {
      const double g = F(gate[i]);
      act[i] = Bf16(g / (1.0 + std::exp(-g)) * F(up[i]));
    }
    add_residual(Gemv(l.down, act));
  }
  std::vector<uint16_t> x = RmsNorm(hs.data(), final_norm_.data(), h);
  const float logit_divisor = static_cast<float>(c.logit_divisor);
  if (logit_divisor != 1.0f) {
    for (uint16_t& v : x) {
      const float divided = tcpu_bf16_to_f32(v) / logit_divisor;
      v = tcpu_f32_to_bf16(divided);
    }
  }
  const QuantizedX qx = QuantizeX(x);
  logits->assign(c.vocab_size, 0.0);
  int32_t best = 0;
  for (int64_t i = 0; i < c.vocab_size; ++i) {
    if (lm_head_.groups > 0) {  // the fp32 sum f of tcpu/gemv_q4.h, scaled in float64
      const float f = qx.scale == 0 ? 0.0f : Sum(lm_head_, i, qx.q, 1.0f);
      (*logits)[i] = static_cast<double>(f) * qx.scale;
    } else {
      const int64_t acc = qx.scale == 0 ? 0 : Dot(&lm_head_.q[i * h], qx.q.data(), h);
      (*logits)[i] = static_cast<double>(acc) * qx.scale * lm_head_.scales[i];
    }
    if ((*logits)[i] > (*logits)[best]) best = static_cast<int32_t>(i);
  }
  return best;
}

}  // namespace tcpu::reference
