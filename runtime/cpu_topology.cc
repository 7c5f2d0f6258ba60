#include "runtime/cpu_topology.h"

#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fstream>

namespace tcpu {
namespace {

// Reads the first token of a sysfs file as an integer (base 0: "0x..." MIDRs work).
bool ReadInteger(const std::string& path, int64_t* value) {
  std::ifstream in(path);
  std::string text;
  if (!(in >> text)) return false;
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 0);
  if (errno != 0 || end == text.c_str() || *end != '\0') return false;
  *value = v;
  return true;
}

// Arm's little (in-order, efficiency) cores, by MIDR part number.
bool IsLittleCorePart(int part) {
  switch (part) {
    case 0xd01:  // Cortex-A32
    case 0xd03:  // Cortex-A53
    case 0xd04:  // Cortex-A35
    case 0xd05:  // Cortex-A55
    case 0xd46:  // Cortex-A510
    case 0xd80:  // Cortex-A520
      return true;
    default:
      return false;
  }
}

}  // namespace

std::vector<CpuDescription> ReadCpuDescriptions(const std::string& root,
                                                const std::vector<int>& cpus) {
  std::vector<CpuDescription> out;
  for (int id : cpus) {
    CpuDescription d;
    d.id = id;
    const std::string dir = root + "/cpu" + std::to_string(id);
    int64_t value = 0;
    if (ReadInteger(dir + "/cpu_capacity", &value)) d.capacity = value;
    if (ReadInteger(dir + "/cpufreq/cpuinfo_max_freq", &value)) d.max_freq_khz = value;
    if (ReadInteger(dir + "/regs/identification/midr_el1", &value)) {
      d.midr_part = static_cast<int>((value >> 4) & 0xfff);
    }
    out.push_back(d);
  }
  return out;
}

std::vector<int> FastestCluster(const std::vector<CpuDescription>& cpus) {
  std::vector<int> ids;
  if (cpus.empty()) return ids;
  auto all_have = [&](auto field) {
    return std::all_of(cpus.begin(), cpus.end(),
                       [&](const CpuDescription& d) { return d.*field >= 0; });
  };
  auto best_by = [&](auto field) {
    int64_t best = -1;
    for (const CpuDescription& d : cpus) best = std::max<int64_t>(best, d.*field);
    for (const CpuDescription& d : cpus) {
      if (d.*field == best) ids.push_back(d.id);
    }
  };
  if (all_have(&CpuDescription::capacity)) {
    best_by(&CpuDescription::capacity);
  } else if (all_have(&CpuDescription::max_freq_khz)) {
    best_by(&CpuDescription::max_freq_khz);
  } else {
    for (const CpuDescription& d : cpus) {
      if (!IsLittleCorePart(d.midr_part)) ids.push_back(d.id);
    }
    if (ids.empty()) {  // Only little cores: use them all.
      for (const CpuDescription& d : cpus) ids.push_back(d.id);
    }
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

bool ParseCpuList(const std::string& text, std::vector<int>* cpus, std::string* error) {
  cpus->clear();
  constexpr long kMaxCpu = 4095;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(start, end - start);
    start = end + 1;
    const size_t dash = item.find('-');
    const std::string first = item.substr(0, dash);
    const std::string last = dash == std::string::npos ? first : item.substr(dash + 1);
    auto parse = [&](const std::string& s, long* v) {
      if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos) return false;
      *v = std::strtol(s.c_str(), nullptr, 10);
      return *v <= kMaxCpu;
    };
    long lo = 0, hi = 0;
    if (!parse(first, &lo) || !parse(last, &hi) || lo > hi) {
      *error = "'" + item + "' in '" + text + "' is not a CPU id or range (e.g. 0,1,6-7; ids 0.." +
               std::to_string(kMaxCpu) + ")";
      return false;
    }
    for (long id = lo; id <= hi; ++id) cpus->push_back(static_cast<int>(id));
  }
  std::sort(cpus->begin(), cpus->end());
  cpus->erase(std::unique(cpus->begin(), cpus->end()), cpus->end());
  return true;
}

std::vector<int> AllowedCpus() {
  std::vector<int> ids;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return ids;
  for (int id = 0; id < CPU_SETSIZE; ++id) {
    if (CPU_ISSET(id, &set)) ids.push_back(id);
  }
  return ids;
}

}  // namespace tcpu
