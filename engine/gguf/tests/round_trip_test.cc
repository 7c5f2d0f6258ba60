// Writer -> reader round trips: every metadata value type (scalars, arrays of each type,
// nested arrays) and tensors of F32/F16/BF16/Q8_0/Q4_0/Q4_K/Q6_K come back with the values,
// shapes, byte sizes and bytes that were written, at every alignment; and the typed
// accessors say which key is missing or of which type.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "engine/gguf/gguf_reader.h"
#include "engine/gguf/gguf_writer.h"
#include "engine/gguf/tests/sample_files.h"

namespace tcpu::gguf {
namespace {

using ::testing::HasSubstr;

class RoundTripTest : public ::testing::TestWithParam<uint32_t> {
 protected:
  void SetUp() override {
    bytes_ = testing::EveryTypeWriter(GetParam()).Serialize();
    std::string error;
    ASSERT_TRUE(ParseGguf(bytes_.data(), bytes_.size(), "every.gguf", &file_, &error)) << error;
  }

  std::vector<uint8_t> bytes_;
  GgufFile file_;
};

TEST_P(RoundTripTest, HeaderAndAlignment) {
  EXPECT_EQ(file_.version(), 3u);
  EXPECT_EQ(file_.alignment(), GetParam());
  EXPECT_EQ(file_.data_offset() % GetParam(), 0u);
  EXPECT_TRUE(file_.warnings().empty());
  // The writer adds general.alignment itself only when it is not the default.
  EXPECT_EQ(file_.FindValue("general.alignment") != nullptr, GetParam() != kDefaultAlignment);
}

TEST_P(RoundTripTest, ScalarsOfEveryType) {
  std::string error;
  uint32_t u32 = 0;
  ASSERT_TRUE(file_.GetUint32("t.uint8", &u32, &error)) << error;
  EXPECT_EQ(u32, 200u);
  ASSERT_TRUE(file_.GetUint32("t.uint16", &u32, &error)) << error;
  EXPECT_EQ(u32, 60000u);
  ASSERT_TRUE(file_.GetUint32("t.uint32", &u32, &error)) << error;
  EXPECT_EQ(u32, 4000000000u);
  int32_t i32 = 0;
  ASSERT_TRUE(file_.GetInt32("t.int8", &i32, &error)) << error;
  EXPECT_EQ(i32, -100);
  ASSERT_TRUE(file_.GetInt32("t.int16", &i32, &error)) << error;
  EXPECT_EQ(i32, -30000);
  ASSERT_TRUE(file_.GetInt32("t.int32", &i32, &error)) << error;
  EXPECT_EQ(i32, -2000000000);
  uint64_t u64 = 0;
  ASSERT_TRUE(file_.GetUint64("t.uint64", &u64, &error)) << error;
  EXPECT_EQ(u64, 18000000000000000000u);
  int64_t i64 = 0;
  ASSERT_TRUE(file_.GetInt64("t.int64", &i64, &error)) << error;
  EXPECT_EQ(i64, -9000000000000000000);
  float f32 = 0;
  ASSERT_TRUE(file_.GetFloat32("t.float32", &f32, &error)) << error;
  EXPECT_EQ(f32, 0.15625f);
  double f64 = 0;
  ASSERT_TRUE(file_.GetFloat64("t.float64", &f64, &error)) << error;
  EXPECT_EQ(f64, -2.5e-300);
  ASSERT_TRUE(file_.GetFloat64("t.float32", &f64, &error)) << error;
  EXPECT_EQ(f64, 0.15625);
  bool b = false;
  ASSERT_TRUE(file_.GetBool("t.bool", &b, &error)) << error;
  EXPECT_TRUE(b);
  std::string_view s;
  ASSERT_TRUE(file_.GetString("t.string", &s, &error)) << error;
  EXPECT_EQ(s, "caf\xc3\xa9");
  // The raw values keep their declared types.
  EXPECT_EQ(file_.FindValue("t.int8")->type, ValueType::kInt8);
  EXPECT_EQ(file_.FindValue("t.int8")->bits, 0x9cu);
  EXPECT_EQ(file_.FindValue("t.float64")->type, ValueType::kFloat64);
}

TEST_P(RoundTripTest, ArraysOfEveryType) {
  std::string error;
  std::vector<int32_t> ints;
  ASSERT_TRUE(file_.GetInt32Array("a.int32", &ints, &error)) << error;
  EXPECT_EQ(ints, (std::vector<int32_t>{-5, 0, 2147483647}));
  ASSERT_TRUE(file_.GetInt32Array("a.uint8", &ints, &error)) << error;
  EXPECT_EQ(ints, (std::vector<int32_t>{1, 255}));
  ASSERT_TRUE(file_.GetInt32Array("a.int8", &ints, &error)) << error;
  EXPECT_EQ(ints, (std::vector<int32_t>{-1}));
  ASSERT_TRUE(file_.GetInt32Array("a.uint16", &ints, &error)) << error;
  EXPECT_EQ(ints, (std::vector<int32_t>{65535}));
  ASSERT_TRUE(file_.GetInt32Array("a.int16", &ints, &error)) << error;
  EXPECT_EQ(ints, (std::vector<int32_t>{-32768}));
  ASSERT_TRUE(file_.GetInt32Array("a.uint32", &ints, &error)) << error;
  EXPECT_EQ(ints, (std::vector<int32_t>{7}));
  ASSERT_TRUE(file_.GetInt32Array("a.uint64", &ints, &error)) << error;
  EXPECT_EQ(ints, (std::vector<int32_t>{1}));
  ASSERT_TRUE(file_.GetInt32Array("a.int64", &ints, &error)) << error;
  EXPECT_EQ(ints, (std::vector<int32_t>{-1}));
  std::vector<float> floats;
  ASSERT_TRUE(file_.GetFloatArray("a.float32", &floats, &error)) << error;
  EXPECT_EQ(floats, (std::vector<float>{-1.5f, 0.0f, 3.25f}));
  std::vector<std::string_view> strings;
  ASSERT_TRUE(file_.GetStringArray("a.string", &strings, &error)) << error;
  EXPECT_EQ(strings, (std::vector<std::string_view>{"", "a", "\xe4\xb8\xad"}));
  ASSERT_TRUE(file_.GetStringArray("a.empty", &strings, &error)) << error;
  EXPECT_TRUE(strings.empty());

  const Value* bools = file_.FindValue("a.bool");
  ASSERT_NE(bools, nullptr);
  EXPECT_EQ(bools->element_type, ValueType::kBool);
  ASSERT_EQ(bools->count, 2u);
  EXPECT_EQ(bools->fixed_elements[0], 0);
  EXPECT_EQ(bools->fixed_elements[1], 1);
  const Value* f64 = file_.FindValue("a.float64");
  ASSERT_NE(f64, nullptr);
  ASSERT_EQ(f64->count, 1u);
  double d;
  std::memcpy(&d, f64->fixed_elements, 8);  // little-endian host
  EXPECT_EQ(d, 1e300);
}

TEST_P(RoundTripTest, NestedArrays) {
  const Value* nested = file_.FindValue("a.nested");
  ASSERT_NE(nested, nullptr);
  ASSERT_EQ(nested->element_type, ValueType::kArray);
  ASSERT_EQ(nested->elements.size(), 3u);
  EXPECT_EQ(nested->elements[0].element_type, ValueType::kInt32);
  EXPECT_EQ(nested->elements[0].count, 2u);
  EXPECT_EQ(nested->elements[1].count, 0u);
  const Value& inner = nested->elements[2];
  ASSERT_EQ(inner.element_type, ValueType::kArray);
  ASSERT_EQ(inner.elements.size(), 1u);
  ASSERT_EQ(inner.elements[0].elements.size(), 1u);
  EXPECT_EQ(inner.elements[0].elements[0].string, "deep");
}

TEST_P(RoundTripTest, TensorsComeBackWithTheirBytes) {
  struct Expected {
    const char* name;
    TensorType type;
    std::vector<int64_t> dims;
    int64_t bytes;
    uint32_t seed;
  };
  const Expected expected[] = {
      {"f32", TensorType::kF32, {3, 5}, 15 * 4, 10},
      {"f16", TensorType::kF16, {7}, 7 * 2, 11},
      {"bf16", TensorType::kBF16, {2, 2, 2, 2}, 16 * 2, 12},
      {"q8_0", TensorType::kQ8_0, {64, 3}, 6 * 34, 13},
      {"q4_0", TensorType::kQ4_0, {32, 2, 2}, 4 * 18, 14},
      {"q4_k", TensorType::kQ4_K, {256, 2}, 2 * 144, 15},
      {"q6_k", TensorType::kQ6_K, {512}, 2 * 210, 16},
      {"empty", TensorType::kF32, {0, 4}, 0, 17},
  };
  ASSERT_EQ(file_.tensors().size(), std::size(expected));
  for (size_t i = 0; i < std::size(expected); ++i) {
    const Expected& e = expected[i];
    SCOPED_TRACE(e.name);
    const TensorInfo* tensor = file_.FindTensor(e.name);
    ASSERT_NE(tensor, nullptr);
    EXPECT_EQ(tensor, &file_.tensors()[i]);  // file order is kept
    EXPECT_EQ(tensor->type->type, e.type);
    EXPECT_EQ(tensor->dims, e.dims);
    EXPECT_EQ(tensor->bytes, e.bytes);
    EXPECT_EQ(tensor->offset % GetParam(), 0u);
    if (e.bytes == 0) {
      EXPECT_EQ(tensor->data, nullptr);
      continue;
    }
    EXPECT_EQ(static_cast<uint64_t>(tensor->data - bytes_.data()),
              file_.data_offset() + tensor->offset);
    const std::vector<uint8_t> want = testing::PatternBytes(static_cast<size_t>(e.bytes), e.seed);
    EXPECT_EQ(std::memcmp(tensor->data, want.data(), want.size()), 0);
  }
  EXPECT_EQ(file_.FindTensor("absent"), nullptr);
}

INSTANTIATE_TEST_SUITE_P(Alignments, RoundTripTest, ::testing::Values(32u, 1u, 8u, 64u, 4096u));

TEST(TensorTypesTest, BlockSizesFromTheSpecification) {
  struct Row {
    uint32_t id;
    const char* name;
    int64_t block_elements, block_bytes;
  };
  const Row rows[] = {
      {0, "F32", 1, 4},         {1, "F16", 1, 2},         {2, "Q4_0", 32, 18},
      {3, "Q4_1", 32, 20},      {6, "Q5_0", 32, 22},      {7, "Q5_1", 32, 24},
      {8, "Q8_0", 32, 34},      {9, "Q8_1", 32, 36},      {10, "Q2_K", 256, 84},
      {11, "Q3_K", 256, 110},   {12, "Q4_K", 256, 144},   {13, "Q5_K", 256, 176},
      {14, "Q6_K", 256, 210},   {15, "Q8_K", 256, 292},   {16, "IQ2_XXS", 256, 66},
      {17, "IQ2_XS", 256, 74},  {18, "IQ3_XXS", 256, 98}, {19, "IQ1_S", 256, 50},
      {20, "IQ4_NL", 32, 18},   {21, "IQ3_S", 256, 110},  {22, "IQ2_S", 256, 82},
      {23, "IQ4_XS", 256, 136}, {24, "I8", 1, 1},         {25, "I16", 1, 2},
      {26, "I32", 1, 4},        {27, "I64", 1, 8},        {28, "F64", 1, 8},
      {29, "IQ1_M", 256, 56},   {30, "BF16", 1, 2},       {34, "TQ1_0", 256, 54},
      {35, "TQ2_0", 256, 66},   {39, "MXFP4", 32, 17},
  };
  for (const Row& row : rows) {
    const TensorTypeTraits* traits = FindTensorType(row.id);
    ASSERT_NE(traits, nullptr) << row.name;
    EXPECT_STREQ(traits->name, row.name);
    EXPECT_EQ(traits->block_elements, row.block_elements) << row.name;
    EXPECT_EQ(traits->block_bytes, row.block_bytes) << row.name;
  }
  for (uint32_t removed : {4u, 5u, 31u, 32u, 33u, 36u, 37u, 38u, 40u, 1000u}) {
    EXPECT_EQ(FindTensorType(removed), nullptr) << removed;
  }
}

TEST(AccessorTest, ErrorsNameTheKeyAndTheType) {
  const std::vector<uint8_t> bytes = testing::EveryTypeWriter().Serialize();
  GgufFile file;
  std::string error;
  ASSERT_TRUE(ParseGguf(bytes.data(), bytes.size(), "every.gguf", &file, &error)) << error;
  uint32_t u32;
  EXPECT_FALSE(file.GetUint32("llama.block_count", &u32, &error));
  EXPECT_EQ(error, "metadata key 'llama.block_count' is missing");
  EXPECT_FALSE(file.GetUint32("t.string", &u32, &error));
  EXPECT_EQ(error, "metadata key 't.string' is string, not an integer");
  EXPECT_FALSE(file.GetUint32("t.int8", &u32, &error));
  EXPECT_EQ(error, "metadata key 't.int8' = -100 (int8) does not fit in uint32");
  EXPECT_FALSE(file.GetUint32("t.uint64", &u32, &error));
  EXPECT_EQ(error,
            "metadata key 't.uint64' = 18000000000000000000 (uint64) does not fit in uint32");
  int64_t i64;
  EXPECT_FALSE(file.GetInt64("t.uint64", &i64, &error));
  EXPECT_THAT(error, HasSubstr("does not fit in int64"));
  float f32;
  EXPECT_FALSE(file.GetFloat32("t.float64", &f32, &error));
  EXPECT_EQ(error, "metadata key 't.float64' is float64, not float32");
  bool b;
  EXPECT_FALSE(file.GetBool("t.uint8", &b, &error));
  EXPECT_EQ(error, "metadata key 't.uint8' is uint8, not bool");
  std::string_view s;
  EXPECT_FALSE(file.GetString("a.string", &s, &error));
  EXPECT_EQ(error, "metadata key 'a.string' is array, not string");
  std::vector<std::string_view> strings;
  EXPECT_FALSE(file.GetStringArray("a.int32", &strings, &error));
  EXPECT_EQ(error, "metadata key 'a.int32' is an array of int32, not of string");
  EXPECT_FALSE(file.GetStringArray("t.string", &strings, &error));
  EXPECT_EQ(error, "metadata key 't.string' is string, not an array of string");
  std::vector<float> floats;
  EXPECT_FALSE(file.GetFloatArray("a.float64", &floats, &error));
  EXPECT_EQ(error, "metadata key 'a.float64' is an array of float64, not of float32");
  std::vector<int32_t> ints;
  GgufWriter writer;
  writer.AddMetadata(
      "big", MetadataValue::Array(ValueType::kUint32,
                                  {MetadataValue::Uint32(1), MetadataValue::Uint32(3000000000u)}));
  const std::vector<uint8_t> big = writer.Serialize();
  ASSERT_TRUE(ParseGguf(big.data(), big.size(), "big.gguf", &file, &error)) << error;
  EXPECT_FALSE(file.GetInt32Array("big", &ints, &error));
  EXPECT_EQ(error, "metadata key 'big' element 1 = 3000000000 (uint32) does not fit in int32");
}

TEST(WarningTest, StringValuesThatAreNotUtf8AreKeptAndReported) {
  GgufWriter writer;
  writer.AddMetadata("bytes", MetadataValue::String("ok\xff"));
  writer.AddMetadata("tokens", MetadataValue::StringArray({"a", "\xc3"}));
  const std::vector<uint8_t> bytes = writer.Serialize();
  GgufFile file;
  std::string error;
  ASSERT_TRUE(ParseGguf(bytes.data(), bytes.size(), "bytes.gguf", &file, &error)) << error;
  std::string_view s;
  ASSERT_TRUE(file.GetString("bytes", &s, &error));
  EXPECT_EQ(s, "ok\xff");
  ASSERT_EQ(file.warnings().size(), 2u);
  EXPECT_THAT(file.warnings()[0], HasSubstr("metadata key 'bytes': string value at offset"));
  EXPECT_THAT(file.warnings()[0], HasSubstr("is not UTF-8 at byte 2"));
  EXPECT_THAT(file.warnings()[1], HasSubstr("metadata key 'tokens': element 1 at offset"));
}

TEST(WriterTest, WritesAFileTheReaderReads) {
  const std::string path = std::string(::testing::TempDir()) + "/small.gguf";
  std::string error;
  ASSERT_TRUE(testing::SmallModelWriter().WriteFile(path, &error)) << error;
  FILE* f = std::fopen(path.c_str(), "rb");
  ASSERT_NE(f, nullptr);
  std::vector<uint8_t> bytes(1 << 16);
  bytes.resize(std::fread(bytes.data(), 1, bytes.size(), f));
  std::fclose(f);
  EXPECT_EQ(bytes, testing::SmallModelWriter().Serialize());
  GgufFile file;
  ASSERT_TRUE(ParseGguf(bytes.data(), bytes.size(), path, &file, &error)) << error;
  std::string_view architecture;
  ASSERT_TRUE(file.GetString("general.architecture", &architecture, &error));
  EXPECT_EQ(architecture, "llama");
  EXPECT_FALSE(GgufWriter().WriteFile("/nonexistent-dir/x.gguf", &error));
  EXPECT_THAT(error, HasSubstr("cannot open '/nonexistent-dir/x.gguf' for writing"));
}

}  // namespace
}  // namespace tcpu::gguf
