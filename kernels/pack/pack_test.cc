// tcpu_pack_weights_i8 against a byte-by-byte model of the format in tcpu/gemv.h, and
// tcpu_pack_weights_i8_kn (w stored k-major) against the model of the transposed matrix.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/pack/packed_weights.h"
#include "runtime/kernel_variants.h"
#include "runtime/testing/kernel_test_util.h"
#include "tcpu/gemv.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace tcpu {
namespace {

using ::tcpu::testing::RandomInt8;

constexpr uint8_t kPoisonByte = 0xa5;

int64_t RoundUp(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

// The documented layout, written out independently of the implementation.
std::vector<int8_t> ModelPackedData(const std::vector<int8_t>& w, int64_t n, int64_t k) {
  const int64_t n_padded = RoundUp(n, 4), k_padded = RoundUp(k, 8);
  std::vector<int8_t> data(n_padded * k_padded, 0);
  const int64_t chunks = k_padded / 8;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < k; ++j) {
      const int64_t b = i / 4, r = i % 4, c = j / 8, e = j % 8;
      data[(b * chunks + c) * 32 + r * 8 + e] = w[i * k + j];
    }
  }
  return data;
}

using PackFn = int (*)(const int8_t*, int64_t, int64_t, void*, int64_t);

// Packs w ([n, k] for tcpu_pack_weights_i8, [k, n] for tcpu_pack_weights_i8_kn) into a buffer
// with `extra` poisoned bytes past the packed size.
std::vector<uint8_t> PackWith(PackFn pack, const std::vector<int8_t>& w, int64_t n, int64_t k,
                              int64_t extra = 64) {
  const int64_t size = tcpu_packed_weights_size(n, k);
  EXPECT_GT(size, 0);
  std::vector<uint8_t> buffer(size + extra, kPoisonByte);
  EXPECT_EQ(pack(w.data(), n, k, buffer.data(), size), TCPU_OK) << tcpu_last_error_detail();
  return buffer;
}

std::vector<uint8_t> Pack(const std::vector<int8_t>& w, int64_t n, int64_t k) {
  return PackWith(tcpu_pack_weights_i8, w, n, k);
}

// w[k][n] from w_nk[n][k].
std::vector<int8_t> Transposed(const std::vector<int8_t>& w_nk, int64_t n, int64_t k) {
  std::vector<int8_t> w_kn(w_nk.size());
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < k; ++j) w_kn[j * n + i] = w_nk[i * k + j];
  }
  return w_kn;
}

std::vector<uint8_t> PackKn(const std::vector<int8_t>& w_kn, int64_t n, int64_t k) {
  return PackWith(tcpu_pack_weights_i8_kn, w_kn, n, k);
}

class PackTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(tcpu_set_num_threads(1), TCPU_OK); }
};

TEST_F(PackTest, RunsTheExpectedVariant) {
  const std::string expected = testing::ExpectedVariant({{"*", "pack_weights_i8:ref"}});
  if (expected.empty()) GTEST_SKIP() << "not run by the QEMU matrix";
  EXPECT_EQ(PackWeightsI8Variant(), expected);
}

TEST_F(PackTest, KnRunsTheExpectedVariant) {
  const std::string expected = testing::ExpectedVariant({{"*", "pack_weights_i8_kn:neon"}});
  if (expected.empty()) GTEST_SKIP() << "not run by the QEMU matrix";
  EXPECT_EQ(PackWeightsI8KnVariant(), expected);
}

TEST_F(PackTest, SizeIsHeaderPlusPaddedMatrix) {
  EXPECT_EQ(tcpu_packed_weights_size(1, 1), 64 + 4 * 8);
  EXPECT_EQ(tcpu_packed_weights_size(4, 8), 64 + 4 * 8);
  EXPECT_EQ(tcpu_packed_weights_size(5, 9), 64 + 8 * 16);
  EXPECT_EQ(tcpu_packed_weights_size(1536, 1536), 64 + 1536 * 1536);
  EXPECT_EQ(tcpu_packed_weights_size(130560, 1536), 64 + int64_t{130560} * 1536);
}

