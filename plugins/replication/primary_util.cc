// Helpers of the primary side (see primary_util.h).
#include "replication/primary_util.h"

#include <plinth/plugin.hpp>

namespace plinth::replication {

std::string Arg(plinth_call_t* call, int32_t i) {
  size_t n = 0;
  const char* p = sdk::Api().call_arg(call, i, &n);
  return p ? std::string(p, n) : std::string();
}

void ReplyError(plinth_call_t* call, std::string_view text) {
  sdk::Api().reply_error(call, text.data(), text.size());
}

std::string PeerIp(plinth_call_t* call, uint64_t id) {
  std::string line;
  sdk::Api().client_describe(
      call, id,
      [](void* a, const char* d, size_t n) { static_cast<std::string*>(a)->append(d, n); }, &line);
  size_t at = 5;
  if (line.compare(0, 5, "addr=") != 0) {
    at = line.find(" addr=");
    if (at == std::string::npos) return "";
    at += 6;
  }
  const size_t end = line.find_first_of(" \r\n", at);
  std::string addr = line.substr(at, end == std::string::npos ? std::string::npos : end - at);
  const size_t colon = addr.rfind(':');
  if (colon != std::string::npos) addr.resize(colon);
  if (addr.size() >= 2 && addr.front() == '[' && addr.back() == ']')
    addr = addr.substr(1, addr.size() - 2);
  return addr;
}

}  // namespace plinth::replication
