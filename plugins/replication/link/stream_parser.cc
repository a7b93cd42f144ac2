// The replication stream's command cutter: the SDK's command-form parser over a buffer that
// holds the command in progress from its first byte (the parser resumes where it stopped, so a
// large bulk that arrives in many chunks is scanned once), in the link's own error wording.
#include "replication/link/stream_parser.h"

namespace plinth::replication {

namespace {

// A header line ("*" or "$", digits, CRLF) is at most 32 bytes: leading zeros included, at
// most 29 digits.
constexpr size_t kMaxDigits = 29;

form::Limits StreamLimits() {
  form::Limits l;
  l.max_args = StreamParser::kMaxArgc;
  l.max_bulk = StreamParser::kMaxBulk;
  l.max_digits = kMaxDigits;
  return l;
}

// The link's wording of a parse error ("protocol error: ..."), which ends the link.
std::string Wording(const form::Error& e) {
  const std::string what = "protocol error: ";
  switch (e.fault) {
    case form::Fault::kExpectedArray:
    case form::Fault::kExpectedBulk:
      return what + "expected '" + (e.fault == form::Fault::kExpectedArray ? '*' : '$') +
             "', got byte " + std::to_string(static_cast<unsigned char>(e.byte));
    case form::Fault::kBadNumber:
      if (e.byte == '\r' || e.byte == '\n') return what + "malformed header line";
      return what + "bad " + (e.in_count ? "argument count" : "length");
    case form::Fault::kBadLineEnd:
      return what + "malformed header line";
    case form::Fault::kTooManyDigits:
      return what + "header line too long";
    case form::Fault::kTooLarge:
      return what + (e.in_count ? "argument count" : "bulk length") + " over " +
             std::to_string(e.limit);
    case form::Fault::kEmptyCommand:
      return what + "empty command";
    case form::Fault::kBadBulkEnd:
      return what + "bulk not terminated by CRLF";
    case form::Fault::kNone:
      break;
  }
  return what + "malformed command";
}

}  // namespace

StreamParser::StreamParser(uint64_t offset) : parser_(StreamLimits()), offset_(offset) {}

bool StreamParser::Feed(std::string_view bytes, std::vector<StreamCommand>* out,
                        std::string* error) {
  buf_.append(bytes);
  size_t at = 0;  // the first byte of the command in progress
  form::CommandParser::Status s;
  while ((s = parser_.Parse(std::string_view(buf_).substr(at), &argv_)) ==
         form::CommandParser::Status::kCommand) {
    at += parser_.size();
    offset_ += parser_.size();
    StreamCommand cmd;
    cmd.argv.assign(argv_.begin(), argv_.end());
    cmd.end_offset = offset_;
    out->push_back(std::move(cmd));
  }
  // Only the command in progress stays: it began in these bytes (or is the one before them
  // still waiting), so each byte moves at most once.
  buf_.erase(0, at);
  if (s == form::CommandParser::Status::kError) {
    *error = Wording(parser_.error());
    return false;
  }
  return true;
}

}  // namespace plinth::replication
