// Hint parsing in two steps: the text becomes a tree of words and bracket groups (Raw), then
// the tree becomes DocArgs by recognising tokens, repetitions ("x [x ...]") and one-ofs.
#include "server/args_hint.h"

#include <plinth/text.hpp>
#include <utility>

namespace plinth::server {
namespace {

struct Raw {
  enum class Kind { kWord, kEllipsis, kOptional, kRequired };
  Kind kind = Kind::kWord;
  std::string text;                    // kWord
  std::vector<std::vector<Raw>> alts;  // groups: alternatives, each a sequence
};
using Seq = std::vector<Raw>;

bool IsWordChar(char c) {
  return c != ' ' && c != '\t' && c != '[' && c != ']' && c != '<' && c != '>' && c != '(' &&
         c != ')' && c != '|';
}

class HintParser {
 public:
  explicit HintParser(std::string_view s) : s_(s) {}

  bool Parse(std::vector<Seq>* alts) { return ParseAlts(0, alts); }

 private:
  void SkipSpaces() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t')) ++pos_;
  }
  std::string ReadWord() {
    size_t start = pos_;
    while (pos_ < s_.size() && IsWordChar(s_[pos_])) ++pos_;
    return std::string(s_.substr(start, pos_ - start));
  }
  bool TightBar() const {
    return pos_ + 1 < s_.size() && s_[pos_] == '|' && IsWordChar(s_[pos_ + 1]);
  }

  // Parses alternatives up to the closing bracket `close` (0: the end of the text).
  bool ParseAlts(char close, std::vector<Seq>* alts) {
    alts->emplace_back();
    for (;;) {
      SkipSpaces();
      if (pos_ == s_.size()) return close == 0;
      char c = s_[pos_];
      if (close != 0 && c == close) {
        ++pos_;
        return true;
      }
      if (c == ']' || c == '>' || c == ')') return false;
      if (c == '|') {
        ++pos_;
        alts->emplace_back();
        continue;
      }
      if (c == '[' || c == '<' || c == '(') {
        ++pos_;
        Raw group;
        group.kind = c == '[' ? Raw::Kind::kOptional : Raw::Kind::kRequired;
        if (!ParseAlts(c == '[' ? ']' : c == '<' ? '>' : ')', &group.alts)) return false;
        for (const Seq& a : group.alts)
          if (a.empty()) return false;
        alts->back().push_back(std::move(group));
        continue;
      }
      Raw word;
      word.text = ReadWord();
      if (word.text == "...") word.kind = Raw::Kind::kEllipsis;
      if (close == 0 && word.kind == Raw::Kind::kWord && TightBar()) {
        // Outside brackets "A|B|C" is a one-of of single words, as Redis renders it.
        Raw oneof;
        oneof.kind = Raw::Kind::kRequired;
        oneof.alts.push_back({word});
        while (TightBar()) {
          ++pos_;
          Raw next;
          next.text = ReadWord();
          oneof.alts.push_back({next});
        }
        alts->back().push_back(std::move(oneof));
        continue;
      }
      alts->back().push_back(std::move(word));
    }
  }

