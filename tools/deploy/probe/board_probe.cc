// tcpu-board-probe: prints what tcpu-board needs to know about a board as one JSON object on
// stdout: CPU features (HWCAP/HWCAP2), SVE vector length, the cores with their cluster facts
// and governor, memory, kernel and libc. Static, so it runs on any aarch64 Linux.
//
// Usage: tcpu-board-probe [--sysfs-root DIR]   (DIR replaces /sys, e.g. a fake tree in tests)
#include <gnu/libc-version.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/utsname.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "runtime/cpu_topology.h"

namespace {

// Linux arm64 HWCAP/HWCAP2 bits (arch/arm64/include/uapi/asm/hwcap.h), named as in
// /proc/cpuinfo. Listed here so the probe reports the same names on any kernel headers.
struct FeatureBit {
  const char* name;
  int bit;
};
constexpr FeatureBit kHwcap[] = {
    {"fp", 0},       {"asimd", 1},    {"aes", 3},      {"pmull", 4},     {"sha1", 5},
    {"sha2", 6},     {"crc32", 7},    {"atomics", 8},  {"fphp", 9},      {"asimdhp", 10},
    {"asimdrdm", 12}, {"jscvt", 13},  {"fcma", 14},    {"lrcpc", 15},    {"dcpop", 16},
    {"sha3", 17},    {"sm3", 18},     {"sm4", 19},     {"asimddp", 20},  {"sha512", 21},
    {"sve", 22},     {"asimdfhm", 23}, {"dit", 24},    {"uscat", 25},    {"ilrcpc", 26},
    {"flagm", 27},   {"ssbs", 28},    {"sb", 29},      {"paca", 30},     {"pacg", 31},
};
constexpr FeatureBit kHwcap2[] = {
    {"dcpodp", 0},   {"sve2", 1},     {"sveaes", 2},   {"svepmull", 3},  {"svebitperm", 4},
    {"svesha3", 5},  {"svesm4", 6},   {"flagm2", 7},   {"frint", 8},     {"svei8mm", 9},
    {"svef32mm", 10}, {"svef64mm", 11}, {"svebf16", 12}, {"i8mm", 13},   {"bf16", 14},
    {"dgh", 15},     {"rng", 16},     {"bti", 17},     {"mte", 18},      {"ecv", 19},
    {"afp", 20},     {"rpres", 21},   {"mte3", 22},    {"sme", 23},
};

std::string JsonString(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c >= 0x7f) {  // Keeps the output ASCII whatever a file holds.
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

// The first line of a (sysfs) file without its newline, or "" if unreadable.
std::string ReadFirstLine(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!std::getline(in, line)) return "";
  return line;
}

std::string FeatureList(unsigned long bits, const FeatureBit* table, size_t count) {
  std::string out = "[";
  bool first = true;
  for (size_t i = 0; i < count; ++i) {
    if (bits & (1ul << table[i].bit)) {
      out += (first ? "" : ", ") + JsonString(table[i].name);
      first = false;
    }
  }
  return out + "]";
}

// "CPU part" per "processor" of /proc/cpuinfo (aarch64 kernels), as printed (e.g. "0xd81").
std::map<int, std::string> CpuinfoParts() {
  std::map<int, std::string> parts;
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  int processor = -1;
  while (std::getline(in, line)) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, colon);
    while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) key.pop_back();
    std::string value = line.substr(colon + 1);
    while (!value.empty() && value.front() == ' ') value.erase(0, 1);
    if (key == "processor") {
      processor = std::atoi(value.c_str());
    } else if (key == "CPU part" && processor >= 0) {
      parts[processor] = value;
    }
  }
  return parts;
}

long long MemTotalKb() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  long long value = 0;
  while (in >> key >> value) {
    if (key == "MemTotal:") return value;
    in.ignore(1 << 12, '\n');
  }
  return -1;
}

// The system C library's version string, found in the board's libc.so.6 ("... release
// version 2.36."); the probe itself is static, so gnu_get_libc_version() is the SDK's.
std::string SystemLibcVersion() {
  const char* candidates[] = {"/lib/aarch64-linux-gnu/libc.so.6", "/lib64/libc.so.6",
                              "/usr/lib/libc.so.6", "/lib/libc.so.6"};
  for (const char* path : candidates) {
    std::ifstream in(path, std::ios::binary);
    if (!in) continue;
    std::ostringstream data;
    data << in.rdbuf();
    const std::string text = data.str();
    const std::string marker = "release version ";
    const size_t at = text.find(marker);
    if (at == std::string::npos) continue;
    size_t end = at + marker.size();
    while (end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) ||
                                 text[end] == '.')) {
      ++end;
    }
    std::string version = text.substr(at + marker.size(), end - at - marker.size());
    while (!version.empty() && version.back() == '.') version.pop_back();
    return "glibc " + version + " (" + path + ")";
  }
  return "";
}

