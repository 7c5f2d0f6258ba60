// The malformed-GGUF corpus: every way a file can lie about itself is refused with an error
// that names the file, the key or tensor or field, and the offending value; nothing is
// allocated from a count the remaining bytes cannot hold (ASan's allocation limits and the
// sanitized run of this test would catch it).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "engine/gguf/gguf_reader.h"
#include "engine/gguf/gguf_writer.h"
#include "engine/gguf/tests/sample_files.h"

namespace tcpu::gguf {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// The error ParseGguf gives for `bytes` (a test failure if it accepts them).
std::string ErrorFor(const std::vector<uint8_t>& bytes) {
  GgufFile file;
  std::string error;
  EXPECT_FALSE(ParseGguf(bytes.data(), bytes.size(), "bad.gguf", &file, &error));
  EXPECT_THAT(error, StartsWith("bad.gguf: "));
  return error;
}

std::string ErrorFor(const GgufWriter& writer) { return ErrorFor(writer.Serialize()); }

// Where `marker` (e.g. a key) first occurs in `bytes`.
size_t Find(const std::vector<uint8_t>& bytes, std::string_view marker) {
  const auto it = std::search(bytes.begin(), bytes.end(), marker.begin(), marker.end());
  EXPECT_NE(it, bytes.end()) << marker;
  return static_cast<size_t>(it - bytes.begin());
}

void Poke(std::vector<uint8_t>* bytes, size_t pos, uint64_t value, int width) {
  for (int i = 0; i < width; ++i) (*bytes)[pos + i] = static_cast<uint8_t>(value >> (8 * i));
}

TensorToWrite F32Tensor(std::string name, std::vector<uint64_t> dims, size_t bytes) {
  TensorToWrite tensor;
  tensor.name = std::move(name);
  tensor.type = static_cast<uint32_t>(TensorType::kF32);
  tensor.dims = std::move(dims);
  tensor.data.assign(bytes, 0x5a);
  return tensor;
}

TEST(MalformedTest, TheSmallFileIsValid) {
  const std::vector<uint8_t> bytes = testing::SmallModelWriter().Serialize();
  GgufFile file;
  std::string error;
  ASSERT_TRUE(ParseGguf(bytes.data(), bytes.size(), "small.gguf", &file, &error)) << error;
  EXPECT_EQ(file.tensors().size(), 2u);
  // The last tensor ends at the end of the file, so every truncation cuts something.
  const TensorInfo& last = file.tensors().back();
  EXPECT_EQ(file.data_offset() + last.offset + last.bytes, bytes.size());
}

TEST(MalformedTest, EveryTruncationIsRefusedNamingWhatIsCut) {
  for (uint32_t alignment : {32u, 1u}) {
    const std::vector<uint8_t> whole = testing::SmallModelWriter(alignment).Serialize();
    for (size_t size = 0; size < whole.size(); ++size) {
      SCOPED_TRACE("alignment " + std::to_string(alignment) + ", truncated to " +
                   std::to_string(size) + " bytes");
      // An exact-size copy, so that ASan sees any read past the end.
      const std::vector<uint8_t> bytes(whole.begin(), whole.begin() + size);
      const std::string error = ErrorFor(bytes);
      EXPECT_THAT(error, ::testing::AnyOf(HasSubstr("magic"), HasSubstr("version"),
                                          HasSubstr("tensor_count"), HasSubstr("metadata_kv_count"),
                                          HasSubstr("metadata entry at offset"),
                                          HasSubstr("metadata key '"), HasSubstr("tensor '"),
                                          HasSubstr("tensor info at offset")));
      EXPECT_THAT(error, ::testing::AnyOf(HasSubstr("too short"), HasSubstr("needs"),
                                          HasSubstr("runs past the end"), HasSubstr("cannot fit"),
                                          HasSubstr("lies outside")));
    }
  }
}

TEST(MalformedTest, BadMagic) {
  std::vector<uint8_t> bytes = testing::SmallModelWriter().Serialize();
  bytes[3] = 'X';
  EXPECT_EQ(ErrorFor(bytes), "bad.gguf: magic is 'GGUX', not 'GGUF' (not a GGUF file)");
  bytes[3] = 0;
  EXPECT_THAT(ErrorFor(bytes), HasSubstr("magic is 'GGU\\x00'"));
}

TEST(MalformedTest, OtherVersions) {
  GgufWriter writer = testing::SmallModelWriter();
  writer.SetVersion(2);
  EXPECT_EQ(ErrorFor(writer), "bad.gguf: GGUF version 2 at offset 4 is not supported (only 3)");
  writer.SetVersion(0x03000000);
  EXPECT_THAT(ErrorFor(writer), HasSubstr("looks big-endian"));
}

TEST(MalformedTest, HugeCountsAreRefusedBeforeAnythingIsReserved) {
  std::vector<uint8_t> bytes = testing::SmallModelWriter().Serialize();
  Poke(&bytes, 8, uint64_t{1} << 60, 8);
  EXPECT_THAT(ErrorFor(bytes), HasSubstr("tensor_count 1152921504606846976 at offset 8 cannot "
                                         "fit: each tensor info takes at least 24 bytes"));
  bytes = testing::SmallModelWriter().Serialize();
  Poke(&bytes, 16, ~uint64_t{0}, 8);
  EXPECT_THAT(ErrorFor(bytes), HasSubstr("metadata_kv_count 18446744073709551615 at offset 16"));

  // An array claiming 2^60 elements, of a fixed type, of strings, and of arrays.
  for (const auto& [element, count_name] : {std::pair{MetadataValue::Uint32(1), "uint32"},
                                            {MetadataValue::String("x"), "string"},
                                            {MetadataValue::Int32Array({}), "array"}}) {
    GgufWriter writer;
    writer.AddMetadata("huge.array", MetadataValue::Array(element.type, {element}));
    bytes = writer.Serialize();
    const size_t count_at = Find(bytes, "huge.array") + 10 + 4 + 4;
    Poke(&bytes, count_at, uint64_t{1} << 60, 8);
    EXPECT_THAT(ErrorFor(bytes), AllOf(HasSubstr("metadata key 'huge.array' at offset 24: array of "
                                                 "1152921504606846976 " +
                                                 std::string(count_name) + " elements at offset " +
                                                 std::to_string(count_at)),
                                       HasSubstr("bytes remain")));
  }
}

TEST(MalformedTest, StringLengthsPastTheEnd) {
  GgufWriter writer;
  writer.AddMetadata("general.name", MetadataValue::String("tiny"));
  std::vector<uint8_t> bytes = writer.Serialize();
  const size_t key_at = Find(bytes, "general.name");
  Poke(&bytes, key_at + 12 + 4, 1000, 8);  // the value's length
  EXPECT_THAT(ErrorFor(bytes), AllOf(HasSubstr("metadata key 'general.name' at offset 24: "
                                               "string length 1000 at offset 48 runs past"),
                                     HasSubstr("(8 bytes left)")));
  Poke(&bytes, key_at - 8, uint64_t{1} << 63, 8);  // the key's length
  EXPECT_THAT(ErrorFor(bytes), HasSubstr("metadata entry at offset 24: metadata key length "
                                         "9223372036854775808 at offset 24 runs past"));

  GgufWriter tensors;
  tensors.AddTensor(F32Tensor("w", {4}, 16));
  bytes = tensors.Serialize();
  Poke(&bytes, 24, 1u << 20, 8);  // the tensor name's length
  EXPECT_THAT(ErrorFor(bytes),
              HasSubstr("tensor info at offset 24: tensor name length 1048576 at offset 24"));
}

TEST(MalformedTest, TensorOffsets) {
  GgufWriter unaligned;
  unaligned.AddTensor(F32Tensor("a", {4}, 16));
  TensorToWrite b = F32Tensor("b", {4}, 16);
  b.offset = 48;
  unaligned.AddTensor(b);
  EXPECT_THAT(ErrorFor(unaligned), HasSubstr("tensor 'b' at offset 57 has data offset 48 at "
                                             "offset 82, not a multiple of the alignment 32"));

  GgufWriter overlapping;
  overlapping.AddTensor(F32Tensor("a", {16}, 64));
  b = F32Tensor("b", {4}, 16);
  b.offset = 32;
  overlapping.AddTensor(b);
  EXPECT_THAT(ErrorFor(overlapping),
              HasSubstr("tensors 'a' (data offset 0, 64 bytes) and 'b' (data offset 32) overlap"));

  GgufWriter outside;
  outside.AddTensor(F32Tensor("a", {4}, 16));
  std::vector<uint8_t> bytes = outside.Serialize();
  const size_t offset_at = Find(bytes, "a") + 1 + 4 + 8 + 4;
  Poke(&bytes, offset_at, 1 << 20, 8);
  EXPECT_THAT(ErrorFor(bytes), HasSubstr("tensor 'a' at offset 24 of type F32 (16 bytes) at data "
                                         "offset 1048576 lies outside the 16-byte data section"));
  Poke(&bytes, offset_at, ~uint64_t{31}, 8);  // aligned, and offset + bytes wraps around
  EXPECT_THAT(ErrorFor(bytes), HasSubstr("lies outside the 16-byte data section"));

  // A tensor whose data would extend past the file by one byte.
  bytes = outside.Serialize();
  bytes.pop_back();
  EXPECT_THAT(ErrorFor(bytes), HasSubstr("tensor 'a' at offset 24 of type F32 (16 bytes) at data "
                                         "offset 0 lies outside the 15-byte data section"));
}

TEST(MalformedTest, ShapesAndTypes) {
  GgufWriter overflow;
  overflow.AddTensor(F32Tensor("w", {uint64_t{1} << 32, uint64_t{1} << 32}, 0));
  EXPECT_THAT(ErrorFor(overflow), HasSubstr("tensor 'w' at offset 24: dimension 1 = 4294967296 "
                                            "at offset 45 makes the element count overflow"));

  GgufWriter negative;
  negative.AddTensor(F32Tensor("w", {uint64_t{1} << 63}, 0));
  EXPECT_THAT(ErrorFor(negative), HasSubstr("dimension 0 = 9223372036854775808"));

  GgufWriter bytes_overflow;
  bytes_overflow.AddTensor(F32Tensor("w", {uint64_t{1} << 62}, 0));
  EXPECT_THAT(ErrorFor(bytes_overflow),
              HasSubstr("tensor 'w' at offset 24 of type F32 and 4611686018427387904 elements "
                        "has a byte size that overflows int64"));

  GgufWriter five_dims;
  five_dims.AddTensor(F32Tensor("w", {1, 1, 1, 1, 1}, 4));
  EXPECT_THAT(ErrorFor(five_dims), HasSubstr("tensor 'w' at offset 24 has 5 dimensions (at most "
                                             "4)"));

  TensorToWrite unknown = F32Tensor("w", {4}, 16);
  unknown.type = 99;
  GgufWriter unknown_type;
  unknown_type.AddTensor(unknown);
  EXPECT_THAT(ErrorFor(unknown_type),
              HasSubstr("tensor 'w' at offset 24 has unknown ggml type id 99 at offset 45"));
  unknown.type = 4;
  GgufWriter removed_type;
  removed_type.AddTensor(unknown);
  EXPECT_THAT(ErrorFor(removed_type),
              HasSubstr("unknown ggml type id 4 at offset 45 (a type GGUF files no longer carry)"));

  TensorToWrite partial_block = F32Tensor("blocks", {48, 2}, 0);
  partial_block.type = static_cast<uint32_t>(TensorType::kQ4_0);
  GgufWriter partial;
  partial.AddTensor(partial_block);
  EXPECT_THAT(ErrorFor(partial), HasSubstr("tensor 'blocks' at offset 24 of type Q4_0 has a "
                                           "first dimension of 48, not a multiple of its "
                                           "32-element block"));

  GgufWriter long_name;
  long_name.AddTensor(F32Tensor(std::string(65, 'n'), {4}, 16));
  EXPECT_THAT(ErrorFor(long_name), HasSubstr("has a 65-byte name (at most 64)"));

  GgufWriter bad_name;
  bad_name.AddTensor(F32Tensor("w\xff", {4}, 16));
  EXPECT_THAT(ErrorFor(bad_name),
              HasSubstr("tensor 'w\\xff' at offset 24 has a name that is not UTF-8 at byte 1"));
}

TEST(MalformedTest, Alignment) {
  for (const auto& [value, message] :
       {std::pair{MetadataValue::Uint32(0), "is 0, not a nonzero power of two"},
        {MetadataValue::Uint32(48), "is 48, not a nonzero power of two"},
        {MetadataValue::Uint64(32), "is uint64, not uint32"},
        {MetadataValue::String("32"), "is string, not uint32"}}) {
    GgufWriter writer;
    writer.AddMetadata("general.alignment", value);
    EXPECT_THAT(ErrorFor(writer),
                HasSubstr(std::string("metadata key 'general.alignment' at offset 24 ") + message));
  }
}

TEST(MalformedTest, Duplicates) {
  GgufWriter keys;
  keys.AddMetadata("general.name", MetadataValue::String("a"));
  keys.AddMetadata("general.name", MetadataValue::String("b"));
  EXPECT_THAT(ErrorFor(keys), HasSubstr("metadata key 'general.name' at offset 57 appears twice "
                                        "(first at offset 24)"));
  GgufWriter tensors;
  tensors.AddTensor(F32Tensor("w", {4}, 16));
  tensors.AddTensor(F32Tensor("w", {4}, 16));
  EXPECT_THAT(ErrorFor(tensors),
              HasSubstr("tensor 'w' at offset 57 appears twice (first at offset 24)"));
}

TEST(MalformedTest, KeysAndValues) {
  GgufWriter empty_key;
  empty_key.AddMetadata("", MetadataValue::Uint8(1));
  EXPECT_THAT(ErrorFor(empty_key), HasSubstr("metadata key '' at offset 24 is 0 bytes long"));

  GgufWriter control_key;
  control_key.AddMetadata("a\nb", MetadataValue::Uint8(1));
  EXPECT_THAT(ErrorFor(control_key), HasSubstr("metadata key 'a\\x0ab' at offset 24 has byte "
                                               "'\\x0a' at index 1 (keys must be printable "
                                               "ASCII)"));

  GgufWriter long_key;
  long_key.AddMetadata(std::string(65536, 'k'), MetadataValue::Uint8(1));
  EXPECT_THAT(ErrorFor(long_key), HasSubstr("is 65536 bytes long (must be 1..65535)"));

  GgufWriter bad_type;
  bad_type.AddMetadata("k", MetadataValue::Uint8(1));
  std::vector<uint8_t> bytes = bad_type.Serialize();
  Poke(&bytes, Find(bytes, "k") + 1, 13, 4);
  EXPECT_THAT(ErrorFor(bytes), HasSubstr("metadata key 'k' at offset 24 has value type id 13 at "
                                         "offset 33 (GGUF defines 0..12)"));

  GgufWriter bad_element_type;
  bad_element_type.AddMetadata("k", MetadataValue::Int32Array({1}));
  bytes = bad_element_type.Serialize();
  Poke(&bytes, Find(bytes, "k") + 1 + 4, 77, 4);
  EXPECT_THAT(ErrorFor(bytes), HasSubstr("metadata key 'k' at offset 24: array element type id "
                                         "77 at offset 37 is not a GGUF value type"));

  GgufWriter bad_bool;
  bad_bool.AddMetadata("flag", MetadataValue::Bool(true));
  bytes = bad_bool.Serialize();
  bytes[Find(bytes, "flag") + 4 + 4] = 2;
  EXPECT_THAT(ErrorFor(bytes), HasSubstr("metadata key 'flag' at offset 24: bool value 2 at "
                                         "offset 40 is neither 0 nor 1"));

  GgufWriter bad_bool_element;
  bad_bool_element.AddMetadata(
      "flags", MetadataValue::Array(ValueType::kBool,
                                    {MetadataValue::Bool(true), MetadataValue::Bool(false)}));
  bytes = bad_bool_element.Serialize();
  bytes[Find(bytes, "flags") + 5 + 4 + 4 + 8 + 1] = 7;
  EXPECT_THAT(ErrorFor(bytes), HasSubstr("metadata key 'flags' at offset 24: bool element 1 = 7"));

  // Arrays nested one level deeper than allowed; the error says which element.
  MetadataValue nested = MetadataValue::Int32Array({1});
  for (int depth = 1; depth < kMaxArrayDepth; ++depth) {
    nested = MetadataValue::Array(ValueType::kArray, {nested});
  }
  GgufWriter deepest_allowed;
  deepest_allowed.AddMetadata("nest", nested);
  const std::vector<uint8_t> ok = deepest_allowed.Serialize();
  GgufFile file;
  std::string error;
  EXPECT_TRUE(ParseGguf(ok.data(), ok.size(), "ok.gguf", &file, &error)) << error;
  GgufWriter too_deep;
  too_deep.AddMetadata("nest", MetadataValue::Array(ValueType::kArray, {nested}));
  EXPECT_THAT(ErrorFor(too_deep), AllOf(HasSubstr("metadata key 'nest' at offset 24: element 0: "),
                                        HasSubstr("arrays nested deeper than 8")));
}

}  // namespace
}  // namespace tcpu::gguf
