/* A test transport shaped like RDMA: its connections have no descriptor the host can poll
 * (accept gives *fd = -1), so readiness comes from conn_notify, and it keeps the buffers writev
 * gives it (PLINTH_TRANSPORT_HOLDS_BUFFERS): writev only queues references, and one background
 * thread sends them later, slowly (at most 64 KiB per connection per wake-up, optionally with a
 * pause), then reports the bytes it is done with through conn_released. A host that frees or
 * moves a buffer before the release shows up under ASan (the send reads freed memory), and
 * close checks that every reference it still holds points at live memory.
 *
 * Options: test-notify-port (0: off), test-notify-partial (writev takes only what fits below
 * the queue limit, splitting buffers), test-notify-send-pause-us (the thread sleeps this long
 * after each round of sends). Which replies reach it by reference is the reply_offload
 * plugin's rule (reply_offload.min-size). INFO test_notify shows counters.
 * Test-only; never installed. */
#define _GNU_SOURCE /* accept4 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <plinth/plugin.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define NOTIFY_ASAN 1
#endif

#define QUEUE_LIMIT (256u * 1024u) /* unsent bytes above which writev says PLINTH_IO_AGAIN */
#define SEND_BUDGET (64u * 1024u)  /* bytes sent per connection per wake-up */
#define SEND_IOV 64                /* references per sendmsg */
#define WAKE_ID 0                  /* epoll data of the eventfd; connections count from 1 */
#define RECENT 64                  /* released ranges remembered for INFO */

/* One buffer (or the part of one) that writev took and the thread has not sent yet. */
typedef struct Ref {
  const char* base;
  size_t len;
} Ref;

typedef struct Conn {
  uint64_t id; /* epoll data; never reused, so a stale event finds nothing */
  int fd;
  struct Conn* next; /* the list of attached connections (g.mu) */
  int linked;        /* on that list (g.mu) */

  /* Everything below is shared between the thread, writev/read (any thread) and close: mu. */
  pthread_mutex_t mu;
  plinth_conn_t* handle; /* from attach */
  Ref* q;                /* unsent references: q[qhead..qlen) */
  size_t qhead, qlen, qcap;
  size_t head_off;   /* bytes of q[qhead] already sent */
  uint64_t taken;    /* bytes writev took, ever */
  uint64_t sent;     /* bytes sent (and released), ever */
  int in_epoll;      /* registered in the epoll set */
  int in_armed;      /* EPOLLIN wanted: off from a READABLE notify until read says AGAIN */
  int out_armed;     /* EPOLLOUT wanted: while references are queued */
  int want_writable; /* writev said AGAIN: notify WRITABLE once below the limit */
  int broken;        /* the socket failed or hung up; CLOSED was notified */
} Conn;

static const plinth_host_api_t* api;
static plinth_plugin_t* plugin;
static int32_t transport_id = -1;
static const plinth_option_t* port_option;
static const plinth_option_t* partial_option;
static const plinth_option_t* pause_option;

/* Read by writev (any thread) and the thread; set in Start before either runs. */
static int partial_mode;
static int64_t pause_us;

/* Main thread only. */
static int listen_fd = -1;
static int thread_running;
static pthread_t thread;

static struct {
  pthread_mutex_t mu; /* the connection list and stopping; taken before a Conn's mu */
  Conn* conns;
  uint64_t next_id;
  int epfd, evfd; /* set in Start, before the thread and any connection; never changed */
  int stopping;
  /* The last RECENT ranges sent and released, to see (ASan) whether the host freed them. */
  Ref recent[RECENT];
  size_t recent_next;
} g = {PTHREAD_MUTEX_INITIALIZER, NULL, 1, -1, -1, 0, {{NULL, 0}}, 0};

/* Counters for INFO test_notify (any thread). */
static atomic_uint_fast64_t st_accepted, st_writev_calls, st_writev_again, st_partial_takes,
    st_sends, st_releases, st_early_frees, st_max_unsent, st_notify_readable, st_notify_writable,
    st_notify_closed;

