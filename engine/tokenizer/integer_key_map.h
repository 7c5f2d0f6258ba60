// A hash map from unsigned integer keys to small values for the BPE model's encode path (the
// id of a character, the merge of a pair of ids): open addressing over one flat array (linear
// probing, a power-of-two capacity at most half full, Fibonacci hashing), filled at load and
// then only read. std::unordered_map, the standard alternative now that the tokenizer cannot
// use Debian's abseil (see bpe_model.h), chases a node and divides by a prime on every lookup;
// encoding ran 25-50% slower with it.
#ifndef TCPU_ENGINE_TOKENIZER_INTEGER_KEY_MAP_H_
#define TCPU_ENGINE_TOKENIZER_INTEGER_KEY_MAP_H_

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace tcpu::tokenizer {

template <typename Key, typename Value>
class IntegerKeyMap {
  static_assert(std::is_unsigned_v<Key> && sizeof(Key) <= 8, "keys are unsigned integers");

 public:
  void Clear() {
    slots_.clear();
    size_ = 0;
  }

  // Room for n keys without growing.
  void Reserve(size_t n) {
    if (2 * n > slots_.size()) Rehash(CapacityFor(n));
  }

  // Adds key -> value; a key already present keeps its value (false is returned).
  bool Insert(Key key, const Value& value) {
    if (2 * (size_ + 1) > slots_.size()) Rehash(CapacityFor(size_ + 1));
    Slot& slot = slots_[Probe(key)];
    if (slot.used) return false;
    slot = Slot{key, value, true};
    ++size_;
    return true;
  }

  // The value of `key`, or nullptr.
  const Value* Find(Key key) const {
    if (slots_.empty()) return nullptr;
    const Slot& slot = slots_[Probe(key)];
    return slot.used ? &slot.value : nullptr;
  }

  size_t size() const { return size_; }

 private:
  struct Slot {
    Key key;
    Value value;
    bool used;
  };

  static size_t CapacityFor(size_t n) {
    size_t capacity = 16;
    while (capacity < 2 * n) capacity *= 2;
    return capacity;
  }

  // The slot holding `key`, or the empty slot where it would go (the table is never full).
  size_t Probe(Key key) const {
    const size_t mask = slots_.size() - 1;
    // Fibonacci hashing: the high bits of key * 2^64/phi, so ids that differ in low bits only
    // (neighbouring ids, pairs sharing a left id) spread over the table.
    size_t index =
        static_cast<size_t>((static_cast<uint64_t>(key) * 0x9E3779B97F4A7C15ull) >> (64 - shift_));
    while (slots_[index].used && slots_[index].key != key) index = (index + 1) & mask;
    return index;
  }

  void Rehash(size_t capacity) {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(capacity, Slot{0, Value{}, false});
    shift_ = 0;
    while ((size_t{1} << shift_) < capacity) ++shift_;
    for (const Slot& slot : old) {
      if (slot.used) slots_[Probe(slot.key)] = slot;
    }
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
  int shift_ = 0;  // log2 of the capacity
};

}  // namespace tcpu::tokenizer

#endif  // TCPU_ENGINE_TOKENIZER_INTEGER_KEY_MAP_H_
