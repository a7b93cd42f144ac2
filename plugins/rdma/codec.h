// The control messages of the RDMA wire protocol (Valkey over RDMA): 32 bytes, big-endian,
// sent with IBV_WR_SEND. Pure code: no verbs. plugins/rdma/README.md; the layouts are in
// ../shared/design/RDMA.md.
#pragma once

#include <cstddef>
#include <cstdint>

namespace plinth::rdma {

constexpr size_t kCtlSize = 32;

enum class Op : uint16_t {
  kGetServerFeature = 0,
  kSetClientFeature = 1,
  kKeepalive = 2,
  kRegisterXferMemory = 3,
};

struct CtlMsg {
  Op op = Op::kKeepalive;
  uint16_t select = 0;    // the feature messages
  uint64_t features = 0;  // the feature messages
  uint64_t addr = 0;      // RegisterXferMemory: the sender's RX buffer
  uint32_t length = 0;
  uint32_t rkey = 0;
};

// Writes m's 32 bytes into out.
void EncodeCtl(const CtlMsg& m, uint8_t out[kCtlSize]);
// Reads a received message. Returns false (a fatal error for the connection) when len is not
// 32 or the opcode is unknown.
bool DecodeCtl(const uint8_t* p, size_t len, CtlMsg* m);

}  // namespace plinth::rdma
