// A peer process for the fabric's cross-process tests. "fabric_peer echo PORT" connects to
// 127.0.0.1:PORT and answers every received {addr, rkey, len, data[len]} with an RDMA WRITE
// WITH IMM of the data to addr/rkey until it is disconnected (exit 0). "fabric_peer hang PORT"
// connects without posting receives, sends "hello" and sleeps until killed.
#include <arpa/inet.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "fabric_harness.h"

using plinth::rdma_fabric::CreateChannelForTest;
using plinth::rdma_fabric::EndForTest;
using plinth::rdma_fabric::StartConnectForTest;
using plinth::rdma_fabric::WaitEventForTest;

namespace {

constexpr int kSlots = 8;
constexpr size_t kSlot = 256;
constexpr size_t kOut = 1 << 15;  // where replies are staged

int Echo(rdma_event_channel* channel, EndForTest* end) {
  for (;;) {
    int ev = WaitEventForTest(channel, nullptr, nullptr, nullptr, 0);
    if (ev == RDMA_CM_EVENT_DISCONNECTED) return 0;
    if (ev != -1) return 3;
    ibv_wc wc{};
    if (!end->WaitWc(&wc, 50)) continue;
    if (wc.status == IBV_WC_WR_FLUSH_ERR) continue;  // disconnected: the event follows
    if (wc.status != IBV_WC_SUCCESS) return 4;
    if (wc.opcode != IBV_WC_RECV) continue;  // our own write completions
    const uint8_t* msg = end->buf + wc.wr_id * kSlot;
    uint64_t addr;
    uint32_t rkey, len;
    std::memcpy(&addr, msg, 8);
    std::memcpy(&rkey, msg + 8, 4);
    std::memcpy(&len, msg + 12, 4);
    if (wc.byte_len != 16 + len) return 5;
    std::memcpy(end->buf + kOut, msg + 16, len);
    if (end->PostRecv(wc.wr_id, wc.wr_id * kSlot, kSlot) != 0) return 6;
    if (end->Post(IBV_WR_RDMA_WRITE_WITH_IMM, 100, kOut, len, htonl(len), addr, rkey) != 0)
      return 7;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: fabric_peer echo|hang PORT\n");
    return 2;
  }
  std::string mode = argv[1];
  auto port = static_cast<uint16_t>(std::atoi(argv[2]));
  rdma_event_channel* channel = CreateChannelForTest();
  if (channel == nullptr) return 10;
  int rc;
  {
    EndForTest end;
    int recvs = mode == "echo" ? kSlots : 0;
    if (!StartConnectForTest(channel, &end, port, 7, recvs)) return 11;
    if (WaitEventForTest(channel) != RDMA_CM_EVENT_ESTABLISHED) return 12;
    if (mode == "echo") {
      rc = Echo(channel, &end);
    } else {
      std::memcpy(end.buf, "hello", 5);
      if (end.Post(IBV_WR_SEND, 1, 0, 5) != 0) return 13;
      for (;;) pause();
    }
  }
  rdma_destroy_event_channel(channel);
  return rc;
}
