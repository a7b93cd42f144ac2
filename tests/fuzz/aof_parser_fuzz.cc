// libFuzzer target for plinth::aof::AofReader (plugins/aof), the strict reader of append-only
// files. Input: one control byte picking a cut point, then the file. Checks that the reader
// never reads out of bounds, that a truncated file cut back to its valid prefix reads as whole,
// that every prefix of a whole file is whole or truncated (never corrupt: a cut tail must not
// be reported as corruption), and that every command re-encodes to bytes that read back equal.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "aof/aof_reader.h"

namespace {

using plinth::aof::AofReader;
using plinth::aof::ScanAof;
using Status = AofReader::Status;

void Check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const std::string file(reinterpret_cast<const char*>(data) + 1, size - 1);
  const auto whole = ScanAof(file);
  Check(whole.valid_prefix <= file.size());
  if (whole.status == Status::kTruncated) {
    const auto cut = ScanAof(std::string_view(file).substr(0, whole.valid_prefix));
    Check(cut.status == Status::kEnd);
  }
  if (whole.status == Status::kEnd) {
    Check(whole.valid_prefix == file.size());
    const size_t at = file.empty() ? 0 : data[0] % (file.size() + 1);
    const auto prefix = ScanAof(std::string_view(file).substr(0, at));
    Check(prefix.status == Status::kEnd || prefix.status == Status::kTruncated);
  }
  // Every command re-encoded, in order, reads back as the same commands.
  AofReader r(file);
  std::vector<std::string_view> argv;
  std::vector<std::vector<std::string>> seen;
  std::string enc;
  while (r.Next(&argv) == Status::kCommand) {
    seen.emplace_back(argv.begin(), argv.end());
    plinth::aof::AppendCommand(&enc, argv);
  }
  AofReader back(enc);
  for (const auto& want : seen) {
    Check(back.Next(&argv) == Status::kCommand);
    Check(std::vector<std::string>(argv.begin(), argv.end()) == want);
  }
  return 0;
}
