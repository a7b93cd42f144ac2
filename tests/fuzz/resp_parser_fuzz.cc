// libFuzzer target for plinth::resp::Parser. Input: two control bytes, then the byte stream.
// Checks that the stream parses the same whole and split (at a point and at a stride taken from
// the control bytes, with the buffer moving), and that every parsed request encodes back to
// RESP that parses to the same arguments.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "parse_driver.h"
#include "resp/encoder.h"
#include "resp/parser.h"

namespace {

using plinth::resp::ParseLimits;
using plinth::resp::ParseStatus;
using plinth::resp::test::Event;

void Check(bool ok) {
  if (!ok) std::abort();
}

struct Out {
  std::string storage;
  plinth_outbuf_t buf{sizeof(plinth_outbuf_t), nullptr, 0, 0, &Grow, this};
  static int32_t Grow(plinth_outbuf_t* o, size_t min_free) {
    auto* self = static_cast<Out*>(o->host_private);
    self->storage.resize(o->len + min_free + 16);
    o->data = self->storage.data();
    o->cap = self->storage.size();
    return PLINTH_OK;
  }
  std::string_view View() const { return {buf.data == nullptr ? "" : buf.data, buf.len}; }
};

void Encode(uint32_t proto, uint32_t type, std::string_view data, int64_t n, Out* out) {
  plinth_reply_item_t item{};
  item.struct_size = sizeof item;
  item.type = type;
  item.data = data.data();
  item.len = data.size();
  item.integer = n;
  item.ext = "txt";
  Check(plinth::resp::EncodeReply(proto, item, &out->buf));
}

// Encodes the request as a RESP2 array of bulks (the multibulk request form) and parses it.
void CheckRoundTrip(const Event& e) {
  Out out;
  Encode(2, PLINTH_REPLY_ARRAY, {}, static_cast<int64_t>(e.args.size()), &out);
  for (const std::string& a : e.args) Encode(2, PLINTH_REPLY_BULK, a, 0, &out);
  const std::vector<Event> again = plinth::resp::test::ParseWhole(out.View());
  Check(again.size() == 1);
  Check(again[0].status == ParseStatus::kOk);
  Check(again[0].args == e.args);
  Check(again[0].consumed == out.View().size());

  // Every other encoding must stay well framed: errors and simple strings on one line.
  for (const std::string& a : e.args) {
    for (uint32_t type : {PLINTH_REPLY_ERROR, PLINTH_REPLY_SIMPLE}) {
      Out line;
      Encode(3, type, a, 0, &line);
      const std::string_view v = line.View();
      Check(v.find_first_of("\r\n") == v.size() - 2 && v.back() == '\n');
    }
    Out any;
    Encode(3, PLINTH_REPLY_VERBATIM, a, 0, &any);
    Encode(3, PLINTH_REPLY_SET, {}, static_cast<int64_t>(a.size()), &any);
    Encode(2, PLINTH_REPLY_MAP, {}, static_cast<int64_t>(a.size()), &any);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const uint8_t control = data[0];
  const uint8_t where = data[1];
  const std::string_view stream(reinterpret_cast<const char*>(data + 2), size - 2);
  ParseLimits limits;
  limits.unauthenticated = (control & 1) != 0;
  if (control & 2) limits.max_bulk_len = 64;

  const std::vector<Event> whole = plinth::resp::test::ParseWhole(stream, limits);
  // One split point, scaled from the second control byte over the stream.
  const size_t cut = stream.empty() ? 0 : (static_cast<size_t>(where) * stream.size()) / 255;
  Check(plinth::resp::test::ParseInPieces(stream, {cut}, true, limits) == whole);
  // Many split points at a small stride.
  std::vector<size_t> cuts;
  const size_t stride = 1 + (control >> 2) % 17;
  for (size_t at = stride; at < stream.size(); at += stride) cuts.push_back(at);
  Check(plinth::resp::test::ParseInPieces(stream, cuts, (control & 4) != 0, limits) == whole);

  for (const Event& e : whole) {
    if (e.status == ParseStatus::kOk) CheckRoundTrip(e);
    if (e.status == ParseStatus::kError) {
      Check(e.error.rfind("Protocol error: ", 0) == 0);
      Check(e.error.find_first_of(std::string_view("\r\n\0", 3)) == std::string::npos);
    }
  }
  return 0;
}
