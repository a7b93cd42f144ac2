/* A test transport that accepts on loopback but reports every peer as remote (no
 * PLINTH_CONN_LOCAL), so the host's protected-mode rule can be tested without leaving
 * 127.0.0.1. Option: test-remote-port. Test-only; never installed. */
#define _GNU_SOURCE /* accept4 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <plinth/plugin.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

static const plinth_host_api_t* api;
static int32_t transport_id = -1;
static plinth_plugin_t* plugin;
static const plinth_option_t* port_option;
static int listen_fd = -1;

static int32_t Start(void* ctx) {
  (void)ctx;
  int64_t port = api->option_int(port_option);
  struct sockaddr_in a = {0};
  a.sin_family = AF_INET;
  a.sin_port = htons((uint16_t)port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  int one = 1;
  listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  setsockopt(listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (bind(listen_fd, (struct sockaddr*)&a, sizeof a) != 0 || listen(listen_fd, 16) != 0)
    return PLINTH_ERR;
  return api->listener_add(plugin, transport_id, listen_fd, "test-remote");
}

static void Stop(void* ctx) {
  (void)ctx;
  if (listen_fd >= 0) close(listen_fd);
  listen_fd = -1;
}

static int32_t Accept(void* ctx, int32_t lfd, void** conn, int32_t* fd, char* peer, size_t peerlen,
                      char* local, size_t locallen, uint32_t* flags) {
  (void)ctx;
  int c = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
  if (c < 0) return errno == EAGAIN ? PLINTH_IO_AGAIN : PLINTH_IO_ERROR;
  *conn = (void*)(intptr_t)c;
  *fd = c;
  snprintf(peer, peerlen, "203.0.113.7:4242"); /* documentation address: "remote" */
  snprintf(local, locallen, "test-remote");
  *flags = 0;
  return PLINTH_OK;
}

static int64_t Read(void* ctx, void* conn, char* buf, size_t len) {
  (void)ctx;
  ssize_t n = read((int)(intptr_t)conn, buf, len);
  if (n < 0) return errno == EAGAIN ? PLINTH_IO_AGAIN : PLINTH_IO_ERROR;
  return n;
}

static int64_t Writev(void* ctx, void* conn, const plinth_iovec_t* iov, int32_t n) {
  (void)ctx;
  ssize_t w = writev((int)(intptr_t)conn, (const struct iovec*)iov, n);
  if (w < 0) return errno == EAGAIN ? PLINTH_IO_AGAIN : PLINTH_IO_ERROR;
  return w;
}

static void Close(void* ctx, void* conn) {
  (void)ctx;
  close((int)(intptr_t)conn);
}

static int32_t Init(plinth_plugin_t* self, const plinth_host_api_t* host) {
  api = host;
  plinth_option_spec_t o = {0};
  o.struct_size = sizeof o;
  o.name = "test-remote-port";
  o.type = PLINTH_OPT_INT;
  o.flags = PLINTH_OPT_GLOBAL_NAME;
  o.default_value = "0";
  o.max = 65535;
  o.description = "loopback port whose clients count as remote";
  plugin = self;
  port_option = api->option_register(self, &o);
  if (!port_option) return PLINTH_ERR;
  plinth_transport_spec_t t = {0};
  t.struct_size = sizeof t;
  t.name = "test-remote";
  t.start = Start;
  t.stop = Stop;
  t.accept = Accept;
  t.read = Read;
  t.writev = Writev;
  t.close = Close;
  transport_id = api->transport_register(self, &t);
  return transport_id < 0 ? PLINTH_ERR : PLINTH_OK;
}

static const plinth_plugin_descriptor_t kDescriptor = {sizeof(plinth_plugin_descriptor_t),
                                                       PLINTH_ABI_MAJOR,
                                                       PLINTH_TARGET_MINOR,
                                                       0,
                                                       "test_remote",
                                                       "0",
                                                       "test transport whose peers count as remote",
                                                       Init,
                                                       NULL,
                                                       {NULL, NULL, NULL, NULL}};

PLINTH_EXPORT const plinth_plugin_descriptor_t* plinth_plugin_entry_v1(void) {
  return &kDescriptor;
}
