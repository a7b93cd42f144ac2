// The framing on a fabric link: every message is a 32-byte header followed by "len" body bytes.
// Both ends run on one machine, so fields are in host order. Used by both libraries.
#ifndef PLINTH_TESTS_RDMA_FABRIC_WIRE_H_
#define PLINTH_TESTS_RDMA_FABRIC_WIRE_H_

#include <stdint.h>
#include <sys/socket.h>

namespace plinth::rdma_fabric {

enum FrameType : uint32_t {
  // Connection management (librdmacm): bodies below.
  kFrameConnReq = 1,  // ConnBody, active -> passive
  kFrameAccept,       // ConnBody, passive -> active
  kFrameReject,       // no body
  kFrameReadyToUse,   // no body; active -> passive after it saw the accept
  kFrameDisconnect,   // no body
  // Queue-pair traffic (libibverbs), requester -> responder.
  kFrameSend = 16,  // body = payload; imm valid with kFlagImm
  kFrameWrite,      // body = payload for raddr/rkey; imm valid with kFlagImm (consumes a receive)
  // Responder -> requester.
  kFrameAck,  // imm = number of requests acknowledged, in order
  kFrameNak,  // imm = the ibv_wc_status the oldest unacknowledged request completes with
};

enum FrameFlags : uint32_t {
  kFlagImm = 1,         // the request carries immediate data
  kFlagRnrForever = 2,  // the requester retries RNR forever: wait for a receive
};

struct FrameHeader {
  uint32_t type;
  uint32_t flags;
  uint32_t len;  // body bytes after the header
  uint32_t imm;  // immediate data (network order as posted), ACK count or NAK status
  uint64_t raddr;
  uint32_t rkey;
  uint32_t reserved;
};
static_assert(sizeof(FrameHeader) == 32, "frame header is 32 bytes");

// Body of kFrameConnReq and kFrameAccept: the sender's connection parameters and addresses.
struct ConnBody {
  uint8_t responder_resources;
  uint8_t initiator_depth;
  uint8_t flow_control;
  uint8_t retry_count;
  uint8_t rnr_retry_count;
  uint8_t private_data_len;
  uint8_t reserved[2];
  uint32_t qp_num;
  uint8_t private_data[196];
  sockaddr_storage src;  // the sender's address
  sockaddr_storage dst;  // the address it connected to
};

}  // namespace plinth::rdma_fabric

#endif  // PLINTH_TESTS_RDMA_FABRIC_WIRE_H_
