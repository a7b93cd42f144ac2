// Test helpers over the plain verbs and rdma_cm API, shared by the fabric's tests and their
// peer process: one connection end with its PD, CQ, QP and one registered buffer, and
// bounded waits for cm events and completions. Single-threaded per object.
#ifndef PLINTH_TESTS_RDMA_FABRIC_FABRIC_HARNESS_H_
#define PLINTH_TESTS_RDMA_FABRIC_FABRIC_HARNESS_H_

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include <cstddef>
#include <cstdint>

namespace plinth::rdma_fabric {

// A non-blocking rdma_cm event channel; null when the fabric is missing.
rdma_event_channel* CreateChannelForTest();

// Waits up to "timeout_ms" for the next event on "channel", acks it and returns its type, or -1
// on timeout. "id", "listen_id" and "status" (each may be null) receive the event's fields.
int WaitEventForTest(rdma_event_channel* channel, rdma_cm_id** id = nullptr, int* status = nullptr,
                     rdma_cm_id** listen_id = nullptr, int timeout_ms = 5000);

// One end of a connection: the id plus the resources a Valkey-like peer gives it.
struct EndForTest {
  rdma_cm_id* id = nullptr;
  ibv_pd* pd = nullptr;
  ibv_comp_channel* comp = nullptr;
  ibv_cq* cq = nullptr;
  uint8_t* buf = nullptr;  // page aligned, "buf_len" bytes, registered as "mr"
  size_t buf_len = 0;
  ibv_mr* mr = nullptr;

  // Creates PD, non-blocking completion channel, armed CQ, RC QP and buffer on "id" (its
  // verbs must be set). Returns false on any failure.
  bool Setup(rdma_cm_id* cm_id, uint32_t max_wr = 16, size_t len = 1 << 16,
             int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
                          IBV_ACCESS_REMOTE_READ);
  // Destroys everything, the id included.
  ~EndForTest();

  // Posts one receive of [off, off + len) of the buffer. Returns the verbs' result.
  int PostRecv(uint64_t wr_id, size_t off, size_t len);
  // Posts one send-queue request of [off, off + len) of the buffer, signaled.
  int Post(ibv_wr_opcode opcode, uint64_t wr_id, size_t off, size_t len, uint32_t imm = 0,
           uint64_t raddr = 0, uint32_t rkey = 0, unsigned flags = IBV_SEND_SIGNALED);
  // Waits up to "timeout_ms" for one completion. Returns false on timeout.
  bool WaitWc(ibv_wc* wc, int timeout_ms = 5000);
};

// Connects "client" to 127.0.0.1:"port" (resolve, route, setup, connect) and returns after
// rdma_connect, or false. "rnr" is the connect's rnr_retry_count; "recvs" receives of 256 bytes
// each are posted first.
bool StartConnectForTest(rdma_event_channel* channel, EndForTest* client, uint16_t port,
                         uint8_t rnr, int recvs);

}  // namespace plinth::rdma_fabric

#endif  // PLINTH_TESTS_RDMA_FABRIC_FABRIC_HARNESS_H_
