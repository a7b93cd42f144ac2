// The strict AOF command reader (see aof_reader.h).
#include "aof/aof_reader.h"

#include <cctype>
#include <cstdio>

namespace plinth::aof {
namespace {

constexpr size_t kMaxArgs = 1u << 30;         // no file holds a command with more
constexpr size_t kMaxBulk = size_t{1} << 40;  // 1 TiB: beyond any real argument

bool EqualsNoCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != b[i]) return false;
  return true;
}

std::string Printable(char c) {
  const auto u = static_cast<unsigned char>(c);
  char buf[8];
  if (u >= 0x20 && u < 0x7f)
    std::snprintf(buf, sizeof buf, "'%c'", c);
  else
    std::snprintf(buf, sizeof buf, "'\\x%02x'", u);
  return buf;
}

}  // namespace

AofReader::AofReader(std::string_view data, size_t start)
    : data_(data), pos_(start), cmd_start_(start), valid_(start) {}

AofReader::Status AofReader::Finish(Status s, std::string why, size_t offset) {
  done_ = s;
  error_offset_ = offset;
  error_ = why.empty() ? why : why + " at offset " + std::to_string(offset);
  return s;
}

// Reads the digits after a '*' or '$' at *p (which points past the type byte) and the CRLF.
AofReader::Step AofReader::ReadNumber(size_t* p, char kind, size_t max, size_t* value) {
  size_t v = 0, digits = 0, i = *p;
  for (; i < data_.size() && data_[i] >= '0' && data_[i] <= '9'; ++i, ++digits) {
    v = v * 10 + static_cast<size_t>(data_[i] - '0');
    if (digits >= 15 || v > max) {
      Finish(Status::kError, kind == '*' ? "invalid multibulk length" : "invalid bulk length", i);
      return Step::kBad;
    }
  }
  if (i == data_.size()) return Step::kShort;
  if (digits == 0 || data_[i] != '\r') {
    Finish(Status::kError,
           std::string(kind == '*' ? "invalid multibulk length: " : "invalid bulk length: ") +
               "unexpected " + Printable(data_[i]),
           i);
    return Step::kBad;
  }
  if (i + 1 == data_.size()) return Step::kShort;
  if (data_[i + 1] != '\n') {
    Finish(Status::kError, "invalid CRLF: expected '\\n', got " + Printable(data_[i + 1]), i + 1);
    return Step::kBad;
  }
  *value = v;
  *p = i + 2;
  return Step::kOk;
}

AofReader::Status AofReader::ParseOne(std::vector<std::string_view>* argv) {
  const size_t start = pos_;
  auto shorted = [&] {
    if (in_multi_) return Finish(Status::kTruncated, "MULTI without EXEC", multi_start_);
    return Finish(Status::kTruncated, "truncated command", start);
  };
  size_t p = start + 1, argc = 0;
  Step s = ReadNumber(&p, '*', kMaxArgs, &argc);
  if (s == Step::kShort) return shorted();
  if (s == Step::kBad) return done_;
  if (argc == 0) return Finish(Status::kError, "invalid multibulk length: 0", start + 1);
  argv->clear();
  for (size_t k = 0; k < argc; ++k) {
    if (p == data_.size()) return shorted();
    if (data_[p] != '$')
      return Finish(Status::kError, "expected '$', got " + Printable(data_[p]), p);
    ++p;
    size_t len = 0;
    s = ReadNumber(&p, '$', kMaxBulk, &len);
    if (s == Step::kShort) return shorted();
    if (s == Step::kBad) return done_;
    if (data_.size() - p < len) return shorted();
    argv->emplace_back(data_.data() + p, len);
    p += len;
    for (char want : {'\r', '\n'}) {
      if (p == data_.size()) return shorted();
      if (data_[p] != want)
        return Finish(Status::kError, "invalid CRLF after a bulk: got " + Printable(data_[p]), p);
      ++p;
    }
  }
  cmd_start_ = start;
  pos_ = p;
  return Status::kCommand;
}

AofReader::Status AofReader::Next(std::vector<std::string_view>* argv) {
  if (done_ != Status::kCommand) return done_;
  while (pos_ < data_.size() && data_[pos_] == '#') {  // an annotation line ("#TS:...")
    const size_t nl = data_.find('\n', pos_);
    if (nl == std::string_view::npos) {
      if (in_multi_) return Finish(Status::kTruncated, "MULTI without EXEC", multi_start_);
      return Finish(Status::kTruncated, "truncated annotation", pos_);
    }
    pos_ = nl + 1;
    if (!in_multi_) valid_ = pos_;
  }
  if (pos_ == data_.size()) {
    if (in_multi_) return Finish(Status::kTruncated, "MULTI without EXEC", multi_start_);
    return Finish(Status::kEnd, "", pos_);
  }
  if (data_[pos_] != '*')
    return Finish(Status::kError, "expected '*', got " + Printable(data_[pos_]), pos_);
  const Status s = ParseOne(argv);
  if (s != Status::kCommand) return s;
  ++commands_;
  const std::string_view name = (*argv)[0];
  if (EqualsNoCase(name, "multi")) {
    if (in_multi_) return Finish(Status::kError, "nested MULTI", cmd_start_);
    in_multi_ = true;
    multi_start_ = cmd_start_;
  } else if (EqualsNoCase(name, "exec")) {
    if (!in_multi_) return Finish(Status::kError, "EXEC without MULTI", cmd_start_);
    in_multi_ = false;
    valid_ = pos_;
  } else if (!in_multi_) {
    valid_ = pos_;
  }
  return Status::kCommand;
}

ScanResult ScanAof(std::string_view data, size_t start) {
  AofReader r(data, start);
  std::vector<std::string_view> argv;
  AofReader::Status s;
  while ((s = r.Next(&argv)) == AofReader::Status::kCommand) {
  }
  ScanResult out;
  out.status = s;
  out.commands = r.commands();
  out.valid_prefix = r.valid_prefix();
  out.error_offset = r.error_offset();
  out.error = r.error();
  return out;
}

void AppendCommand(std::string* out, const std::vector<std::string_view>& argv) {
  *out += '*';
  *out += std::to_string(argv.size());
  *out += "\r\n";
  for (std::string_view a : argv) {
    *out += '$';
    *out += std::to_string(a.size());
    *out += "\r\n";
    out->append(a.data(), a.size());
    *out += "\r\n";
  }
}

}  // namespace plinth::aof
