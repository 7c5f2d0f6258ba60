// IntegerKeyMap (the BPE model's character and merge tables) against std::map on keys that
// collide in the low bits, across growth: every key found with its first value, absent keys not.
#include "engine/tokenizer/integer_key_map.h"

#include <cstdint>
#include <map>

#include "gtest/gtest.h"

namespace tcpu::tokenizer {
namespace {

TEST(IntegerKeyMapTest, FindsEveryKeyAcrossGrowthAndKeepsTheFirstValue) {
  IntegerKeyMap<uint64_t, int32_t> map;
  EXPECT_EQ(map.Find(7), nullptr);  // empty: no table yet
  std::map<uint64_t, int32_t> expected;
  for (int32_t i = 0; i < 5000; ++i) {
    // Pairs of ids as the merge table keys them, many sharing a left id; key 0 included.
    const uint64_t key = (static_cast<uint64_t>(i % 37) << 32) | static_cast<uint32_t>(i * 3);
    const bool added = map.Insert(key, i);
    EXPECT_EQ(added, expected.emplace(key, i).second) << key;
  }
  EXPECT_FALSE(map.Insert(0, -1));  // present: keeps its first value
  EXPECT_EQ(map.size(), expected.size());
  for (const auto& [key, value] : expected) {
    const int32_t* found = map.Find(key);
    ASSERT_NE(found, nullptr) << key;
    EXPECT_EQ(*found, value) << key;
  }
  for (uint64_t key = 1; key < 3000; key += 3) {
    if (expected.count(key) == 0) EXPECT_EQ(map.Find(key), nullptr) << key;
  }
  map.Clear();
  EXPECT_EQ(map.size(), 0u);
  EXPECT_EQ(map.Find(0), nullptr);
}

TEST(IntegerKeyMapTest, ReserveKeepsWhatIsThere) {
  IntegerKeyMap<uint32_t, int32_t> map;
  ASSERT_TRUE(map.Insert(0x4E16, 1));  // a code point, as the character table keys them
  map.Reserve(100000);
  ASSERT_NE(map.Find(0x4E16), nullptr);
  EXPECT_EQ(*map.Find(0x4E16), 1);
  EXPECT_EQ(map.Find(0x4E17), nullptr);
}

}  // namespace
}  // namespace tcpu::tokenizer
