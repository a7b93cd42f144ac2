// The connection protocol engine: control messages, offsets and the refresh rule.
#include "rdma/engine.h"

#include <algorithm>

namespace plinth::rdma {

bool Engine::SendRegister() {
  CtlMsg m;
  m.op = Op::kRegisterXferMemory;
  m.addr = rx_addr_;
  m.length = rx_len_;
  m.rkey = fault_ == Fault::kBadRkey ? ~rx_rkey_ : rx_rkey_;
  uint8_t b[kCtlSize];
  EncodeCtl(m, b);
  return wire_->SendCtl(b);
}

bool Engine::Start(int64_t now_ms) {
  last_keepalive_ms_ = now_ms;
  return SendRegister();
}

bool Engine::OnControl(const uint8_t* msg, size_t byte_len) {
  CtlMsg m;
  if (!DecodeCtl(msg, byte_len, &m)) return false;
  switch (m.op) {
    case Op::kGetServerFeature: {  // no features: echo the selector with features 0
      CtlMsg r;
      r.op = Op::kGetServerFeature;
      r.select = m.select;
      uint8_t b[kCtlSize];
      EncodeCtl(r, b);
      return wire_->SendCtl(b);
    }
    case Op::kSetClientFeature:  // features 0 accepted silently, others refused unanswered
    case Op::kKeepalive:
      return true;
    case Op::kRegisterXferMemory:
      // The first one, or a refresh of a buffer this side filled: anything else means the
      // peer reset its buffer while writes into it may still be landing.
      if (peer_len_ > 0 && tx_offset_ < peer_len_) return false;
      if (m.length == 0 || m.length > kMaxRxLen) return false;
      peer_addr_ = m.addr;
      peer_len_ = m.length;
      peer_rkey_ = m.rkey;
      tx_offset_ = 0;
      return true;
  }
  return false;
}

bool Engine::OnData(uint32_t imm, uint32_t byte_len) {
  const uint32_t n = fault_ == Fault::kCountByteLen ? byte_len : imm;
  if (n > rx_len_ - rx_offset_) return false;
  rx_offset_ += n;
  bytes_in_ += n;
  return true;
}

bool Engine::Consume(size_t n) {
  rx_pos_ += static_cast<uint32_t>(std::min<size_t>(n, rx_offset_ - rx_pos_));
  const bool full = rx_offset_ == rx_len_;
  const bool early = fault_ == Fault::kEarlyRefresh && rx_offset_ > 0;
  if (rx_pos_ != rx_offset_ || !(full || early)) return true;
  rx_offset_ = rx_pos_ = 0;
  ++refreshes_sent_;
  return SendRegister();
}

int64_t Engine::Write(const char* data, size_t len) {
  if (!Writable() || len == 0) return 0;
  const uint32_t n = static_cast<uint32_t>(std::min<size_t>(len, peer_len_ - tx_offset_));
  if (!wire_->WriteWithImm(peer_addr_ + tx_offset_, peer_rkey_, data, n)) return -1;
  tx_offset_ += n;
  bytes_out_ += n;
  return n;
}

bool Engine::Tick(int64_t now_ms) {
  if (now_ms - last_keepalive_ms_ < kKeepaliveMs) return true;
  last_keepalive_ms_ = now_ms;
  CtlMsg m;
  m.op = Op::kKeepalive;
  uint8_t b[kCtlSize];
  EncodeCtl(m, b);
  return wire_->SendCtl(b);
}

}  // namespace plinth::rdma
