// Which CPUs the thread pool should use: the fastest cluster of the CPUs this process may
// run on, read from sysfs, so that little cores of a big.LITTLE SoC never join a barrier.
#ifndef TCPU_RUNTIME_CPU_TOPOLOGY_H_
#define TCPU_RUNTIME_CPU_TOPOLOGY_H_

#include <cstdint>
#include <string>
#include <vector>

namespace tcpu {

struct CpuDescription {
  int id = -1;
  int64_t capacity = -1;      // cpu_capacity (arm64 DT/ACPI), -1 if absent
  int64_t max_freq_khz = -1;  // cpufreq/cpuinfo_max_freq, -1 if absent
  int midr_part = -1;         // MIDR_EL1 part number, -1 if absent
};

inline constexpr const char* kSysfsCpuRoot = "/sys/devices/system/cpu";

// Reads the description of each CPU in `cpus` from `root` (normally kSysfsCpuRoot).
std::vector<CpuDescription> ReadCpuDescriptions(const std::string& root,
                                                const std::vector<int>& cpus);

// The ids of the fastest cluster: the highest cpu_capacity if every CPU reports one, else
// the highest cpuinfo_max_freq, else (by MIDR part) every CPU that is not a known
// little core, else all of them. Sorted ascending.
std::vector<int> FastestCluster(const std::vector<CpuDescription>& cpus);

// Parses a CPU list such as "0,1,6-7" (sorted, duplicates removed). On error returns false
// and says what was wrong in *error.
bool ParseCpuList(const std::string& text, std::vector<int>* cpus, std::string* error);

// The CPUs this process may run on (sched_getaffinity), ascending.
std::vector<int> AllowedCpus();

}  // namespace tcpu

#endif  // TCPU_RUNTIME_CPU_TOPOLOGY_H_