  std::string_view s_;
  size_t pos_ = 0;
};

bool IsToken(std::string_view w) {
  bool letter = false;
  for (char c : w) {
    if (c >= 'a' && c <= 'z') return false;
    if (c >= 'A' && c <= 'Z') letter = true;
  }
  return letter;
}

// 0: a token, 1: a value word, 2: "...", 3: a group; alternatives of one shape line up.
int Shape(const Raw& r) {
  if (r.kind == Raw::Kind::kWord) return IsToken(r.text) ? 0 : 1;
  return r.kind == Raw::Kind::kEllipsis ? 2 : 3;
}

bool IsValueWord(const Raw& r) { return r.kind == Raw::Kind::kWord && !IsToken(r.text); }

std::string TypeFor(std::string_view name) {
  static constexpr std::string_view kIntegers[] = {
      "count",   "seconds", "milliseconds",  "offset",   "start",     "end",
      "stop",    "index",   "index1",        "index2",   "db",        "destination-db",
      "numkeys", "timeout", "cursor",        "protover", "client-id", "samples",
      "bit",     "len",     "min-match-len", "port",     "decrement", "increment"};
  if (name.rfind("key", 0) == 0 || (name.size() >= 3 && name.substr(name.size() - 3) == "key"))
    return "key";
  if (name == "pattern") return "pattern";
  if (name.find("unix-time") != std::string_view::npos) return "unix-time";
  for (std::string_view n : kIntegers)
    if (name == n) return "integer";
  return "string";
}

std::string JoinNames(const std::vector<DocArg>& args) {
  std::string out;
  for (const DocArg& a : args) {
    if (!out.empty()) out += '-';
    out += a.name;
  }
  return out;
}

DocArg Value(std::string name, std::string type) {
  DocArg a;
  a.name = std::move(name);
  a.type = std::move(type);
  return a;
}

DocArg Block(std::vector<DocArg> args) {
  DocArg b;
  b.type = "block";
  b.name = JoinNames(args);
  b.args = std::move(args);
  return b;
}

// Conversion state for the top-level sequence: the argv position of the next argument while
// every argument so far was a plain positional word (-1 once that stops being true).
struct Positions {
  KeyPositions keys;
  int32_t next = -1;
  bool IsKey() const {
    if (next < 1 || keys.first < 1 || next < keys.first) return false;
    if (keys.last >= 0 && next > keys.last) return false;
    return keys.step <= 0 || (next - keys.first) % keys.step == 0;
  }
};

// True when group is "[w1 ... wn ...]" (optional, one alternative, the words then "...").
// With the token form, "[TOKEN w1 ... wn ...]" also matches and sets *with_token.
bool IsRepeatOf(const Raw& group, const std::vector<std::string>& words, const std::string& token,
                bool* with_token) {
  if (group.kind != Raw::Kind::kOptional || group.alts.size() != 1) return false;
  const Seq& s = group.alts[0];
  size_t skip = 0;
  if (!token.empty() && !s.empty() && s[0].kind == Raw::Kind::kWord && s[0].text == token) skip = 1;
  if (s.size() != skip + words.size() + 1 || s.back().kind != Raw::Kind::kEllipsis) return false;
  for (size_t k = 0; k < words.size(); ++k)
    if (s[skip + k].kind != Raw::Kind::kWord || s[skip + k].text != words[k]) return false;
  *with_token = skip == 1;
  return true;
}

bool ConvertSeq(const Seq& seq, Positions* pos, std::vector<DocArg>* out);

bool ConvertGroup(const Raw& group, DocArg* out) {
  std::vector<std::vector<DocArg>> alts;
  for (const Seq& s : group.alts) {
    std::vector<DocArg> args;
    Positions none;
    if (!ConvertSeq(s, &none, &args) || args.empty()) return false;
    alts.push_back(std::move(args));
  }
  // "[TYPE A|B|C]": the first alternative carries a token shared by all of them, recognised
  // when the rest of the first alternative has the same shape as every other one.
  bool factor = alts.size() > 1 && group.alts[0].size() >= 2 &&
                group.alts[0][0].kind == Raw::Kind::kWord && IsToken(group.alts[0][0].text);
  for (size_t k = 1; factor && k < group.alts.size(); ++k) {
    const Seq& other = group.alts[k];
    factor = other.size() == group.alts[0].size() - 1;
    for (size_t e = 0; factor && e < other.size(); ++e)
      factor = Shape(other[e]) == Shape(group.alts[0][e + 1]);
  }
  if (factor) {
    Raw rest = group;
    rest.alts[0].erase(rest.alts[0].begin());
    if (!ConvertGroup(rest, out)) return false;
    if (out->type != "oneof") return false;
    out->token = group.alts[0][0].text;
    return true;
  }
  if (alts.size() == 1) {
    *out = alts[0].size() == 1 ? std::move(alts[0][0]) : Block(std::move(alts[0]));
    return true;
  }
  DocArg oneof;
  oneof.type = "oneof";
  for (auto& a : alts) oneof.args.push_back(a.size() == 1 ? std::move(a[0]) : Block(std::move(a)));
  oneof.name = JoinNames(oneof.args);
  *out = std::move(oneof);
  return true;
}

// A token and the value words after it ("EX seconds", "AUTH username password", "NX").
size_t ConvertToken(const Seq& seq, size_t i, DocArg* out) {
  const std::string& token = seq[i].text;
  size_t j = i + 1;
  std::vector<std::string> words;
  while (j < seq.size() && IsValueWord(seq[j]) && seq[j].kind != Raw::Kind::kEllipsis)
    words.push_back(seq[j++].text);
  if (words.empty() && j < seq.size() && seq[j].kind == Raw::Kind::kRequired) {
    DocArg inner;
    if (ConvertGroup(seq[j], &inner)) {
      *out = inner.token.empty() ? std::move(inner) : Block({std::move(inner)});
      out->token = token;
      return j + 1;
    }
  }
  if (words.empty()) {
    out->type = "pure-token";
    out->name = text::ToLower(token);
  } else if (words.size() == 1) {
    out->name = words[0];
    out->type = TypeFor(words[0]);
  } else {
    std::vector<DocArg> parts;
    for (const std::string& w : words) parts.push_back(Value(w, TypeFor(w)));
    *out = Block(std::move(parts));
  }
  out->token = token;
  bool with_token = false;
  if (!words.empty() && j < seq.size() && IsRepeatOf(seq[j], words, token, &with_token)) {
    out->multiple = true;
    out->multiple_token = with_token;
    ++j;
  }
  return j;
}

// Lower-case words, possibly repeated as a group: "key", "key [key ...]", "f v [f v ...]".
// The repeat group must follow the whole run of words; otherwise the first word stands alone
// and the rest of the run is looked at again from the next word.
size_t ConvertValues(const Seq& seq, size_t i, Positions* pos, DocArg* out) {
  size_t run = 0;
  std::vector<std::string> words;
  while (i + run < seq.size() && IsValueWord(seq[i + run]) &&
         seq[i + run].kind != Raw::Kind::kEllipsis)
    words.push_back(seq[i + run++].text);
  bool with_token = false;
  if (i + run < seq.size() && IsRepeatOf(seq[i + run], words, "", &with_token)) {
    std::vector<DocArg> parts;
    for (const std::string& w : words) {
      parts.push_back(Value(w, pos->IsKey() ? "key" : TypeFor(w)));
      if (pos->next > 0) ++pos->next;
    }
    *out = parts.size() == 1 ? std::move(parts[0]) : Block(std::move(parts));
    out->multiple = true;
    pos->next = -1;
    return i + run + 1;
  }
  *out = Value(seq[i].text, pos->IsKey() ? "key" : TypeFor(seq[i].text));
  if (pos->next > 0) ++pos->next;
  size_t j = i + 1;
  if (j < seq.size() && seq[j].kind == Raw::Kind::kEllipsis) {
    out->multiple = true;
    pos->next = -1;
    ++j;
  }
  return j;
}

bool ConvertSeq(const Seq& seq, Positions* pos, std::vector<DocArg>* out) {
  size_t i = 0;
  while (i < seq.size()) {
    const Raw& r = seq[i];
    DocArg arg;
    if (r.kind == Raw::Kind::kEllipsis) {
      if (out->empty()) return false;
      out->back().multiple = true;
      pos->next = -1;
      ++i;
      continue;
    }
    if (r.kind == Raw::Kind::kWord && IsToken(r.text)) {
      i = ConvertToken(seq, i, &arg);
      pos->next = -1;
    } else if (r.kind == Raw::Kind::kWord) {
      i = ConvertValues(seq, i, pos, &arg);
    } else {
      if (!ConvertGroup(r, &arg)) return false;
      if (r.kind == Raw::Kind::kOptional) arg.optional = true;
      pos->next = -1;
      ++i;
    }
    out->push_back(std::move(arg));
  }
  return true;
}

}  // namespace

bool ParseArgsHint(std::string_view hint, KeyPositions keys, std::vector<DocArg>* out) {
  std::vector<Seq> alts;
  if (!HintParser(hint).Parse(&alts)) return false;
  out->clear();
  Positions pos{keys, 1};
  if (alts.size() == 1) return ConvertSeq(alts[0], &pos, out);
  Raw group;
  group.kind = Raw::Kind::kRequired;
  group.alts = std::move(alts);
  for (const Seq& a : group.alts)
    if (a.empty()) return false;
  DocArg arg;
  if (!ConvertGroup(group, &arg)) return false;
  out->push_back(std::move(arg));
  return true;
}

}  // namespace plinth::server
