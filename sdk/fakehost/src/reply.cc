// Reply trees: building them from reply_* calls and rendering them like redis-cli.
// Main thread (the test's thread).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <plinth/text.hpp>

#include "reply_builder.h"

namespace plinth::fakehost {
namespace {

bool IsAggregate(ReplyType t) {
  return t == ReplyType::kArray || t == ReplyType::kMap || t == ReplyType::kSet ||
         t == ReplyType::kPush;
}

std::string Render(const Reply& r, size_t indent);

// An aggregate: one numbered line per element ("1) ", "1~ ", "1# k => "), nested aggregates
// continuing on the same line and indented under their first element.
std::string RenderAggregate(const Reply& r, size_t indent) {
  const bool map = r.type == ReplyType::kMap;
  const size_t count = map ? r.elements.size() / 2 : r.elements.size();
  if (count == 0) {
    switch (r.type) {
      case ReplyType::kMap:
        return "(empty hash)";
      case ReplyType::kSet:
        return "(empty set)";
      default:
        return "(empty array)";
    }
  }
  const char* mark = map ? "# " : r.type == ReplyType::kSet ? "~ " : ") ";
  const int width = static_cast<int>(std::to_string(count).size());
  std::string out;
  for (size_t i = 0; i < count; ++i) {
    char idx[32];
    std::snprintf(idx, sizeof idx, "%*zu%s", width, i + 1, mark);
    std::string prefix = idx;
    if (i > 0) out.append(1, '\n').append(indent, ' ');
    if (map) {
      std::string key = Render(r.elements[2 * i], indent + prefix.size());
      prefix += key + " => ";
      out += prefix + Render(r.elements[2 * i + 1], indent + prefix.size());
    } else {
      out += prefix + Render(r.elements[i], indent + prefix.size());
    }
  }
  return out;
}

std::string Render(const Reply& r, size_t indent) {
  switch (r.type) {
    case ReplyType::kSimple:
      return r.str;
    case ReplyType::kError:
      return "(error) " + r.str;
    case ReplyType::kInteger:
      return "(integer) " + std::to_string(r.integer);
    case ReplyType::kBulk:
    case ReplyType::kVerbatim:
      return text::QuoteRepr(r.str);
    case ReplyType::kNull:
    case ReplyType::kNullArray:
      return "(nil)";
    case ReplyType::kDouble:
      return "(double) " + FormatDouble(r.dbl);
    case ReplyType::kBool:
      return r.integer ? "(true)" : "(false)";
    case ReplyType::kBigNumber:
      return "(big number) " + r.str;
    default:
      return IsAggregate(r.type) ? RenderAggregate(r, indent) : "(unknown reply)";
  }
}

}  // namespace

std::string FormatDouble(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

std::string Reply::ToString() const { return Render(*this, 0); }

void ReplyBuilder::Add(Reply item, int64_t children) {
  const bool aggregate = IsAggregate(item.type);
  if (children < 0 || !aggregate) children = 0;
  if (aggregate) item.elements.reserve(static_cast<size_t>(children < 1024 ? children : 1024));
  Reply* placed;
  if (open_.empty()) {
    top_.push_back(std::move(item));
    placed = &top_.back();
  } else {
    Reply* parent = open_.back().first;
    parent->elements.push_back(std::move(item));
    placed = &parent->elements.back();
    --open_.back().second;
  }
  // Children are complete before their parent's next sibling is added, so pointers into
  // elements stay valid while they are on the stack.
  if (children > 0) open_.emplace_back(placed, children);
  while (!open_.empty() && open_.back().second == 0) open_.pop_back();
}

bool ReplyBuilder::TakeComplete(Reply* out) {
  if (!open_.empty() || top_.empty()) return false;
  *out = std::move(top_.front());
  top_.erase(top_.begin());
  return true;
}

bool ReplyBuilder::Finish(Reply* out, std::string* problem) {
  if (!open_.empty()) {
    *problem =
        "an aggregate reply is missing " + std::to_string(open_.back().second) + " element(s)";
    return false;
  }
  if (top_.size() != 1) {
    *problem = top_.empty() ? "no reply" : std::to_string(top_.size()) + " replies instead of one";
    return false;
  }
  *out = std::move(top_.front());
  top_.clear();
  return true;
}

}  // namespace plinth::fakehost
