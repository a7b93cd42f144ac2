// The resp plugin's descriptor: registers the RESP2/RESP3 protocol and proto-max-bulk-len.
// init runs on the main thread; the protocol hooks run on any thread, one connection at a time.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <new>
#include <plinth/plugin.hpp>

#include "resp/encoder.h"
#include "resp/parser.h"

namespace {

using plinth::resp::Parser;

constexpr const char* kMaxBulkOption = "proto-max-bulk-len";

// proto-max-bulk-len, read by parsers on IO threads and written by CONFIG SET on the main one.
std::atomic<int64_t> g_max_bulk_len{plinth::resp::kDefaultMaxBulkLen};

void CopyError(const std::string& text, char* err, size_t errlen) {
  if (err == nullptr || errlen == 0) return;
  const size_t n = std::min(text.size(), errlen - 1);
  std::memcpy(err, text.data(), n);
  err[n] = '\0';
}

void* SessionCreate(void*) { return new (std::nothrow) Parser(); }

void SessionDestroy(void*, void* session) { delete static_cast<Parser*>(session); }

int32_t Parse(void*, void* session, const char* buf, size_t len, uint32_t flags, size_t* consumed,
              size_t* need_hint, plinth_request_t* req, char* err, size_t errlen) {
  auto* parser = static_cast<Parser*>(session);
  *consumed = 0;
  *need_hint = 0;
  plinth::resp::ParseLimits limits;
  limits.max_bulk_len = g_max_bulk_len.load(std::memory_order_relaxed);
  limits.unauthenticated = (flags & PLINTH_PARSE_UNAUTHENTICATED) != 0;
  plinth::resp::ParseResult r;
  try {
    r = parser->Parse(buf, len, limits);
  } catch (...) {  // std::bad_alloc: nothing may cross the C boundary
    parser->Reset();
    CopyError("Protocol error: out of memory while reading the request", err, errlen);
    return PLINTH_PARSE_ERROR;
  }
  switch (r.status) {
    case plinth::resp::ParseStatus::kOk:
      *consumed = r.consumed;
      req->argc = parser->argc();
      req->argv = parser->argv();
      req->argvlen = parser->argvlen();
      return PLINTH_PARSE_OK;
    case plinth::resp::ParseStatus::kEmpty:
      *consumed = r.consumed;
      return PLINTH_PARSE_EMPTY;
    case plinth::resp::ParseStatus::kError:
      CopyError(parser->error(), err, errlen);
      return PLINTH_PARSE_ERROR;
    case plinth::resp::ParseStatus::kNeedMore:
      break;
  }
  *need_hint = r.need_hint;
  return PLINTH_PARSE_NEED_MORE;
}

int32_t Encode(void*, uint32_t proto, const plinth_reply_item_t* item, plinth_outbuf_t* out) {
  return plinth::resp::EncodeReply(proto, *item, out) ? PLINTH_OK : PLINTH_ERR;
}

int32_t FrameBulk(void*, uint32_t, size_t len, plinth_outbuf_t* prefix, plinth_outbuf_t* suffix) {
  return plinth::resp::FrameBulk(len, prefix, suffix) ? PLINTH_OK : PLINTH_ERR;
}

// The host has parsed and range-checked the value (MEMORY, 1mb .. 1pb).
int32_t ApplyMaxBulkLen(void*, const char*, const char*, size_t, int64_t bytes, char*, size_t) {
  g_max_bulk_len.store(bytes, std::memory_order_relaxed);
  return PLINTH_OK;
}

bool Init() {
  const plinth_host_api_t& api = plinth::sdk::Api();
  plinth_option_spec_t opt{};
  opt.struct_size = sizeof opt;
  opt.name = kMaxBulkOption;
  opt.type = PLINTH_OPT_MEMORY;
  opt.flags = PLINTH_OPT_MUTABLE | PLINTH_OPT_GLOBAL_NAME;
  opt.default_value = "512mb";
  opt.min = plinth::resp::kMinMaxBulkLen;
  opt.max = plinth::resp::kMaxMaxBulkLen;
  opt.description = "Largest bulk string a client may send, in bytes";
  opt.apply = &ApplyMaxBulkLen;
  // Registering applies the configured value (or the default) through ApplyMaxBulkLen.
  if (!api.option_register(plinth::sdk::Host::self, &opt)) return false;

  static const plinth_protocol_spec_t spec = {sizeof(plinth_protocol_spec_t),
                                              "resp",
                                              nullptr,
                                              &SessionCreate,
                                              &SessionDestroy,
                                              &Parse,
                                              &Encode,
                                              &FrameBulk};
  return api.protocol_register(plinth::sdk::Host::self, &spec) == PLINTH_OK;
}

}  // namespace

PLINTH_PLUGIN("resp", "1.0.0", "RESP2/RESP3 request parser and reply encoder", &Init, nullptr)
