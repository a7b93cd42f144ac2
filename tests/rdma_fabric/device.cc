// The fabric's one device ("fabric0") and its contexts: device list, open/close, the query
// verbs, fork_init and the (never firing) async event queue. Any thread.
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "core.h"

#undef ibv_query_port

using namespace plinth::rdma_fabric;

namespace {

constexpr uint64_t kNodeGuid = 0x0002c9fffe000001ULL;

ibv_device* TheDevice() {
  static ibv_device* device = [] {
    auto* d = static_cast<ibv_device*>(calloc(1, sizeof(ibv_device)));
    d->node_type = IBV_NODE_CA;
    d->transport_type = IBV_TRANSPORT_IB;
    std::strcpy(d->name, "fabric0");
    std::strcpy(d->dev_name, "uverbs0");
    std::strcpy(d->dev_path, "/sys/class/infiniband_verbs/uverbs0");
    std::strcpy(d->ibdev_path, "/sys/class/infiniband/fabric0");
    return d;
  }();
  return device;
}

int PostSrqRecv(ibv_srq*, ibv_recv_wr*, ibv_recv_wr** bad_wr) {
  *bad_wr = nullptr;
  return EOPNOTSUPP;
}

ibv_mw* AllocMw(ibv_pd*, ibv_mw_type) {
  errno = EOPNOTSUPP;
  return nullptr;
}

int BindMw(ibv_qp*, ibv_mw*, ibv_mw_bind*) { return EOPNOTSUPP; }

int DeallocMw(ibv_mw*) { return EOPNOTSUPP; }

}  // namespace

extern "C" {

struct ibv_device** ibv_get_device_list(int* num_devices) {
  auto** list = static_cast<ibv_device**>(calloc(2, sizeof(ibv_device*)));
  if (list == nullptr) {
    errno = ENOMEM;
    return nullptr;
  }
  list[0] = TheDevice();
  if (num_devices != nullptr) *num_devices = 1;
  return list;
}

void ibv_free_device_list(struct ibv_device** list) { free(list); }

const char* ibv_get_device_name(struct ibv_device* device) { return device->name; }

__be64 ibv_get_device_guid(struct ibv_device*) { return htobe64(kNodeGuid); }

struct ibv_context* ibv_open_device(struct ibv_device* device) {
  auto* vctx = static_cast<verbs_context*>(calloc(1, sizeof(verbs_context)));
  if (vctx == nullptr) {
    errno = ENOMEM;
    return nullptr;
  }
  // Extended ops stay NULL, so verbs_get_ctx_op() reports every one of them absent.
  vctx->sz = sizeof(verbs_context);
  ibv_context* c = &vctx->context;
  c->device = device;
  c->ops.poll_cq = PollCq;
  c->ops.req_notify_cq = ReqNotifyCq;
  c->ops.post_send = PostSend;
  c->ops.post_recv = PostRecv;
  c->ops.post_srq_recv = PostSrqRecv;
  c->ops.alloc_mw = AllocMw;
  c->ops.bind_mw = BindMw;
  c->ops.dealloc_mw = DeallocMw;
  c->cmd_fd = -1;
  c->async_fd = eventfd(0, EFD_SEMAPHORE | EFD_CLOEXEC);
  c->num_comp_vectors = 1;
  pthread_mutex_init(&c->mutex, nullptr);
  c->abi_compat = __VERBS_ABI_IS_EXTENDED;
  return c;
}

int ibv_close_device(struct ibv_context* context) {
  close(context->async_fd);
  pthread_mutex_destroy(&context->mutex);
  free(verbs_get_ctx(context));
  return 0;
}

int ibv_query_device(struct ibv_context*, struct ibv_device_attr* attr) {
  std::memset(attr, 0, sizeof *attr);
  std::strcpy(attr->fw_ver, "1.0.0");
  attr->node_guid = htobe64(kNodeGuid);
  attr->sys_image_guid = htobe64(kNodeGuid);
  attr->max_mr_size = ~0ULL;
  attr->page_size_cap = 0xfffff000;
  attr->vendor_id = 0x1;
  attr->max_qp = 65536;
  attr->max_qp_wr = 16384;
  attr->device_cap_flags = IBV_DEVICE_RC_RNR_NAK_GEN | IBV_DEVICE_PORT_ACTIVE_EVENT;
  attr->max_sge = 32;
  attr->max_sge_rd = 32;
  attr->max_cq = 65536;
  attr->max_cqe = 4194303;
  attr->max_mr = 1 << 20;
  attr->max_pd = 1 << 16;
  attr->max_qp_rd_atom = 16;
  attr->max_qp_init_rd_atom = 16;
  attr->max_res_rd_atom = 1 << 20;
  attr->atomic_cap = IBV_ATOMIC_NONE;
  attr->max_pkeys = 1;
  attr->phys_port_cnt = 1;
  return 0;
}

// The header routes ibv_query_port() here with the legacy (shorter) struct: write only the
// fields that struct has, which end at link_layer.
int ibv_query_port(struct ibv_context*, uint8_t port_num, struct _compat_ibv_port_attr* out) {
  if (port_num != 1) return EINVAL;
  auto* attr = reinterpret_cast<ibv_port_attr*>(out);
  attr->state = IBV_PORT_ACTIVE;
  attr->max_mtu = IBV_MTU_4096;
  attr->active_mtu = IBV_MTU_4096;
  attr->gid_tbl_len = 1;
  attr->port_cap_flags = 0;
  attr->max_msg_sz = 1U << 31;
  attr->pkey_tbl_len = 1;
  attr->active_width = 1;
  attr->active_speed = 1;
  attr->phys_state = 5;  // LinkUp
  attr->link_layer = IBV_LINK_LAYER_ETHERNET;
  return 0;
}

int ibv_query_gid(struct ibv_context*, uint8_t port_num, int index, union ibv_gid* gid) {
  if (port_num != 1 || index != 0) return -1;
  std::memset(gid, 0, sizeof *gid);
  gid->raw[10] = 0xff;
  gid->raw[11] = 0xff;
  gid->raw[12] = 127;
  gid->raw[15] = 1;
  return 0;
}

int ibv_query_pkey(struct ibv_context*, uint8_t port_num, int index, __be16* pkey) {
  if (port_num != 1 || index != 0) return -1;
  *pkey = htobe16(0xffff);
  return 0;
}

int ibv_fork_init(void) { return 0; }

int ibv_get_async_event(struct ibv_context* context, struct ibv_async_event* event) {
  uint64_t v;
  // Nothing ever raises an async event; this blocks, or fails with EAGAIN when non-blocking.
  if (read(context->async_fd, &v, sizeof v) != sizeof v) return -1;
  std::memset(event, 0, sizeof *event);
  event->event_type = IBV_EVENT_DEVICE_FATAL;
  return 0;
}

void ibv_ack_async_event(struct ibv_async_event*) {}

}  // extern "C"