TEST_F(PackTest, MatchesTheDocumentedLayoutForManyShapes) {
  const int64_t shapes[][2] = {{1, 1},   {1, 7},   {1, 8},   {1, 9},   {2, 3},  {3, 16},
                               {4, 8},   {5, 1},   {5, 17},  {7, 33},  {8, 64}, {9, 100},
                               {13, 15}, {31, 63}, {64, 24}, {67, 129}};
  uint32_t seed = 1;
  for (const auto& shape : shapes) {
    const int64_t n = shape[0], k = shape[1];
    SCOPED_TRACE("n = " + std::to_string(n) + ", k = " + std::to_string(k));
    const std::vector<int8_t> w = RandomInt8(n * k, seed++);
    const std::vector<uint8_t> packed = Pack(w, n, k);
    const int64_t size = tcpu_packed_weights_size(n, k);

    PackedWeightsView view;
    ASSERT_EQ(ViewPackedWeights("test", packed.data(), n, k, &view), TCPU_OK);
    EXPECT_EQ(view.layout.n, n);
    EXPECT_EQ(view.layout.k, k);
    EXPECT_EQ(view.layout.n_padded, RoundUp(n, 4));
    EXPECT_EQ(view.layout.k_padded, RoundUp(k, 8));
    EXPECT_EQ(view.layout.total_bytes, size);
    EXPECT_EQ(reinterpret_cast<const uint8_t*>(view.data), packed.data() + 64);

    const std::vector<int8_t> model = ModelPackedData(w, n, k);
    ASSERT_EQ(static_cast<int64_t>(model.size()), size - 64);
    for (int64_t i = 0; i < size - 64; ++i) {
      ASSERT_EQ(static_cast<int8_t>(packed[64 + i]), model[i]) << "data byte " << i;
    }
    // The reserved header bytes are zero; nothing past the packed size is written.
    for (int64_t i = 48; i < 64; ++i) EXPECT_EQ(packed[i], 0) << "header byte " << i;
    for (size_t i = size; i < packed.size(); ++i) ASSERT_EQ(packed[i], kPoisonByte) << i;
  }
}

TEST_F(PackTest, LongRowsWithSmallN) {
  const int64_t n = 3, k = 65536 + 5;
  const std::vector<int8_t> w = RandomInt8(n * k, 7);
  const std::vector<uint8_t> packed = Pack(w, n, k);
  const std::vector<int8_t> model = ModelPackedData(w, n, k);
  EXPECT_EQ(std::memcmp(packed.data() + 64, model.data(), model.size()), 0);
}

TEST_F(PackTest, IdenticalForEveryThreadCount) {
  // Large enough to be split over the pool (> 2^18 bytes per task).
  const int64_t n = 403, k = 3001;
  const std::vector<int8_t> w = RandomInt8(n * k, 11);
  const std::vector<int8_t> model = ModelPackedData(w, n, k);
  for (int threads : testing::kThreadCounts) {
    SCOPED_TRACE("threads = " + std::to_string(threads));
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    const std::vector<uint8_t> packed = Pack(w, n, k);
    EXPECT_EQ(std::memcmp(packed.data() + 64, model.data(), model.size()), 0);
    PackedWeightsView view;
    EXPECT_EQ(ViewPackedWeights("test", packed.data(), n, k, &view), TCPU_OK);
  }
}

TEST_F(PackTest, RepackingOverwritesEverything) {
  const int64_t n = 6, k = 13;
  const int64_t size = tcpu_packed_weights_size(n, k);
  std::vector<uint8_t> buffer(size, 0x7f);
  const std::vector<int8_t> w = RandomInt8(n * k, 3);
  ASSERT_EQ(tcpu_pack_weights_i8(w.data(), n, k, buffer.data(), size), TCPU_OK);
  const std::vector<int8_t> model = ModelPackedData(w, n, k);
  EXPECT_EQ(std::memcmp(buffer.data() + 64, model.data(), model.size()), 0);
}

