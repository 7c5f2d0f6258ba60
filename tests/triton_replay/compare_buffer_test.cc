// The pieces of the replay that decide pass or fail, on hand-made bytes: element decoding
// (f16, bf16, fp8), FORMAT.md's tolerances with NaN and inf, which bytes an argument types,
// the first differing element, and record fields that are wrong.
#include "tests/triton_replay/compare_buffer.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/triton_replay/element_type.h"
#include "tests/triton_replay/launch_record.h"

namespace tcpu::replay {
namespace {

template <typename T>
std::vector<uint8_t> Bytes(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

bool Match(const std::string& type, std::vector<uint8_t> cpu, std::vector<uint8_t> gpu) {
  double error = 0;
  return ElementsMatch(ElementTypeOf(type), cpu.data(), gpu.data(), &error);
}

TEST(ElementTypeTest, DecodesEveryFloatFormat) {
  const uint8_t f16_one_and_half[] = {0x00, 0x3e};
  EXPECT_EQ(ElementValue(ElementTypeOf("f16"), f16_one_and_half), 1.5);
  const uint8_t f16_subnormal[] = {0x01, 0x00};
  EXPECT_EQ(ElementValue(ElementTypeOf("f16"), f16_subnormal), std::ldexp(1.0, -24));
  const uint8_t bf16_minus_two[] = {0x00, 0xc0};
  EXPECT_EQ(ElementValue(ElementTypeOf("bf16"), bf16_minus_two), -2.0);
  const uint8_t e4m3_448[] = {0x7e};  // E4M3FN's largest finite value
  EXPECT_EQ(ElementValue(ElementTypeOf("f8E4M3FN"), e4m3_448), 448.0);
  const uint8_t e4m3_nan[] = {0xff};
  EXPECT_TRUE(std::isnan(ElementValue(ElementTypeOf("f8E4M3FN"), e4m3_nan)));
  const uint8_t e5m2_inf[] = {0x7c};
  EXPECT_TRUE(std::isinf(ElementValue(ElementTypeOf("f8E5M2"), e5m2_inf)));
  const uint8_t fnuz_nan[] = {0x80};
  EXPECT_TRUE(std::isnan(ElementValue(ElementTypeOf("f8E4M3FNUZ"), fnuz_nan)));
  EXPECT_EQ(FloatFromBits(*FindScalarType("f16"), 0x3c00), 1.0);
  EXPECT_EQ(FloatFromBits(*FindScalarType("f32"), 0x3f000000), 0.5);
  EXPECT_EQ(FloatFromBits(*FindScalarType("f64"), 0x4000000000000000), 2.0);
}

TEST(ElementTypeTest, ToleranceIsAtolPlusRtolOfGpu) {
  // f32: 1e-4 + 1e-4 * 100 = 0.0101 around 100.
  EXPECT_TRUE(Match("f32", Bytes<float>({100.01f}), Bytes<float>({100.0f})));
  EXPECT_FALSE(Match("f32", Bytes<float>({100.02f}), Bytes<float>({100.0f})));
  EXPECT_TRUE(Match("f32", Bytes<float>({NAN}), Bytes<float>({-NAN})));
  EXPECT_FALSE(Match("f32", Bytes<float>({NAN}), Bytes<float>({1.0f})));
  EXPECT_FALSE(Match("f32", Bytes<float>({INFINITY}), Bytes<float>({3e38f})));
  EXPECT_FALSE(Match("f32", Bytes<float>({-INFINITY}), Bytes<float>({INFINITY})));
  // Integers and pointers are exact.
  EXPECT_FALSE(Match("i32", Bytes<int32_t>({7}), Bytes<int32_t>({8})));
  EXPECT_FALSE(Match("!tt.ptr<f32>", Bytes<uint64_t>({1}), Bytes<uint64_t>({2})));
}

TEST(ElementTypeTest, Fp8IsOneUlp) {
  EXPECT_TRUE(Match("f8E4M3FN", {0x40}, {0x41}));
  EXPECT_FALSE(Match("f8E4M3FN", {0x40}, {0x42}));
  EXPECT_TRUE(Match("f8E4M3FN", {0x80}, {0x01}));    // -0 and the smallest subnormal
  EXPECT_FALSE(Match("f8E5M2", {0x7b}, {0x7c}));     // the largest finite value is not inf
  EXPECT_TRUE(Match("f8E4M3FNUZ", {0x80}, {0x80}));  // NaN equals NaN
}

TEST(TypeRegionsTest, EachArgumentTypesUpToTheNextOfAnotherType) {
  // 2 leading bytes, f32 from 2 (two arguments, one run), i16 from 18, a 1-byte tail.
  std::vector<TypedRegion> regions = TypeRegions(23, {{10, "f32"}, {2, "f32"}, {18, "i16"}});
  ASSERT_EQ(regions.size(), 4u);
  EXPECT_EQ(regions[0].type.name, "byte");
  EXPECT_EQ(regions[0].end, 2u);
  EXPECT_EQ(regions[1].type.name, "f32");
  EXPECT_EQ(regions[1].begin, 2u);
  EXPECT_EQ(regions[1].end, 18u);
  EXPECT_EQ(regions[2].type.name, "i16");
  EXPECT_EQ(regions[2].end, 22u);
  EXPECT_EQ(regions[3].type.name, "byte");
  // At one offset the first argument wins.
  EXPECT_EQ(TypeRegions(8, {{0, "i32"}, {0, "f32"}})[0].type.name, "i32");
}

TEST(CompareBufferTest, NamesTheFirstDifferingElementAndTheLargestError) {
  std::vector<float> gpu = {1, 2, 3, 4, 5};
  std::vector<float> cpu = {1, 2, 3.5f, 4, 7};
  std::vector<uint8_t> g = Bytes(gpu), c = Bytes(cpu);
  auto mismatch = CompareBuffer(TypeRegions(g.size(), {{0, "f32"}}), c.data(), g.data(), g.size());
  ASSERT_TRUE(mismatch.has_value());
  EXPECT_EQ(DescribeMismatch(*mismatch),
            "element 2 (byte 8, f32): gpu 3 cpu 3.5, max error 2, 2 of 5 elements differ");
  EXPECT_FALSE(
      CompareBuffer(TypeRegions(g.size(), {{0, "f32"}}), g.data(), g.data(), g.size()).has_value());
}

std::string RecordError(const char* text) {
  LaunchRecord record;
  std::string error;
  EXPECT_FALSE(ParseLaunchRecord(nlohmann::json::parse(text), &record, &error));
  return error;
}

TEST(LaunchRecordTest, NamesTheWrongField) {
  const char* head = R"({"id": "1", "kernel": "k", "ttir": "ttir/a.ttir", "grid": [1, 1, 1], )";
  EXPECT_EQ(RecordError((std::string(head) + R"("args": [], "buffers": [{"id": 0}]})").c_str()),
            "buffers[0].nbytes: missing");
  EXPECT_EQ(
      RecordError((std::string(head) +
                   R"("args": [{"kind": "scalar", "type": "i8", "value": 300}], "buffers": []})")
                      .c_str()),
      "args[0].value: 300 does not fit i8");
  EXPECT_EQ(
      RecordError((std::string(head) +
                   R"("args": [{"kind": "scalar", "type": "u32", "value": 1}], "buffers": []})")
                      .c_str()),
      "args[0].type: 'u32' is not a TTIR scalar type (i1 i8 i16 i32 i64 f16 bf16 f32 f64)");
  EXPECT_EQ(RecordError(R"({"id": "1", "kernel": "k", "ttir": "t", "grid": [0, 1, 1]})"),
            "grid: expected sizes from 1 to 2^31-1, got [0,1,1]");
  LaunchRecord record;
  std::string error;
  ASSERT_TRUE(ParseLaunchRecord(
      nlohmann::json::parse(std::string(head) +
                            R"("args": [{"kind": "scalar", "type": "i32", "value": 4294967295},
                                        {"kind": "scalar", "type": "bf16", "bits": "0x3f80"}],
                               "buffers": []})"),
      &record, &error))
      << error;
  EXPECT_EQ(record.args[0].value_bits, 0xffffffffu);  // a u32 value passed to an i32
  EXPECT_EQ(record.args[1].value_bits, 0x3f80u);
}

}  // namespace
}  // namespace tcpu::replay
