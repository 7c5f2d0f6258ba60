// A decode step allocates nothing: every allocation function is wrapped at link time
// (-Wl,--wrap, see BUILD.bazel), and after a warm-up step (which starts the thread pool and
// grows the per-thread scratch arenas once) 20 more steps of the generated model, on every
// thread, must make no call to any of them.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "gtest/gtest.h"
#include "tcpu/decoder.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace {

std::atomic<bool> counting{false};
std::atomic<int64_t> allocations{0};

void Count() {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1);
}

}  // namespace

extern "C" {
void* __real_malloc(size_t size);
void* __real_calloc(size_t count, size_t size);
void* __real_realloc(void* p, size_t size);
void* __real_aligned_alloc(size_t alignment, size_t size);
int __real_posix_memalign(void** p, size_t alignment, size_t size);

void* __wrap_malloc(size_t size) {
  Count();
  return __real_malloc(size);
}
void* __wrap_calloc(size_t count, size_t size) {
  Count();
  return __real_calloc(count, size);
}
void* __wrap_realloc(void* p, size_t size) {
  Count();
  return __real_realloc(p, size);
}
void* __wrap_aligned_alloc(size_t alignment, size_t size) {
  Count();
  return __real_aligned_alloc(alignment, size);
}
int __wrap_posix_memalign(void** p, size_t alignment, size_t size) {
  Count();
  return __real_posix_memalign(p, alignment, size);
}
}  // extern "C"

namespace {

TEST(NoAllocationTest, DecodeStepsAllocateNothingAfterTheFirst) {
  // The wrappers are live: an allocation made while counting is seen.
  counting = true;
  void* volatile probe = std::malloc(16);  // volatile: the call may not be optimized away
  counting = false;
  std::free(probe);
  ASSERT_EQ(allocations.exchange(0), 1) << "the --wrap link options are missing";

  for (int threads : {1, 4}) {
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    tcpu_decoder* decoder = nullptr;
    ASSERT_EQ(tcpu_decoder_open("tools/checkpoint/tiny_llama", 32, &decoder), TCPU_OK)
        << tcpu_last_error_detail();
    int32_t token = 1;
    ASSERT_EQ(tcpu_decoder_step(decoder, token, nullptr, &token), TCPU_OK);  // warm-up
    counting = true;
    for (int i = 0; i < 20; ++i) {
      ASSERT_EQ(tcpu_decoder_step(decoder, token, nullptr, &token), TCPU_OK);
    }
    counting = false;
    EXPECT_EQ(allocations.exchange(0), 0) << threads << " threads";
    tcpu_decoder_close(decoder);
  }
}

// Prefill's workspace is sized and its GEMM scratch reserved at open; attention's scratch
// grows with the sequence, so the warm-up prefill covers the same length.
TEST(NoAllocationTest, PrefillAllocatesNothingAfterTheFirst) {
  for (int threads : {1, 4}) {
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    tcpu_decoder* decoder = nullptr;
    ASSERT_EQ(tcpu_decoder_open("tools/checkpoint/tiny_llama", 80, &decoder), TCPU_OK)
        << tcpu_last_error_detail();
    int32_t prompt[70];
    for (int i = 0; i < 70; ++i) prompt[i] = (i * 37) % 1000;
    int32_t next = 0;
    ASSERT_EQ(tcpu_decoder_prefill(decoder, prompt, 70, nullptr, &next), TCPU_OK);  // warm-up
    ASSERT_EQ(tcpu_decoder_reset(decoder), TCPU_OK);
    counting = true;
    ASSERT_EQ(tcpu_decoder_prefill(decoder, prompt, 70, nullptr, &next), TCPU_OK);
    counting = false;
    EXPECT_EQ(allocations.exchange(0), 0) << threads << " threads";
    tcpu_decoder_close(decoder);
  }
}

}  // namespace
