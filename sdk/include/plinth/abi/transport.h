/*
 * plinth/abi/transport.h - the plugin C ABI (plinth/plugin.h includes every part):
 * transport plugins: listeners and connections.
 */
#ifndef PLINTH_ABI_TRANSPORT_H
#define PLINTH_ABI_TRANSPORT_H

#include "plinth/abi/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Transports ---------------------------------------------------------------------------- */

/* One buffer of a writev. Frozen as an array element: no struct_size; it never grows. */
typedef struct plinth_iovec {
  const void* base; /* since 1.0 */
  size_t len;       /* since 1.0 */
} plinth_iovec_t;

/* read/writev results below zero */
#define PLINTH_IO_AGAIN (-1) /* nothing now; wait until the connection is ready again */
#define PLINTH_IO_ERROR (-2) /* connection broken */

/* connection flags set by accept */
#define PLINTH_CONN_LOCAL 0x1u /* peer is loopback or a unix socket (protected-mode) */
#define PLINTH_CONN_UNIX 0x2u  /* unix domain socket */

/* transport flags (plinth_transport_spec_t.flags) */
/* writev may keep referencing the buffers it was given after it returns (zero-copy sends,
 * RDMA): the host keeps them until the transport calls conn_released for those bytes. */
#define PLINTH_TRANSPORT_HOLDS_BUFFERS 0x1u
/* accept's descriptor says only "readable" (an RDMA completion channel): the host polls it for
 * reading alone, reads until PLINTH_IO_AGAIN on each readiness, and learns writability from
 * conn_notify(PLINTH_CONN_WRITABLE) as for a transport without a descriptor. */
#define PLINTH_TRANSPORT_POLL_READ_ONLY 0x2u

/* events a transport reports with conn_notify */
#define PLINTH_CONN_READABLE 0x1u /* read may return data now */
#define PLINTH_CONN_WRITABLE 0x2u /* writev may accept bytes now */
#define PLINTH_CONN_CLOSED 0x4u   /* the peer went away or the connection broke */

/* How the host drives a connection. When accept gives a descriptor (*fd >= 0), the host polls
 * it (level-triggered) and calls read once per readiness and writev until it returns
 * PLINTH_IO_AGAIN, then waits for the descriptor to be writable. A transport without a
 * pollable descriptor (*fd = -1) reports readiness with conn_notify instead; the host then
 * reads until read returns PLINTH_IO_AGAIN (it drains) and, after writev returns
 * PLINTH_IO_AGAIN, waits for PLINTH_CONN_WRITABLE. A transport flagged
 * PLINTH_TRANSPORT_POLL_READ_ONLY (RDMA, whose completion channel never says writable) gives a
 * descriptor the host polls for reading only: it drains on each readiness, and writability
 * comes from conn_notify; conn_notify(PLINTH_CONN_READABLE) works too (a readiness the
 * descriptor cannot show, such as completions a writev consumed).
 * read and writev may run on an IO thread: one thread per connection at a time, and the host
 * orders them (a connection's reads and writes never overlap). */
typedef struct plinth_transport_spec {
  uint32_t struct_size; /* since 1.0 */
  const char* name;     /* since 1.0 */
  void* ctx;            /* since 1.0 */
  /* since 1.0: opens the listeners (calls listener_add for each) when the server starts; not
   * called for --help. Returns PLINTH_OK or PLINTH_ERR. OWNERSHIP: the listeners' fds stay
   * the transport's. THREAD: main. */
  int32_t (*start)(void* ctx);
  /* since 1.0: closes the listeners. OWNERSHIP: none. THREAD: main. */
  void (*stop)(void* ctx);
  /* since 1.0: accepts one connection from listener fd lfd. Returns PLINTH_OK and fills *conn
   * (transport state), *fd (what the host polls, or -1: see above), the peer and local address
   * text ("ip:port" or the socket path) and *flags; PLINTH_IO_AGAIN when none is pending;
   * PLINTH_IO_ERROR otherwise. OWNERSHIP: *conn and *fd stay the transport's until close;
   * peer and local are the host's (peerlen, locallen bytes). THREAD: main. */
  int32_t (*accept)(void* ctx, int32_t lfd, void** conn, int32_t* fd, char* peer, size_t peerlen,
                    char* local, size_t locallen, uint32_t* flags);
  /* since 1.0: reads up to len bytes. Returns the count, 0 on EOF, or PLINTH_IO_*.
   * OWNERSHIP: buf is the host's, borrowed for the call. THREAD: any; one thread per
   * connection at a time. */
  int64_t (*read)(void* ctx, void* conn, char* buf, size_t len);
  /* since 1.0: writes the buffers in order. Returns bytes taken (possibly fewer than given) or
   * PLINTH_IO_*. OWNERSHIP: the buffers are the host's; borrowed for the call, or, with
   * PLINTH_TRANSPORT_HOLDS_BUFFERS, until conn_released covers the bytes taken. THREAD: any;
   * one thread per connection at a time. */
  int64_t (*writev)(void* ctx, void* conn, const plinth_iovec_t* iov, int32_t iovcnt);
  /* since 1.0: closes and frees the connection. Once it returns, the transport references no
   * buffer of the host's and calls neither conn_notify nor conn_released for it. OWNERSHIP:
   * frees conn (and closes its fd). THREAD: main. */
  void (*close)(void* ctx, void* conn);
  /* since 1.0: PLINTH_TRANSPORT_* */
  uint32_t flags;
  /* since 1.0 (optional): gives a just-accepted connection its host-side handle, for
   * conn_notify and conn_released; called before any read. OWNERSHIP: the handle is the
   * host's, valid until close returns. THREAD: main. */
  void (*attach)(void* ctx, void* conn, plinth_conn_t* host);
} plinth_transport_spec_t;

#ifdef __cplusplus
}
#endif

#endif /* PLINTH_ABI_TRANSPORT_H */