// The check a loader runs on packed bytes from a file: the header and the size, nothing else.
TEST_F(PackTest, CheckAcceptsExactlyAPackingOfThisShape) {
  const int64_t n = 6, k = 13;
  const int64_t size = tcpu_packed_weights_size(n, k);
  std::vector<uint8_t> buffer(size);
  const std::vector<int8_t> w = RandomInt8(n * k, 4);
  ASSERT_EQ(tcpu_pack_weights_i8(w.data(), n, k, buffer.data(), size), TCPU_OK);
  EXPECT_EQ(tcpu_check_packed_weights(buffer.data(), size, n, k), TCPU_OK);
  EXPECT_EQ(tcpu_check_packed_weights(buffer.data(), size + 1, n, k), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(tcpu_last_error_detail(),
               "tcpu_check_packed_weights: 193 bytes, expected 192 for n = 6, k = 13");
  EXPECT_EQ(tcpu_check_packed_weights(buffer.data(), size, n - 1, k), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("holds n = 6, k = 13"), std::string::npos);
  EXPECT_EQ(tcpu_check_packed_weights(buffer.data(), size, n, -1), TCPU_ERR_INVALID_SIZE);
  buffer[0] ^= 1;  // the magic
  EXPECT_EQ(tcpu_check_packed_weights(buffer.data(), size, n, k), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("is not a tcpu_pack_weights_i8 buffer"),
            std::string::npos);
}

// Every byte of the buffer, header included, is what packing the [n, k] transpose gives: the
// shapes cover whole 16-column groups, groups cut by n, k tails, and columns past n in a block.
TEST_F(PackTest, KnPacksTheTransposeForManyShapes) {
  const int64_t shapes[][2] = {{1, 1},  {3, 5},   {4, 8},   {15, 8},  {16, 8},  {16, 9},
                               {17, 7}, {20, 16}, {31, 33}, {32, 64}, {48, 13}, {64, 24},
                               {67, 129}, {100, 40}, {129, 3}};
  uint32_t seed = 100;
  for (const auto& shape : shapes) {
    const int64_t n = shape[0], k = shape[1];
    SCOPED_TRACE("n = " + std::to_string(n) + ", k = " + std::to_string(k));
    const std::vector<int8_t> w = RandomInt8(n * k, seed++);
    const std::vector<uint8_t> expected = Pack(w, n, k);
    const std::vector<uint8_t> packed = PackKn(Transposed(w, n, k), n, k);
    ASSERT_EQ(packed.size(), expected.size());
    for (size_t i = 0; i < packed.size(); ++i) ASSERT_EQ(packed[i], expected[i]) << "byte " << i;
    EXPECT_EQ(tcpu_check_packed_weights(packed.data(), tcpu_packed_weights_size(n, k), n, k),
              TCPU_OK);
  }
}

TEST_F(PackTest, KnIdenticalForEveryThreadCount) {
  // Large enough to be split over the pool, into ranges that cut 16-column groups.
  const int64_t n = 403, k = 1001;
  const std::vector<int8_t> w = RandomInt8(n * k, 12);
  const std::vector<int8_t> model = ModelPackedData(w, n, k);
  const std::vector<int8_t> w_kn = Transposed(w, n, k);
  for (int threads : testing::kThreadCounts) {
    SCOPED_TRACE("threads = " + std::to_string(threads));
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    const std::vector<uint8_t> packed = PackKn(w_kn, n, k);
    EXPECT_EQ(std::memcmp(packed.data() + 64, model.data(), model.size()), 0);
  }
}

// --- Bad arguments: one test per case, each with its exact status. ---

class PackArgsTest : public PackTest {
 protected:
  std::vector<int8_t> w_ = RandomInt8(8 * 16, 5);
  std::vector<uint8_t> packed_ = std::vector<uint8_t>(tcpu_packed_weights_size(8, 16));
  int64_t size_ = tcpu_packed_weights_size(8, 16);
};

TEST_F(PackArgsTest, NullWeights) {
  EXPECT_EQ(tcpu_pack_weights_i8(nullptr, 8, 16, packed_.data(), size_), TCPU_ERR_NULL_POINTER);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("w is NULL"), std::string::npos);
}

TEST_F(PackArgsTest, NullPacked) {
  EXPECT_EQ(tcpu_pack_weights_i8(w_.data(), 8, 16, nullptr, size_), TCPU_ERR_NULL_POINTER);
}

TEST_F(PackArgsTest, ZeroN) {
  EXPECT_EQ(tcpu_pack_weights_i8(w_.data(), 0, 16, packed_.data(), size_), TCPU_ERR_INVALID_SIZE);
}

TEST_F(PackArgsTest, NegativeN) {
  EXPECT_EQ(tcpu_pack_weights_i8(w_.data(), -4, 16, packed_.data(), size_), TCPU_ERR_INVALID_SIZE);
}

TEST_F(PackArgsTest, ZeroK) {
  EXPECT_EQ(tcpu_pack_weights_i8(w_.data(), 8, 0, packed_.data(), size_), TCPU_ERR_INVALID_SIZE);
}

TEST_F(PackArgsTest, NegativeK) {
  EXPECT_EQ(tcpu_pack_weights_i8(w_.data(), 8, -1, packed_.data(), size_), TCPU_ERR_INVALID_SIZE);
}

