// The private interface between the fabric's two libraries: librdmacm.so.1 (ids, listeners,
// the connection handshake) drives the sockets and queue pairs that libibverbs.so.1 owns, so
// both share one process-wide state however an application loads them. Exported under the
// version node RDMA_FABRIC_PRIVATE; no application calls these. Every function here expects the
// fabric lock held unless its comment says otherwise.
#ifndef PLINTH_TESTS_RDMA_FABRIC_FABRIC_PRIVATE_H_
#define PLINTH_TESTS_RDMA_FABRIC_FABRIC_PRIVATE_H_

#include <infiniband/verbs.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// One connected unix stream socket between two processes, carrying framed messages.
typedef struct fabric_link fabric_link;

// Callbacks for frames the queue-pair wire does not consume (connection management), run on the
// progress thread with the fabric lock held. They must not take the lock.
struct fabric_link_ops {
  // A frame of "type" (wire.h) with "len" body bytes arrived.
  void (*on_frame)(void* arg, uint32_t type, const void* body, size_t len);
  // The socket reached EOF or failed. The attached queue pair has already been flushed. May
  // call fabric_link_close.
  void (*on_close)(void* arg);
};

// Takes and releases the one process-wide fabric lock. Not recursive. Any thread.
void fabric_lock(void);
void fabric_unlock(void);

// Wraps a connected non-blocking socket "fd" (taken over) in a link whose frames the progress
// thread reads; "ops"/"arg" receive its management frames. Returns NULL with errno set on
// failure (fd closed). The caller owns one reference, dropped by fabric_link_close.
fabric_link* fabric_link_create(int fd, const struct fabric_link_ops* ops, void* arg);

// Queues one frame of "type" with "len" body bytes for sending; never blocks. Returns 0, or -1
// when the link is already closed.
int fabric_link_send(fabric_link* link, uint32_t type, const void* body, size_t len);

// Sends everything queued, then closes the socket; no callback runs after this. Flushes the
// attached queue pair. Drops the caller's reference: "link" must not be used afterwards.
void fabric_link_close(fabric_link* link);

// Whether the socket is still open (no EOF or error seen and not closed).
int fabric_link_alive(const fabric_link* link);

// Connects "qp" to the link: its sends travel over it and the peer's requests land in it.
// "rnr_retry" is the queue pair's requester RNR retry count (7 = retry forever). Moves the
// queue pair to RTS. "qp" may be NULL (a connection without a queue pair).
void fabric_link_attach_qp(fabric_link* link, struct ibv_qp* qp, uint8_t rnr_retry);

// Moves "qp" to the error state, completing its posted receives and outstanding sends with
// IBV_WC_WR_FLUSH_ERR. Harmless on a queue pair already in error.
void fabric_qp_flush(struct ibv_qp* qp);

// Calls "cb(arg)" on the progress thread (lock held) whenever "fd" is readable, until
// fabric_unwatch_fd with the returned token. Returns 0 on failure.
uint64_t fabric_watch_fd(int fd, void (*cb)(void* arg), void* arg);
void fabric_unwatch_fd(uint64_t token);

// The context every rdma_cm id of this process uses (opened once, never closed). Lock not held.
struct ibv_context* fabric_default_context(void);

// Counters of the stats file that connection management feeds. Any thread, lock or not.
enum fabric_counter {
  FABRIC_CONNECTIONS_ESTABLISHED,
  FABRIC_CONNECT_REJECTED,
  FABRIC_DISCONNECTS,
  FABRIC_COUNTER_LIMIT_CM
};
void fabric_count(enum fabric_counter counter, uint64_t n);

#ifdef __cplusplus
}
#endif

#endif  // PLINTH_TESTS_RDMA_FABRIC_FABRIC_PRIVATE_H_
