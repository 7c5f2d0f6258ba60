#include "tests/triton_replay/corpus_index.h"

#include <fstream>
#include <map>
#include <set>

#include "tests/triton_replay/json_file.h"

namespace tcpu::replay {
namespace {

constexpr int kFormat = 1;

std::string StringField(const nlohmann::json& object, const char* name) {
  if (!object.is_object() || !object.contains(name) || !object.at(name).is_string()) return "";
  return object.at(name).get<std::string>();
}

// The ids a slice file lists, in order, each once.
bool ReadSlice(const std::string& path, std::vector<std::string>* ids, std::string* error) {
  std::ifstream file(path);
  if (!file) {
    *error = path + ": cannot open the slice file";
    return false;
  }
  std::set<std::string> seen;
  std::string line;
  while (std::getline(file, line)) {
    line = line.substr(0, line.find('#'));
    const size_t begin = line.find_first_not_of(" \t\r");
    if (begin == std::string::npos) continue;
    const size_t end = line.find_last_not_of(" \t\r");
    std::string id = line.substr(begin, end - begin + 1);
    if (seen.insert(id).second) ids->push_back(id);
  }
  return true;
}

}  // namespace

bool ReadCorpusIndex(const std::string& corpus, const std::string& slice,
                     std::vector<LaunchEntry>* launches, std::string* error) {
  nlohmann::json manifest;
  std::string reason;
  if (!ReadJsonFile(corpus + "/manifest.json", &manifest, &reason)) {
    *error = "manifest.json: " + reason;
    return false;
  }
  if (!manifest.is_object() || !manifest.contains("format") || manifest["format"] != kFormat) {
    *error =
        "manifest.json: format: expected " + std::to_string(kFormat) + ", got " +
        (manifest.is_object() && manifest.contains("format") ? manifest["format"].dump() : "none");
    return false;
  }
  if (!manifest.contains("launches") || !manifest["launches"].is_array()) {
    *error = "manifest.json: launches: expected a list";
    return false;
  }
  std::vector<LaunchEntry> all;
  std::map<std::string, size_t> by_id;
  const nlohmann::json& list = manifest["launches"];
  for (size_t i = 0; i < list.size(); ++i) {
    LaunchEntry entry;
    const std::string where = "manifest.json: launches[" + std::to_string(i) + "]";
    entry.id = StringField(list[i], "id");
    entry.kernel = StringField(list[i], "kernel");
    entry.record = StringField(list[i], "record");
    if (entry.kernel.empty()) entry.kernel = "?";
    if (entry.id.empty()) {
      entry.id = "launches[" + std::to_string(i) + "]";
      entry.error = where + ".id: missing or not a string";
    } else if (by_id.count(entry.id) != 0) {
      entry.error = where + ".id: \"" + entry.id + "\" is also the id of launches[" +
                    std::to_string(by_id[entry.id]) + "]";
    } else if (entry.record.empty()) {
      entry.error = where + ".record: missing or not a string";
    }
    by_id.emplace(entry.id, i);
    all.push_back(entry);
  }
  if (slice.empty()) {
    *launches = std::move(all);
    return true;
  }
  std::vector<std::string> ids;
  if (!ReadSlice(slice, &ids, error)) return false;
  launches->clear();
  for (const std::string& id : ids) {
    auto found = by_id.find(id);
    if (found != by_id.end()) {
      launches->push_back(all[found->second]);
    } else {
      launches->push_back({id, "?", "", "launch " + id + " of the slice is not in manifest.json"});
    }
  }
  return true;
}

}  // namespace tcpu::replay