TEST_F(PackArgsTest, OverflowingShape) {
  const int64_t big = int64_t{1} << 40;
  EXPECT_EQ(tcpu_pack_weights_i8(w_.data(), big, big, packed_.data(), size_),
            TCPU_ERR_SIZE_OVERFLOW);
  EXPECT_EQ(tcpu_pack_weights_i8(w_.data(), INT64_MAX, 1, packed_.data(), size_),
            TCPU_ERR_SIZE_OVERFLOW);
  // Padding k to 8 alone overflows.
  EXPECT_EQ(tcpu_pack_weights_i8(w_.data(), 1, INT64_MAX - 2, packed_.data(), size_),
            TCPU_ERR_SIZE_OVERFLOW);
}

TEST_F(PackArgsTest, BufferTooSmall) {
  EXPECT_EQ(tcpu_pack_weights_i8(w_.data(), 8, 16, packed_.data(), size_ - 1),
            TCPU_ERR_BUFFER_TOO_SMALL);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("expected >= 192"), std::string::npos)
      << tcpu_last_error_detail();
}

TEST_F(PackArgsTest, KnNamesItselfInEveryError) {
  EXPECT_EQ(tcpu_pack_weights_i8_kn(nullptr, 8, 16, packed_.data(), size_),
            TCPU_ERR_NULL_POINTER);
  EXPECT_STREQ(tcpu_last_error_detail(), "tcpu_pack_weights_i8_kn: w is NULL");
  EXPECT_EQ(tcpu_pack_weights_i8_kn(w_.data(), 8, 16, nullptr, size_), TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_pack_weights_i8_kn(w_.data(), 8, 0, packed_.data(), size_),
            TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(tcpu_pack_weights_i8_kn(w_.data(), int64_t{1} << 40, int64_t{1} << 40,
                                    packed_.data(), size_),
            TCPU_ERR_SIZE_OVERFLOW);
  // A buffer too small is refused before anything is written.
  std::vector<uint8_t> small(size_ - 1, kPoisonByte);
  EXPECT_EQ(tcpu_pack_weights_i8_kn(w_.data(), 8, 16, small.data(), size_ - 1),
            TCPU_ERR_BUFFER_TOO_SMALL);
  EXPECT_STREQ(tcpu_last_error_detail(),
               "tcpu_pack_weights_i8_kn: packed_bytes = 191, expected >= 192 for n = 8, k = 16");
  for (uint8_t byte : small) ASSERT_EQ(byte, kPoisonByte);
}

TEST_F(PackArgsTest, SizeOfBadShapes) {
  EXPECT_EQ(tcpu_packed_weights_size(0, 8), TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(tcpu_packed_weights_size(8, 0), TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(tcpu_packed_weights_size(-1, 8), TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(tcpu_packed_weights_size(int64_t{1} << 32, int64_t{1} << 32), TCPU_ERR_SIZE_OVERFLOW);
}

TEST_F(PackArgsTest, HeaderForAnotherShapeIsRejected) {
  ASSERT_EQ(tcpu_pack_weights_i8(w_.data(), 8, 16, packed_.data(), size_), TCPU_OK);
  PackedWeightsView view;
  EXPECT_EQ(ViewPackedWeights("tcpu_gemv_i8", packed_.data(), 8, 16, &view), TCPU_OK);
  EXPECT_EQ(ViewPackedWeights("tcpu_gemv_i8", packed_.data(), 8, 15, &view),
            TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(tcpu_last_error_detail(),
               "tcpu_gemv_i8: packed_w holds n = 8, k = 16 but the call has n = 8, k = 15");
  EXPECT_EQ(ViewPackedWeights("tcpu_gemv_i8", packed_.data(), 7, 16, &view),
            TCPU_ERR_INVALID_ARGUMENT);
}

TEST_F(PackArgsTest, UnpackedBufferIsRejected) {
  std::vector<uint8_t> zeros(size_, 0);
  PackedWeightsView view;
  EXPECT_EQ(ViewPackedWeights("f", zeros.data(), 8, 16, &view), TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcpu_last_error_detail()).find("not a tcpu_pack_weights_i8 buffer"),
            std::string::npos);
  EXPECT_EQ(ViewPackedWeights("f", nullptr, 8, 16, &view), TCPU_ERR_NULL_POINTER);
}

}  // namespace
}  // namespace tcpu
