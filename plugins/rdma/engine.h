// One RDMA connection's protocol, apart from verbs: the handshake, the control messages, the
// receive and transmit offsets of the one-buffer-each data plane, the buffer refresh rule and
// the keepalive. The verbs/rdma_cm adapter feeds it completions and carries out what it asks
// through Wire. Pure code; one thread per connection at a time. Wire facts:
// ../shared/design/RDMA.md.
//
// Data plane: each side registers one RX buffer and tells the peer its address, length and
// rkey (RegisterXferMemory). The sender writes into the peer's buffer at tx_offset with
// RDMA WRITE WITH IMM (imm = bytes written) until it is full (then writes block). The receiver
// adds each completion's imm to rx_offset and hands [rx_pos, rx_offset) to the parser. Only
// when the whole buffer was written and consumed does the receiver start over at 0 and send
// a new RegisterXferMemory; the sender restarts at 0 on receiving it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "rdma/codec.h"

namespace plinth::rdma {

// What the engine needs the adapter to post. Each returns false when the post failed (the
// connection is then broken).
class Wire {
 public:
  virtual ~Wire() = default;
  // One 32-byte control message (IBV_WR_SEND).
  virtual bool SendCtl(const uint8_t msg[kCtlSize]) = 0;
  // len bytes of data to the peer's memory at remote_addr (IBV_WR_RDMA_WRITE_WITH_IMM, imm =
  // htonl(len)). The adapter copies data into its registered staging buffer first.
  virtual bool WriteWithImm(uint64_t remote_addr, uint32_t rkey, const char* data,
                            uint32_t len) = 0;
};

// Deliberate protocol mistakes, for tests that prove the suite catches them.
enum class Fault : uint8_t {
  kNone,
  kEarlyRefresh,  // refresh as soon as everything written so far was consumed
  kCountByteLen,  // advance rx_offset by the completion's byte_len instead of its imm
  kBadRkey,       // announce the RX buffer with a wrong rkey
};

constexpr int64_t kKeepaliveMs = 3000;
// The largest RX buffer a peer may announce (the sender's staging buffer is laid out like it).
constexpr uint32_t kMaxRxLen = 16u << 20;

class Engine {
 public:
  // rx is this side's registered RX buffer: its bytes, length, address as registered, rkey.
  Engine(Wire* wire, char* rx, uint32_t rx_len, uint64_t rx_addr, uint32_t rx_rkey,
         Fault fault = Fault::kNone)
      : wire_(wire),
        rx_(rx),
        rx_len_(rx_len),
        rx_addr_(rx_addr),
        rx_rkey_(rx_rkey),
        fault_(fault) {}

  // The connection is established: tells the peer about the RX buffer. false: broken.
  bool Start(int64_t now_ms);
  // A received control message (a SEND completion of byte_len bytes). false: a fatal protocol
  // error for this connection (wrong size, unknown opcode, a refresh before the buffer was
  // full, a buffer of 0 or more than kMaxRxLen bytes).
  bool OnControl(const uint8_t* msg, size_t byte_len);
  // A WRITE WITH IMM completion (imm in host order, byte_len as the completion says). false:
  // the peer wrote past the RX buffer.
  bool OnData(uint32_t imm, uint32_t byte_len);
  // The received bytes not consumed yet.
  std::string_view Readable() const { return {rx_ + rx_pos_, rx_offset_ - rx_pos_}; }
  // The parser took n bytes of Readable(). Refreshes the buffer once it was filled and
  // consumed. false: broken (the refresh could not be sent).
  bool Consume(size_t n);
  // Writes up to len bytes into the peer's buffer. Returns bytes taken (0: would block, the
  // peer's buffer is full or not known yet) or -1 when the post failed.
  int64_t Write(const char* data, size_t len);
  // Sends a keepalive when kKeepaliveMs passed since the last. false: the send failed.
  bool Tick(int64_t now_ms);
  // Whether the peer's buffer is known and has room (Write would take bytes).
  bool Writable() const { return peer_len_ > 0 && tx_offset_ < peer_len_; }
  // Bytes the next Write may take, and where they go in the peer's buffer (the offset a
  // staging buffer laid out like the peer's is filled at).
  uint32_t WriteRoom() const { return peer_len_ - tx_offset_; }
  uint32_t tx_offset() const { return tx_offset_; }
  uint32_t peer_len() const { return peer_len_; }

  uint64_t bytes_in() const { return bytes_in_; }
  uint64_t bytes_out() const { return bytes_out_; }
  uint64_t refreshes_sent() const { return refreshes_sent_; }

 private:
  bool SendRegister();

  Wire* wire_;
  char* rx_;
  uint32_t rx_len_;
  uint64_t rx_addr_;
  uint32_t rx_rkey_;
  Fault fault_;
  uint32_t rx_offset_ = 0, rx_pos_ = 0;  // written by the peer / consumed by the parser
  uint64_t peer_addr_ = 0;
  uint32_t peer_len_ = 0, peer_rkey_ = 0, tx_offset_ = 0;
  int64_t last_keepalive_ms_ = 0;
  uint64_t bytes_in_ = 0, bytes_out_ = 0, refreshes_sent_ = 0;
};

}  // namespace plinth::rdma