static void Log(const char* msg) { api->log_write(plugin, PLINTH_LOG_WARNING, msg, strlen(msg)); }

static void NoteMax(atomic_uint_fast64_t* a, uint64_t v) {
  uint_fast64_t seen = atomic_load(a);
  while (seen < v && !atomic_compare_exchange_weak(a, &seen, v)) {
  }
}

/* The epoll mask c wants now. THREAD: any, c->mu held. */
static void Rearm(Conn* c) {
  if (!c->in_epoll) return;
  struct epoll_event ev;
  memset(&ev, 0, sizeof ev);
  ev.events = (c->in_armed ? EPOLLIN | EPOLLRDHUP : 0) | (c->out_armed ? EPOLLOUT : 0);
  ev.data.u64 = c->id;
  epoll_ctl(g.epfd, EPOLL_CTL_MOD, c->fd, &ev);
}

/* The socket failed: stop watching it and tell the host once. THREAD: ours, g.mu and c->mu
 * held. */
static void Broken(Conn* c) {
  if (c->broken) return;
  c->broken = 1;
  if (c->in_epoll) epoll_ctl(g.epfd, EPOLL_CTL_DEL, c->fd, NULL);
  c->in_epoll = 0;
  atomic_fetch_add(&st_notify_closed, 1);
  api->conn_notify(c->handle, PLINTH_CONN_CLOSED);
}

/* Sends up to SEND_BUDGET bytes of c's queue, then releases them to the host. THREAD: ours,
 * g.mu and c->mu held. */
static void SendSome(Conn* c) {
  struct iovec iov[SEND_IOV];
  int n = 0;
  size_t budget = SEND_BUDGET;
  for (size_t i = c->qhead; i < c->qlen && n < SEND_IOV && budget > 0; ++i) {
    const char* p = c->q[i].base;
    size_t len = c->q[i].len;
    if (i == c->qhead) {
      p += c->head_off;
      len -= c->head_off;
    }
    if (len > budget) len = budget;
    iov[n].iov_base = (void*)p;
    iov[n].iov_len = len;
    budget -= len;
    ++n;
  }
  if (n == 0) {
    c->out_armed = 0;
    Rearm(c);
    return;
  }
  struct msghdr m;
  memset(&m, 0, sizeof m);
  m.msg_iov = iov;
  m.msg_iovlen = (size_t)n;
  ssize_t w = sendmsg(c->fd, &m, MSG_NOSIGNAL | MSG_DONTWAIT);
  if (w < 0) {
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return; /* EPOLLOUT again */
    if (errno != EPIPE && errno != ECONNRESET) { /* EFAULT: a buffer of the host's is gone */
      char msg[96];
      snprintf(msg, sizeof msg, "sendmsg failed with errno %d (id %llu)", errno,
               (unsigned long long)c->id);
      Log(msg);
    }
    Broken(c);
    return;
  }
  atomic_fetch_add(&st_sends, 1);
  size_t left = (size_t)w;
  c->sent += (uint64_t)w;
  while (left > 0 && c->qhead < c->qlen) {
    size_t rest = c->q[c->qhead].len - c->head_off;
    if (left < rest) {
      c->head_off += left;
      break;
    }
    left -= rest;
    c->head_off = 0;
    g.recent[g.recent_next++ % RECENT] = c->q[c->qhead];
    ++c->qhead;
  }
  if (c->qhead == c->qlen) {
    c->qhead = c->qlen = 0;
    c->head_off = 0;
    c->out_armed = 0;
    Rearm(c);
  }
  atomic_fetch_add(&st_releases, 1);
  api->conn_released(c->handle, c->sent);
  if (c->want_writable && c->taken - c->sent < QUEUE_LIMIT) {
    c->want_writable = 0;
    atomic_fetch_add(&st_notify_writable, 1);
    api->conn_notify(c->handle, PLINTH_CONN_WRITABLE);
  }
}

