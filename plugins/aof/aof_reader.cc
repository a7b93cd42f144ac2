// The strict AOF command reader (see aof_reader.h).
#include "aof/aof_reader.h"

#include <cctype>
#include <cstdio>

namespace plinth::aof {
namespace {

form::Limits FileLimits() {
  form::Limits l;
  l.max_args = 1u << 30;           // no file holds a command with more
  l.max_bulk = uint64_t{1} << 40;  // 1 TiB: beyond any real argument
  l.max_digits = 15;
  return l;
}

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

// The reader's wording of a parse error (plinth-check-aof prints it; keep it stable).
std::string Wording(const form::Error& e) {
  const char* length = e.in_count ? "invalid multibulk length" : "invalid bulk length";
  switch (e.fault) {
    case form::Fault::kExpectedArray:
      return "expected '*', got " + Printable(e.byte);
    case form::Fault::kExpectedBulk:
      return "expected '$', got " + Printable(e.byte);
    case form::Fault::kBadNumber:
      return std::string(length) + ": unexpected " + Printable(e.byte);
    case form::Fault::kBadLineEnd:
      return "invalid CRLF: expected '\\n', got " + Printable(e.byte);
    case form::Fault::kTooManyDigits:
    case form::Fault::kTooLarge:
      return length;
    case form::Fault::kEmptyCommand:
      return "invalid multibulk length: 0";
    case form::Fault::kBadBulkEnd:
      return "invalid CRLF after a bulk: got " + Printable(e.byte);
    case form::Fault::kNone:
      break;
  }
  return "invalid command";
}

}  // namespace

AofReader::AofReader(std::string_view data, size_t start)
    : data_(data), parser_(FileLimits()), pos_(start), cmd_start_(start), valid_(start) {}

AofReader::Status AofReader::Finish(Status s, std::string why, size_t offset) {
  done_ = s;
  error_offset_ = offset;
  error_ = why.empty() ? why : why + " at offset " + std::to_string(offset);
  return s;
}

AofReader::Status AofReader::ParseOne(std::vector<std::string_view>* argv) {
  const size_t start = pos_;
  switch (parser_.Parse(data_.substr(start), argv)) {
    case form::CommandParser::Status::kCommand:
      cmd_start_ = start;
      pos_ = start + parser_.size();
      return Status::kCommand;
    case form::CommandParser::Status::kNeedMore:
      if (in_multi_) return Finish(Status::kTruncated, "MULTI without EXEC", multi_start_);
      return Finish(Status::kTruncated, "truncated command", start);
    case form::CommandParser::Status::kError:
      break;
  }
  const form::Error& e = parser_.error();
  return Finish(Status::kError, Wording(e), start + e.offset);
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
  form::AppendCommand(out, argv);
}

}  // namespace plinth::aof