// The CPUs listed in <cpu_root>/possible ("0-11"), else cpu0.. while the folders exist.
std::vector<int> PossibleCpus(const std::string& cpu_root) {
  std::vector<int> cpus;
  std::string error;
  const std::string possible = ReadFirstLine(cpu_root + "/possible");
  if (!possible.empty() && tcpu::ParseCpuList(possible, &cpus, &error)) return cpus;
  cpus.clear();
  for (int id = 0; id < 4096; ++id) {
    std::ifstream probe(cpu_root + "/cpu" + std::to_string(id) + "/uevent");
    std::ifstream online(cpu_root + "/cpu" + std::to_string(id) + "/cpu_capacity");
    if (!probe && !online) break;
    cpus.push_back(id);
  }
  return cpus;
}

int Usage(const char* message) {
  std::fprintf(stderr, "tcpu-board-probe: %s\nusage: tcpu-board-probe [--sysfs-root DIR]\n",
               message);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string sysfs_root = "/sys";
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--sysfs-root") == 0 && i + 1 < argc) {
      sysfs_root = argv[++i];
    } else {
      return Usage((std::string("unknown argument '") + argv[i] + "'").c_str());
    }
  }
  const std::string cpu_root = sysfs_root + "/devices/system/cpu";
  const std::vector<int> cpus = PossibleCpus(cpu_root);
  const std::vector<tcpu::CpuDescription> described = tcpu::ReadCpuDescriptions(cpu_root, cpus);
  const std::vector<int> fastest = tcpu::FastestCluster(described);
  const std::map<int, std::string> parts = CpuinfoParts();

  const unsigned long hwcap = getauxval(AT_HWCAP);
  const unsigned long hwcap2 = getauxval(AT_HWCAP2);
  constexpr int kPrSveGetVl = 51;  // PR_SVE_GET_VL; the low 16 bits are the VL in bytes.
  const int vl = (hwcap & (1ul << 22)) ? prctl(kPrSveGetVl) : -1;
  struct utsname uts {};
  uname(&uts);

  std::string out = "{\n";
  out += "  \"schema\": \"tcpu-board-probe/1\",\n";
  out += "  \"sysfs_root\": " + JsonString(sysfs_root) + ",\n";
  out += "  \"hwcap\": " + std::to_string(hwcap) + ",\n";
  out += "  \"hwcap2\": " + std::to_string(hwcap2) + ",\n";
  out += "  \"features\": " + FeatureList(hwcap, kHwcap, sizeof(kHwcap) / sizeof(kHwcap[0])) +
         ",\n";
  out += "  \"features2\": " +
         FeatureList(hwcap2, kHwcap2, sizeof(kHwcap2) / sizeof(kHwcap2[0])) + ",\n";
  out += "  \"sve_vl_bits\": " + std::to_string(vl >= 0 ? (vl & 0xffff) * 8 : 0) + ",\n";
  out += "  \"cpus\": [";
  for (size_t i = 0; i < described.size(); ++i) {
    const tcpu::CpuDescription& d = described[i];
    const std::string dir = cpu_root + "/cpu" + std::to_string(d.id);
    const auto part = parts.find(d.id);
    out += std::string(i ? ",\n" : "\n") + "    {\"id\": " + std::to_string(d.id) +
           ", \"capacity\": " + std::to_string(d.capacity) +
           ", \"max_freq_khz\": " + std::to_string(d.max_freq_khz) +
           ", \"midr_part\": " + std::to_string(d.midr_part) +
           ", \"cpuinfo_part\": " + JsonString(part == parts.end() ? "" : part->second) +
           ", \"governor\": " + JsonString(ReadFirstLine(dir + "/cpufreq/scaling_governor")) +
           "}";
  }
  out += "\n  ],\n  \"fastest_cluster\": [";
  for (size_t i = 0; i < fastest.size(); ++i) {
    out += (i ? ", " : "") + std::to_string(fastest[i]);
  }
  out += "],\n";
  out += "  \"mem_total_kb\": " + std::to_string(MemTotalKb()) + ",\n";
  out += "  \"uname\": {\"sysname\": " + JsonString(uts.sysname) +
         ", \"release\": " + JsonString(uts.release) +
         ", \"version\": " + JsonString(uts.version) +
         ", \"machine\": " + JsonString(uts.machine) + "},\n";
  out += "  \"libc_system\": " + JsonString(SystemLibcVersion()) + ",\n";
  out += "  \"libc_sdk\": " + JsonString(std::string("glibc ") + gnu_get_libc_version()) + "\n";
  out += "}\n";
  std::fputs(out.c_str(), stdout);
  return std::ferror(stdout) ? 1 : 0;
}
