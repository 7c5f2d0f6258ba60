// atomics.ttir: tt.atomic_rmw (add, max, min, umax, umin, and, or, xor on i32 tensors under a
// mask; fadd on f32, f16 and bf16; exch on a scalar) and tt.atomic_cas (a spin lock guarding a
// plain load-add-store, tutorial 05's pattern) from many programs on 1-8 threads hammering four
// addresses. Lost updates, duplicated old values or an unguarded increment would show as wrong
// totals; the old values each atomic returns must be exactly the values the address held.
#include "kernels/triton/atomics.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tcpu/bf16.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace {

constexpr int kLanes = 16;  // the kernel's block
constexpr int kSlots = 4;   // lane l updates address l % 4

enum Group { kAdd, kMax, kMin, kUmax, kUmin, kAnd, kOr, kXor, kGroups };

int32_t LaneValue(int program, int lane) { return program * kLanes + lane - 100; }

struct Buffers {
  std::vector<int32_t> ints = std::vector<int32_t>(kGroups * kSlots);
  std::vector<int32_t> olds;
  std::vector<float> f32_sums = std::vector<float>(kSlots, 0.0f);
  std::vector<_Float16> f16_sums = std::vector<_Float16>(kSlots, _Float16(0.0f));
  std::vector<uint16_t> bf16_sums = std::vector<uint16_t>(kSlots, tcpu_f32_to_bf16(0.0f));
  int32_t slot = 0;
  std::vector<int32_t> swapped;
  int32_t lock = 0;
  int32_t locked_count = 0;

  explicit Buffers(int programs) : olds(programs * kLanes, -1), swapped(programs, -1) {
    for (int s = 0; s < kSlots; ++s) {
      ints[kAdd * kSlots + s] = 0;
      ints[kMax * kSlots + s] = INT32_MIN;
      ints[kMin * kSlots + s] = INT32_MAX;
      ints[kUmax * kSlots + s] = 0;
      ints[kUmin * kSlots + s] = -1;  // UINT32_MAX
      ints[kAnd * kSlots + s] = -1;
      ints[kOr * kSlots + s] = 0;
      ints[kXor * kSlots + s] = 0;
    }
  }

  int Launch(int programs, int active) {
    return tcpu_launch_atomic_kernel(ints.data(), olds.data(), f32_sums.data(), f16_sums.data(),
                                     bf16_sums.data(), &slot, swapped.data(), &lock, &locked_count,
                                     active, programs, 1, 1);
  }
};

void ExpectTotals(const Buffers& run, int programs, int active) {
  for (int s = 0; s < kSlots; ++s) {
    int32_t count = 0, max = INT32_MIN, min = INT32_MAX;
    uint32_t umax = 0, umin = UINT32_MAX, any_bits = 0, xors = 0;
    for (int p = 0; p < programs; ++p) {
      for (int l = s; l < active; l += kSlots) {
        const int32_t v = LaneValue(p, l);
        ++count;
        max = std::max(max, v);
        min = std::min(min, v);
        umax = std::max(umax, static_cast<uint32_t>(v));
        umin = std::min(umin, static_cast<uint32_t>(v));
        any_bits |= 1u << (p % 31);
        xors ^= static_cast<uint32_t>(v);
      }
    }
    SCOPED_TRACE("slot " + std::to_string(s));
    EXPECT_EQ(run.ints[kAdd * kSlots + s], count);
    EXPECT_EQ(run.ints[kMax * kSlots + s], max);
    EXPECT_EQ(run.ints[kMin * kSlots + s], min);
    EXPECT_EQ(static_cast<uint32_t>(run.ints[kUmax * kSlots + s]), umax);
    EXPECT_EQ(static_cast<uint32_t>(run.ints[kUmin * kSlots + s]), umin);
    EXPECT_EQ(static_cast<uint32_t>(run.ints[kAnd * kSlots + s]), ~any_bits);
    EXPECT_EQ(static_cast<uint32_t>(run.ints[kOr * kSlots + s]), any_bits);
    EXPECT_EQ(static_cast<uint32_t>(run.ints[kXor * kSlots + s]), xors);
    EXPECT_EQ(run.f32_sums[s], static_cast<float>(count));
    EXPECT_EQ(static_cast<float>(run.f16_sums[s]), static_cast<float>(count));
    EXPECT_EQ(tcpu_bf16_to_f32(run.bf16_sums[s]), static_cast<float>(count));
    // The add's old values at one address are 0 .. count-1, each exactly once.
    std::vector<int32_t> olds;
    for (int p = 0; p < programs; ++p) {
      for (int l = s; l < active; l += kSlots) olds.push_back(run.olds[p * kLanes + l]);
    }
    std::sort(olds.begin(), olds.end());
    for (int32_t i = 0; i < count; ++i) ASSERT_EQ(olds[i], i);
  }
  // Masked-off lanes touch nothing: their old values were never stored.
  for (int p = 0; p < programs; ++p) {
    for (int l = active; l < kLanes; ++l) ASSERT_EQ(run.olds[p * kLanes + l], -1);
  }
  // Every exch returned what the slot held: the returned values and the final one are
  // 0, 1, ..., programs, each once.
  std::vector<int32_t> chain(run.swapped);
  chain.push_back(run.slot);
  std::sort(chain.begin(), chain.end());
  for (int i = 0; i <= programs; ++i) ASSERT_EQ(chain[i], i);
  // The spin lock (atomic_cas acquire, exch release) made every plain increment count.
  EXPECT_EQ(run.locked_count, programs);
  EXPECT_EQ(run.lock, 0);
}

TEST(TritonAtomicsTest, ManyProgramsOnFewAddressesFromOneToEightThreads) {
  for (int threads = 1; threads <= 8; ++threads) {
    ASSERT_EQ(tcpu_set_num_threads(threads), TCPU_OK);
    for (int active : {16, 11, 0}) {
      // 64 programs: each slot's bf16 sum reaches 256, the last exact integer of bf16.
      for (int programs : {1, 7, 64}) {
        SCOPED_TRACE(std::to_string(threads) + " threads, " + std::to_string(programs) +
                     " programs, " + std::to_string(active) + " active lanes");
        Buffers run(programs);
        ASSERT_EQ(run.Launch(programs, active), TCPU_OK);
        ExpectTotals(run, programs, active);
      }
    }
  }
  ASSERT_EQ(tcpu_set_num_threads(1), TCPU_OK);
}

// The kernel is also compiled for Armv8.2 (dotprod implies it), whose atomics are LSE
// instructions; CPUs without dotprod run the baseline's LDXR/STXR loops.
TEST(TritonAtomicsTest, RunsLseWhereTheCpuHasIt) {
  const char* features = std::getenv("TCPU_EXPECT_FEATURES");
  if (features == nullptr) GTEST_SKIP() << "not run by the QEMU matrix";
  const std::string list = std::string(",") + features + ",";
  const std::string variant = list.find(",dotprod,") != std::string::npos ? "dotprod" : "baseline";
  EXPECT_EQ(tcpu_variant_atomic_kernel(), "atomic_kernel:" + variant);
}

}  // namespace
