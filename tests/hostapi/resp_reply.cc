// RESP parsing into Reply trees and the RESP2 view of fake-host replies.
#include "resp_reply.h"

#include <cstdlib>
#include <string>

namespace plinth::hostapi {
namespace {

class Parser {
 public:
  explicit Parser(std::string_view d) : d_(d) {}

  bool Next(Reply* out) {
    if (pos_ >= d_.size()) return false;
    char kind = d_[pos_];
    size_t eol = d_.find("\r\n", pos_);
    if (eol == std::string_view::npos) return false;
    std::string head(d_.substr(pos_ + 1, eol - pos_ - 1));
    pos_ = eol + 2;
    long long n = std::atoll(head.c_str());
    switch (kind) {
      case '+':
        return Text(ReplyType::kSimple, head, out);
      case '-':
        return Text(ReplyType::kError, head, out);
      case '(':
        return Text(ReplyType::kBigNumber, head, out);
      case ':':
        out->type = ReplyType::kInteger;
        out->integer = n;
        return true;
      case '#':
        out->type = ReplyType::kBool;
        out->integer = head == "t" ? 1 : 0;
        return true;
      case ',':
        out->type = ReplyType::kDouble;
        out->dbl = std::strtod(head.c_str(), nullptr);
        return true;
      case '_':
        out->type = ReplyType::kNull;
        return true;
      case '$':
      case '=':
      case '!':
        return Blob(kind, n, out);
      case '*':
      case '~':
      case '>':
      case '%':
        return Aggregate(kind, n, out);
      default:
        return false;
    }
  }

 private:
  static bool Text(ReplyType type, const std::string& s, Reply* out) {
    out->type = type;
    out->str = s;
    return true;
  }

  bool Blob(char kind, long long n, Reply* out) {
    if (n < 0) {
      out->type = ReplyType::kNull;
      return true;
    }
    if (pos_ + static_cast<size_t>(n) + 2 > d_.size()) return false;
    std::string body(d_.substr(pos_, static_cast<size_t>(n)));
    pos_ += static_cast<size_t>(n) + 2;
    out->type = kind == '$'   ? ReplyType::kBulk
                : kind == '!' ? ReplyType::kError
                              : ReplyType::kVerbatim;
    if (kind == '=' && body.size() >= 4) {
      out->format = body.substr(0, 3);
      body.erase(0, 4);
    }
    out->str = std::move(body);
    return true;
  }

  bool Aggregate(char kind, long long n, Reply* out) {
    if (n < 0) {
      out->type = ReplyType::kNullArray;
      return true;
    }
    out->type = kind == '*'   ? ReplyType::kArray
                : kind == '~' ? ReplyType::kSet
                : kind == '>' ? ReplyType::kPush
                              : ReplyType::kMap;
    long long items = kind == '%' ? 2 * n : n;
    for (long long i = 0; i < items; ++i) {
      out->elements.emplace_back();
      if (!Next(&out->elements.back())) return false;
    }
    return true;
  }

  std::string_view d_;
  size_t pos_ = 0;
};

}  // namespace

Reply TargetError(std::string_view why) {
  Reply r;
  r.type = ReplyType::kError;
  r.str = "ERR target: " + std::string(why);
  return r;
}

Reply ParseResp(std::string_view raw) {
  Reply r;
  Parser p(raw);
  if (!p.Next(&r)) return TargetError("malformed RESP: " + std::string(raw.substr(0, 80)));
  return r;
}

Reply AsResp2(Reply r) {
  switch (r.type) {
    case ReplyType::kMap:
    case ReplyType::kSet:
    case ReplyType::kPush:
      r.type = ReplyType::kArray;
      break;
    case ReplyType::kDouble: {
      // The shortest text that reads back as the value: what ToString shows after "(double) ".
      std::string shown = r.ToString();
      r.type = ReplyType::kBulk;
      r.str = shown.substr(shown.find(' ') + 1);
      break;
    }
    case ReplyType::kVerbatim:
    case ReplyType::kBigNumber:
      r.type = ReplyType::kBulk;
      r.format.clear();
      break;
    case ReplyType::kBool:
      r.type = ReplyType::kInteger;
      break;
    default:
      break;
  }
  for (Reply& e : r.elements) e = AsResp2(std::move(e));
  return r;
}

}  // namespace plinth::hostapi
