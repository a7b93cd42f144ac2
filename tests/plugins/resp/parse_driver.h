// Test drivers for plinth::resp::Parser: parse a whole byte stream, or feed it in pieces the
// way the host does (same prefix plus new bytes, buffer possibly moved), and record events.
#ifndef PLINTH_TESTS_PLUGINS_RESP_PARSE_DRIVER_H
#define PLINTH_TESTS_PLUGINS_RESP_PARSE_DRIVER_H

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "resp/parser.h"

namespace plinth::resp::test {

// One outcome of the parser: a request (args), a skipped span (consumed), an error (text), or
// the stream ending inside a request (kNeedMore, always last).
struct Event {
  ParseStatus status;
  std::vector<std::string> args;
  std::string error;
  size_t consumed = 0;
  bool operator==(const Event& o) const {
    return status == o.status && args == o.args && error == o.error && consumed == o.consumed;
  }
};

inline std::ostream& operator<<(std::ostream& os, const Event& e) {
  static const char* kNames[] = {"ok", "need-more", "error", "empty"};
  os << kNames[static_cast<int>(e.status)] << "(" << e.consumed;
  for (const auto& a : e.args) os << " [" << a << "]";
  if (!e.error.empty()) os << " " << e.error;
  return os << ")";
}

inline std::ostream& operator<<(std::ostream& os, const std::vector<Event>& events) {
  for (const Event& e : events) os << e << " ";
  return os;
}

// Runs one Parse call on buf and turns its result into an event; returns false once the
// parser needs more bytes (the event is then not recorded).
inline bool Step(Parser& p, const char* buf, size_t len, const ParseLimits& limits,
                 std::vector<Event>* events, size_t* consumed) {
  const ParseResult r = p.Parse(buf, len, limits);
  *consumed = r.consumed;
  if (r.status == ParseStatus::kNeedMore) return false;
  Event e{r.status, {}, {}, r.consumed};
  if (r.status == ParseStatus::kOk) {
    for (int i = 0; i < p.argc(); i++) e.args.emplace_back(p.argv()[i], p.argvlen()[i]);
  }
  if (r.status == ParseStatus::kError) e.error = p.error();
  events->push_back(std::move(e));
  return r.status != ParseStatus::kError;
}

// Parses the whole stream with one buffer.
inline std::vector<Event> ParseWhole(std::string_view stream, const ParseLimits& limits = {}) {
  Parser p;
  std::vector<Event> events;
  size_t off = 0;
  for (;;) {
    size_t used = 0;
    if (!Step(p, stream.data() + off, stream.size() - off, limits, &events, &used)) {
      if (!events.empty() && events.back().status == ParseStatus::kError) return events;
      break;
    }
    off += used;
  }
  if (off < stream.size()) events.push_back(Event{ParseStatus::kNeedMore, {}, {}, 0});
  return events;
}

// Feeds the stream cut at the given offsets (ascending). With move_buffer every call sees the
// pending bytes at a fresh address, as after a host buffer reallocation or compaction.
inline std::vector<Event> ParseInPieces(std::string_view stream, const std::vector<size_t>& cuts,
                                        bool move_buffer, const ParseLimits& limits = {}) {
  Parser p;
  std::vector<Event> events;
  std::string pending;
  size_t fed = 0;
  std::vector<size_t> ends = cuts;
  ends.push_back(stream.size());
  for (size_t end : ends) {
    if (end <= fed) continue;
    pending.append(stream.substr(fed, end - fed));
    fed = end;
    for (;;) {
      if (move_buffer) pending = std::string(pending.data(), pending.size());
      size_t used = 0;
      if (!Step(p, pending.data(), pending.size(), limits, &events, &used)) {
        if (!events.empty() && events.back().status == ParseStatus::kError) return events;
        break;
      }
      pending.erase(0, used);
    }
  }
  if (!pending.empty()) events.push_back(Event{ParseStatus::kNeedMore, {}, {}, 0});
  return events;
}

// Feeds the stream one byte at a time without moving the buffer.
inline std::vector<Event> ParseByteByByte(std::string_view stream, const ParseLimits& limits = {}) {
  std::vector<size_t> cuts;
  for (size_t i = 1; i < stream.size(); i++) cuts.push_back(i);
  return ParseInPieces(stream, cuts, false, limits);
}

// The single event of a stream that must produce exactly one.
inline Event ParseOne(std::string_view stream, const ParseLimits& limits = {}) {
  Parser p;
  std::vector<Event> events;
  size_t used = 0;
  if (!Step(p, stream.data(), stream.size(), limits, &events, &used) && events.empty()) {
    return Event{ParseStatus::kNeedMore, {}, {}, 0};
  }
  return events.front();
}

inline std::string Multibulk(const std::vector<std::string>& args) {
  std::string s = "*" + std::to_string(args.size()) + "\r\n";
  for (const auto& a : args) s += "$" + std::to_string(a.size()) + "\r\n" + a + "\r\n";
  return s;
}

}  // namespace plinth::resp::test

#endif  // PLINTH_TESTS_PLUGINS_RESP_PARSE_DRIVER_H