/* Handles one epoll event of connection id. THREAD: ours. */
static void Serve(uint64_t id, uint32_t events) {
  pthread_mutex_lock(&g.mu);
  Conn* c = g.conns;
  while (c && c->id != id) c = c->next;
  if (!c) { /* closed since epoll_wait returned */
    pthread_mutex_unlock(&g.mu);
    return;
  }
  pthread_mutex_lock(&c->mu);
  if (events & (EPOLLERR | EPOLLHUP)) {
    Broken(c);
  } else {
    if ((events & EPOLLOUT) && c->in_epoll) SendSome(c);
    if ((events & (EPOLLIN | EPOLLRDHUP)) && c->in_epoll && !c->broken) {
      c->in_armed = 0; /* until read says AGAIN: the host drains */
      Rearm(c);
      atomic_fetch_add(&st_notify_readable, 1);
      api->conn_notify(c->handle, PLINTH_CONN_READABLE);
    }
  }
  pthread_mutex_unlock(&c->mu);
  pthread_mutex_unlock(&g.mu);
}

/* The background thread: sends queued references and turns socket readiness into
 * conn_notify. THREAD: ours. */
static void* Loop(void* arg) {
  (void)arg;
  struct epoll_event ev[64];
  for (;;) {
    int n = epoll_wait(g.epfd, ev, 64, -1);
    if (n < 0) {
      if (errno == EINTR) continue;
      Log("epoll_wait failed; the transport thread stops");
      return NULL;
    }
    for (int i = 0; i < n; ++i) {
      if (ev[i].data.u64 == WAKE_ID) {
        uint64_t v;
        if (read(g.evfd, &v, sizeof v) < 0) { /* nothing to drain */
        }
        pthread_mutex_lock(&g.mu);
        int stop = g.stopping;
        pthread_mutex_unlock(&g.mu);
        if (stop) return NULL;
        continue;
      }
      Serve(ev[i].data.u64, ev[i].events);
    }
    if (pause_us > 0) {
      struct timespec ts = {(time_t)(pause_us / 1000000), (long)(pause_us % 1000000) * 1000};
      nanosleep(&ts, NULL);
    }
  }
}

/* THREAD: main. */
static void StopThread(void) {
  if (!thread_running) return;
  pthread_mutex_lock(&g.mu);
  g.stopping = 1;
  pthread_mutex_unlock(&g.mu);
  uint64_t one = 1;
  if (write(g.evfd, &one, sizeof one) < 0) Log("cannot wake the transport thread");
  pthread_join(thread, NULL);
  thread_running = 0;
  /* The epoll set stays open: connections closed after this still remove themselves. */
}

