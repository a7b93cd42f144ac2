// Big-endian field codec of the 32-byte control messages.
#include "rdma/codec.h"

#include <cstring>

namespace plinth::rdma {
namespace {

void Put16(uint8_t* p, uint16_t v) {
  p[0] = static_cast<uint8_t>(v >> 8);
  p[1] = static_cast<uint8_t>(v);
}
void Put32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (24 - 8 * i));
}
void Put64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (56 - 8 * i));
}
uint16_t Get16(const uint8_t* p) { return static_cast<uint16_t>(p[0] << 8 | p[1]); }
uint32_t Get32(const uint8_t* p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v = v << 8 | p[i];
  return v;
}
uint64_t Get64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = v << 8 | p[i];
  return v;
}

}  // namespace

void EncodeCtl(const CtlMsg& m, uint8_t out[kCtlSize]) {
  std::memset(out, 0, kCtlSize);
  Put16(out, static_cast<uint16_t>(m.op));
  switch (m.op) {
    case Op::kGetServerFeature:
    case Op::kSetClientFeature:
      Put16(out + 2, m.select);
      Put64(out + 24, m.features);
      break;
    case Op::kKeepalive:
      break;
    case Op::kRegisterXferMemory:
      Put64(out + 16, m.addr);
      Put32(out + 24, m.length);
      Put32(out + 28, m.rkey);
      break;
  }
}

bool DecodeCtl(const uint8_t* p, size_t len, CtlMsg* m) {
  if (len != kCtlSize) return false;
  const uint16_t op = Get16(p);
  if (op > static_cast<uint16_t>(Op::kRegisterXferMemory)) return false;
  *m = CtlMsg{};
  m->op = static_cast<Op>(op);
  if (m->op == Op::kGetServerFeature || m->op == Op::kSetClientFeature) {
    m->select = Get16(p + 2);
    m->features = Get64(p + 24);
  } else if (m->op == Op::kRegisterXferMemory) {
    m->addr = Get64(p + 16);
    m->length = Get32(p + 24);
    m->rkey = Get32(p + 28);
  }
  return true;
}

}  // namespace plinth::rdma
