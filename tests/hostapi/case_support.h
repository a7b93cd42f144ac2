// Helpers shared by the host-API cases: HOSTAPI_CASE runs one body against a fresh FakeTarget
// and a fresh ServerTarget (doctest names them "<case><fake>" and "<case><server>"), and small
// readers for replies, the probe's stream record and INFO fields. Test thread only.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "target.h"

TYPE_TO_STRING_AS("fake", plinth::hostapi::FakeTarget);
TYPE_TO_STRING_AS("server", plinth::hostapi::ServerTarget);

// A case that runs against both hosts. In its body, T is the target type; make one with
// `T t;` (each run gets a fresh host).
#define HOSTAPI_CASE(name) \
  TEST_CASE_TEMPLATE(name, T, plinth::hostapi::FakeTarget, plinth::hostapi::ServerTarget)

namespace plinth::hostapi {

// The reply as redis-cli prints it: OK, "v", (integer) 1, (nil), 1) "a"\n2) "b", (error) ...
inline std::string Run(Target& t, const std::vector<std::string>& argv) {
  return t.Call(argv).ToString();
}

// What the probe's stream consumer saw since the last call, one "db argv..." entry per effect
// joined by " | " ("0 SET k v | 0 DEL k"); "" when nothing was propagated.
inline std::string Stream(Target& t) {
  Reply r = t.Call({"PROBE.STREAM"});
  if (r.type != ReplyType::kArray) return "not an array: " + r.ToString();
  std::string out;
  for (const Reply& entry : r.elements) {
    if (!out.empty()) out += " | ";
    std::string line;
    for (const Reply& item : entry.elements) {
      if (!line.empty()) line += ' ';
      line += item.type == ReplyType::kInteger ? std::to_string(item.integer) : item.str;
    }
    out += line;
  }
  return out;
}

// The strings of an array reply, sorted (KEYS and SCAN order is the hash table's).
inline std::string SortedStrings(const Reply& r) {
  if (r.type != ReplyType::kArray) return "not an array: " + r.ToString();
  std::vector<std::string> items;
  for (const Reply& e : r.elements) items.push_back(e.str);
  std::sort(items.begin(), items.end());
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : " ") + s;
  return out;
}

// The value of field in INFO <section>, or "(absent)".
inline std::string InfoField(Target& t, const std::string& section, const std::string& field) {
  const std::string text = "\r\n" + t.Call({"INFO", section}).str;
  const std::string key = "\r\n" + field + ":";
  size_t at = text.find(key);
  if (at == std::string::npos) return "(absent)";
  size_t start = at + key.size();
  return text.substr(start, text.find("\r\n", start) - start);
}

// One "what=result" entry of PROBE.INIT, or "(absent)".
inline std::string InitResult(Target& t, const std::string& what) {
  Reply r = t.Call({"PROBE.INIT"});
  for (const Reply& e : r.elements)
    if (e.str.compare(0, what.size() + 1, what + "=") == 0) return e.str.substr(what.size() + 1);
  return "(absent)";
}

}  // namespace plinth::hostapi