static int32_t Start(void* ctx) {
  (void)ctx;
  int64_t port = api->option_int(port_option);
  if (port == 0) return PLINTH_OK;
  partial_mode = (int)api->option_int(partial_option);
  pause_us = api->option_int(pause_option);
  struct sockaddr_in a;
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_port = htons((uint16_t)port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  int one = 1;
  listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (listen_fd < 0) return PLINTH_ERR;
  setsockopt(listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (bind(listen_fd, (struct sockaddr*)&a, sizeof a) != 0 || listen(listen_fd, 64) != 0) {
    Log("cannot listen on test-notify-port");
    close(listen_fd);
    listen_fd = -1;
    return PLINTH_ERR;
  }
  g.epfd = epoll_create1(EPOLL_CLOEXEC);
  g.evfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (g.epfd < 0 || g.evfd < 0) return PLINTH_ERR;
  struct epoll_event ev;
  memset(&ev, 0, sizeof ev);
  ev.events = EPOLLIN;
  ev.data.u64 = WAKE_ID;
  if (epoll_ctl(g.epfd, EPOLL_CTL_ADD, g.evfd, &ev) != 0) return PLINTH_ERR;
  g.stopping = 0;
  if (pthread_create(&thread, NULL, Loop, NULL) != 0) return PLINTH_ERR;
  thread_running = 1;
  return api->listener_add(plugin, transport_id, listen_fd, "test-notify");
}

static void Stop(void* ctx) {
  (void)ctx;
  if (listen_fd >= 0) close(listen_fd);
  listen_fd = -1;
}

static void AddrText(const struct sockaddr_in* a, char* out, size_t len) {
  char ip[INET_ADDRSTRLEN] = "?";
  inet_ntop(AF_INET, &a->sin_addr, ip, sizeof ip);
  snprintf(out, len, "%s:%u", ip, (unsigned)ntohs(a->sin_port));
}

static int32_t Accept(void* ctx, int32_t lfd, void** conn, int32_t* fd, char* peer, size_t peerlen,
                      char* local, size_t locallen, uint32_t* flags) {
  (void)ctx;
  struct sockaddr_in pa, la;
  socklen_t plen = sizeof pa, llen = sizeof la;
  int s = accept4(lfd, (struct sockaddr*)&pa, &plen, SOCK_NONBLOCK | SOCK_CLOEXEC);
  if (s < 0) return errno == EAGAIN || errno == EWOULDBLOCK ? PLINTH_IO_AGAIN : PLINTH_IO_ERROR;
  Conn* c = calloc(1, sizeof *c);
  if (!c) {
    close(s);
    return PLINTH_IO_ERROR;
  }
  int one = 1;
  setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  c->fd = s;
  pthread_mutex_init(&c->mu, NULL);
  pthread_mutex_lock(&g.mu);
  c->id = g.next_id++;
  pthread_mutex_unlock(&g.mu);
  AddrText(&pa, peer, peerlen);
  if (getsockname(s, (struct sockaddr*)&la, &llen) == 0)
    AddrText(&la, local, locallen);
  else
    snprintf(local, locallen, "test-notify");
  atomic_fetch_add(&st_accepted, 1);
  *conn = c;
  *fd = -1; /* nothing to poll: the thread notifies */
  *flags = PLINTH_CONN_LOCAL;
  return PLINTH_OK;
}

/* THREAD: main. */
static void Attach(void* ctx, void* conn, plinth_conn_t* host) {
  (void)ctx;
  Conn* c = conn;
  pthread_mutex_lock(&g.mu);
  pthread_mutex_lock(&c->mu);
  c->handle = host;
  c->next = g.conns;
  g.conns = c;
  c->linked = 1;
  c->in_armed = 1;
  struct epoll_event ev;
  memset(&ev, 0, sizeof ev);
  ev.events = EPOLLIN | EPOLLRDHUP;
  ev.data.u64 = c->id;
  if (g.epfd >= 0 && epoll_ctl(g.epfd, EPOLL_CTL_ADD, c->fd, &ev) == 0) c->in_epoll = 1;
  /* Data may have arrived before the socket was watched; the host then reads until AGAIN. */
  atomic_fetch_add(&st_notify_readable, 1);
  api->conn_notify(c->handle, c->in_epoll ? PLINTH_CONN_READABLE : PLINTH_CONN_CLOSED);
  pthread_mutex_unlock(&c->mu);
  pthread_mutex_unlock(&g.mu);
}

/* THREAD: any (one per connection at a time). */
static int64_t Read(void* ctx, void* conn, char* buf, size_t len) {
  (void)ctx;
  Conn* c = conn;
  for (;;) {
    ssize_t n = recv(c->fd, buf, len, MSG_DONTWAIT);
    if (n >= 0) return n;
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) return PLINTH_IO_ERROR;
    pthread_mutex_lock(&c->mu); /* drained: watch for more (level-triggered, so no gap) */
    if (!c->in_armed) {
      c->in_armed = 1;
      Rearm(c);
    }
    pthread_mutex_unlock(&c->mu);
    return PLINTH_IO_AGAIN;
  }
}

/* Queues references to the buffers; never copies and never sends. THREAD: any (one per
 * connection at a time). */
static int64_t Writev(void* ctx, void* conn, const plinth_iovec_t* iov, int32_t iovcnt) {
  (void)ctx;
  Conn* c = conn;
  atomic_fetch_add(&st_writev_calls, 1);
  pthread_mutex_lock(&c->mu);
  if (c->broken) {
    pthread_mutex_unlock(&c->mu);
    return PLINTH_IO_ERROR;
  }
  uint64_t unsent = c->taken - c->sent;
  if (unsent >= QUEUE_LIMIT) {
    c->want_writable = 1;
    pthread_mutex_unlock(&c->mu);
    atomic_fetch_add(&st_writev_again, 1);
    return PLINTH_IO_AGAIN;
  }
  size_t room = partial_mode ? (size_t)(QUEUE_LIMIT - unsent) : SIZE_MAX;
  size_t total = 0;
  for (int32_t i = 0; i < iovcnt && total < room; ++i) {
    size_t take = iov[i].len;
    if (take == 0) continue;
    if (take > room - total) take = room - total;
    if (c->qlen == c->qcap) {
      if (c->qhead > 0) {
        memmove(c->q, c->q + c->qhead, (c->qlen - c->qhead) * sizeof *c->q);
        c->qlen -= c->qhead;
        c->qhead = 0;
      } else {
        size_t cap = c->qcap ? c->qcap * 2 : 64;
        Ref* q = realloc(c->q, cap * sizeof *q);
        if (!q) break;
        c->q = q;
        c->qcap = cap;
      }
    }
    c->q[c->qlen].base = (const char*)iov[i].base;
    c->q[c->qlen].len = take;
    ++c->qlen;
    total += take;
    if (take < iov[i].len) atomic_fetch_add(&st_partial_takes, 1);
  }
  c->taken += total;
  NoteMax(&st_max_unsent, c->taken - c->sent);
  if (total > 0 && !c->out_armed) {
    c->out_armed = 1;
    Rearm(c);
  }
  pthread_mutex_unlock(&c->mu);
  return total > 0 ? (int64_t)total : PLINTH_IO_ERROR;
}

/* THREAD: main. After it returns nothing here refers to conn or its handle. */
static void Close(void* ctx, void* conn) {
  (void)ctx;
  Conn* c = conn;
  pthread_mutex_lock(&g.mu); /* the thread serves a connection only while holding g.mu */
  if (c->linked) {
    Conn** p = &g.conns;
    while (*p != c) p = &(*p)->next;
    *p = c->next;
    c->linked = 0;
  }
  pthread_mutex_lock(&c->mu);
  if (c->in_epoll && g.epfd >= 0) epoll_ctl(g.epfd, EPOLL_CTL_DEL, c->fd, NULL);
  c->in_epoll = 0;
  /* The references still queued are dropped unsent and untouched. The host must keep their
   * buffers until close returns; ASan shows whether it did. */
  size_t early = 0;
#ifdef NOTIFY_ASAN
  for (size_t i = c->qhead; i < c->qlen; ++i)
    if (__asan_region_is_poisoned((void*)c->q[i].base, c->q[i].len)) ++early;
#endif
  pthread_mutex_unlock(&c->mu);
  pthread_mutex_unlock(&g.mu);
  if (early) {
    atomic_fetch_add(&st_early_frees, early);
    char msg[160];
    snprintf(msg, sizeof msg,
             "contract broken: %zu buffer(s) writev gave were freed before close "
             "(id %llu)",
             early, (unsigned long long)c->id);
    Log(msg);
  }
  close(c->fd);
  free(c->q);
  pthread_mutex_destroy(&c->mu);
  free(c);
}

/* THREAD: main. */
static void Info(void* ctx, plinth_info_t* info) {
  (void)ctx;
  uint64_t conns = 0, unsent = 0, refs = 0;
  int64_t live = -1; /* unknown without ASan */
  pthread_mutex_lock(&g.mu);
#ifdef NOTIFY_ASAN
  live = 0;
  for (size_t i = 0; i < RECENT && i < g.recent_next; ++i)
    if (!__asan_region_is_poisoned((void*)g.recent[i].base, g.recent[i].len)) ++live;
#endif
  for (Conn* c = g.conns; c; c = c->next) {
    pthread_mutex_lock(&c->mu);
    ++conns;
    unsent += c->taken - c->sent;
    refs += c->qlen - c->qhead;
    pthread_mutex_unlock(&c->mu);
  }
  pthread_mutex_unlock(&g.mu);
  api->info_field_int(info, "test_notify_connections", (int64_t)conns);
  api->info_field_int(info, "test_notify_unsent_bytes", (int64_t)unsent);
  api->info_field_int(info, "test_notify_queued_refs", (int64_t)refs);
  /* of the last RECENT ranges sent and released: how many are still allocated (a host that
   * copies replies frees them all once it has handled the release; -1 without ASan) */
  api->info_field_int(info, "test_notify_released_live", live);
#define COUNTER(name) \
  api->info_field_int(info, "test_notify_" #name, (int64_t)atomic_load(&st_##name))
  COUNTER(accepted);
  COUNTER(writev_calls);
  COUNTER(writev_again);
  COUNTER(partial_takes);
  COUNTER(sends);
  COUNTER(releases);
  COUNTER(early_frees);
  COUNTER(max_unsent);
  COUNTER(notify_readable);
  COUNTER(notify_writable);
  COUNTER(notify_closed);
#undef COUNTER
}

static void Shutdown(plinth_plugin_t* self) {
  (void)self;
  Stop(NULL);
  StopThread();
}

static const plinth_option_t* AddOption(plinth_plugin_t* self, const char* name, uint32_t type,
                                        const char* def, int64_t max, const char* description) {
  plinth_option_spec_t o;
  memset(&o, 0, sizeof o);
  o.struct_size = sizeof o;
  o.name = name;
  o.type = type;
  o.flags = PLINTH_OPT_GLOBAL_NAME;
  o.default_value = def;
  o.min = 0;
  o.max = max;
  o.description = description;
  return api->option_register(self, &o);
}

static int32_t Init(plinth_plugin_t* self, const plinth_host_api_t* host) {
  api = host;
  plugin = self;
  if (!PLINTH_HAS(api, conn_released)) {
    Log("the host has no conn_notify/conn_released");
    return PLINTH_ERR;
  }
  port_option = AddOption(self, "test-notify-port", PLINTH_OPT_INT, "0", 65535,
                          "loopback port of the notifying, buffer-holding test transport");
  partial_option = AddOption(self, "test-notify-partial", PLINTH_OPT_BOOL, "no", 1,
                             "test-notify writev takes only what fits, splitting buffers");
  pause_option = AddOption(self, "test-notify-send-pause-us", PLINTH_OPT_INT, "0", 1000000,
                           "test-notify's thread sleeps this long after each round of sends");
  if (!port_option || !partial_option || !pause_option) return PLINTH_ERR;
  plinth_transport_spec_t t;
  memset(&t, 0, sizeof t);
  t.struct_size = sizeof t;
  t.name = "test-notify";
  t.start = Start;
  t.stop = Stop;
  t.accept = Accept;
  t.read = Read;
  t.writev = Writev;
  t.close = Close;
  t.flags = PLINTH_TRANSPORT_HOLDS_BUFFERS;
  t.attach = Attach;
  transport_id = api->transport_register(self, &t);
  if (transport_id < 0) return PLINTH_ERR;
  if (api->info_register(self, "test_notify", Info, NULL) != PLINTH_OK) return PLINTH_ERR;
  return PLINTH_OK;
}

static const plinth_plugin_descriptor_t kDescriptor = {
    sizeof(plinth_plugin_descriptor_t),
    PLINTH_ABI_MAJOR,
    PLINTH_TARGET_MINOR,
    0,
    "test_notify",
    "0",
    "test transport without a pollable fd that holds writev's buffers",
    Init,
    Shutdown,
    {NULL, NULL, NULL, NULL}};

PLINTH_EXPORT const plinth_plugin_descriptor_t* plinth_plugin_entry_v1(void) {
  return &kDescriptor;
}
