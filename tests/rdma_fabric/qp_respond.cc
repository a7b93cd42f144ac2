// The responder half of an RC queue pair: requests arriving on a link land in registered memory
// and posted receives, and every request is answered in order with an ACK (gathered per read)
// or a NAK. A request that needs a receive when none is posted waits, with everything behind
// it, if its requester retries RNR forever; otherwise it is refused with an RNR NAK.
#include <cstring>

#include "core.h"

namespace plinth::rdma_fabric {
namespace {

void Nak(Link* link, ibv_wc_status status) {
  QpSendAcks(link);
  FrameHeader h{};
  h.type = kFrameNak;
  h.imm = static_cast<uint32_t>(status);
  LinkAppend(link, &h, sizeof h);
  LinkFlush(link);
  link->refusing = true;  // the requester's queue pair is in error: nothing later counts
}

void CompleteRecv(Qp* qp, const RecvEntry& r, ibv_wc_status status, ibv_wc_opcode opcode,
                  uint32_t byte_len, const FrameHeader* h) {
  ibv_wc wc{};
  wc.wr_id = r.wr_id;
  wc.status = status;
  wc.opcode = opcode;
  wc.byte_len = byte_len;
  wc.qp_num = qp->ibv.qp_num;
  if (h != nullptr && (h->flags & kFlagImm)) {
    wc.wc_flags = IBV_WC_WITH_IMM;
    wc.imm_data = h->imm;
  }
  CqPush(From<Cq>(qp->ibv.recv_cq), wc);
}

// The region an rkey names, if it admits a remote write of [raddr, raddr + len).
uint8_t* RemoteTarget(const Qp* qp, uint32_t rkey, uint64_t raddr, uint32_t len) {
  Mr* mr = FindMr(rkey);
  if (mr == nullptr || mr->ibv.pd != qp->ibv.pd || !(mr->access & IBV_ACCESS_REMOTE_WRITE))
    return nullptr;
  if (raddr < mr->iova || raddr - mr->iova > mr->ibv.length ||
      len > mr->ibv.length - (raddr - mr->iova))
    return nullptr;
  return static_cast<uint8_t*>(mr->ibv.addr) + (raddr - mr->iova);
}

bool RecvSgeValid(const Qp* qp, const ibv_sge& sge) {
  if (sge.length == 0) return true;
  Mr* mr = FindMr(sge.lkey);
  if (mr == nullptr || mr->ibv.pd != qp->ibv.pd || !(mr->access & IBV_ACCESS_LOCAL_WRITE))
    return false;
  auto base = reinterpret_cast<uintptr_t>(mr->ibv.addr);
  return sge.addr >= base && sge.addr - base <= mr->ibv.length &&
         sge.length <= mr->ibv.length - (sge.addr - base);
}

void ExecuteSend(Link* link, Qp* qp, const FrameHeader& h, const uint8_t* body) {
  RecvEntry r = std::move(qp->recvs.front());
  qp->recvs.pop_front();
  uint64_t room = 0;
  for (const ibv_sge& sge : r.sges) room += sge.length;
  if (h.len > room) {
    CompleteRecv(qp, r, IBV_WC_LOC_LEN_ERR, IBV_WC_RECV, 0, nullptr);
    fabric_qp_flush(&qp->ibv);
    Nak(link, IBV_WC_REM_INV_REQ_ERR);
    return;
  }
  uint32_t left = h.len;
  for (const ibv_sge& sge : r.sges) {
    if (left == 0) break;
    uint32_t n = sge.length < left ? sge.length : left;
    if (!RecvSgeValid(qp, sge)) {
      CompleteRecv(qp, r, IBV_WC_LOC_PROT_ERR, IBV_WC_RECV, 0, nullptr);
      fabric_qp_flush(&qp->ibv);
      Nak(link, IBV_WC_REM_OP_ERR);
      return;
    }
    std::memcpy(reinterpret_cast<void*>(sge.addr), body, n);
    body += n;
    left -= n;
  }
  CompleteRecv(qp, r, IBV_WC_SUCCESS, IBV_WC_RECV, h.len, &h);
  link->pending_acks++;
}

void ExecuteWrite(Link* link, Qp* qp, const FrameHeader& h, const uint8_t* body) {
  if (h.len > 0) {
    uint8_t* target = RemoteTarget(qp, h.rkey, h.raddr, h.len);
    if (target == nullptr) {
      // As rxe does for RC: the responder's queue pair errors too.
      fabric_qp_flush(&qp->ibv);
      Nak(link, IBV_WC_REM_ACCESS_ERR);
      return;
    }
    std::memcpy(target, body, h.len);
  }
  if (h.flags & kFlagImm) {
    RecvEntry r = std::move(qp->recvs.front());
    qp->recvs.pop_front();
    CompleteRecv(qp, r, IBV_WC_SUCCESS, IBV_WC_RECV_RDMA_WITH_IMM, h.len, &h);
  }
  link->pending_acks++;
}

bool NeedsRecv(const FrameHeader& h) { return h.type == kFrameSend || (h.flags & kFlagImm); }

void Hold(Link* link, const FrameHeader& h, const uint8_t* body) {
  std::vector<uint8_t> frame(sizeof h + h.len);
  std::memcpy(frame.data(), &h, sizeof h);
  if (h.len > 0) std::memcpy(frame.data() + sizeof h, body, h.len);
  link->waiting.push_back(std::move(frame));
}

void HandleRequest(Link* link, Qp* qp, const FrameHeader& h, const uint8_t* body) {
  if (link->refusing) return;
  if (qp->ibv.state == IBV_QPS_ERR) {
    // What a real requester sees, after its transport retries, from a responder in error.
    Nak(link, IBV_WC_RETRY_EXC_ERR);
    return;
  }
  if (!link->waiting.empty()) {
    Hold(link, h, body);  // RC order: nothing overtakes a request waiting for a receive
    return;
  }
  if (NeedsRecv(h) && qp->recvs.empty()) {
    if (h.flags & kFlagRnrForever) {
      Count(kRnrWaits);
      Hold(link, h, body);
    } else {
      Nak(link, IBV_WC_RNR_RETRY_EXC_ERR);
    }
    return;
  }
  if (h.type == kFrameSend) {
    ExecuteSend(link, qp, h, body);
  } else {
    ExecuteWrite(link, qp, h, body);
  }
}

}  // namespace

void QpHandleFrame(Link* link, const FrameHeader& h, const uint8_t* body) {
  Qp* qp = link->qp;
  switch (h.type) {
    case kFrameAck:
      QpAcked(qp, h.imm);
      break;
    case kFrameNak:
      QpNaked(qp, static_cast<ibv_wc_status>(h.imm));
      break;
    case kFrameSend:
    case kFrameWrite:
      HandleRequest(link, qp, h, body);
      break;
    default:
      break;
  }
}

void QpSendAcks(Link* link) {
  if (link->pending_acks == 0) return;
  FrameHeader h{};
  h.type = kFrameAck;
  h.imm = link->pending_acks;
  link->pending_acks = 0;
  LinkAppend(link, &h, sizeof h);
  LinkFlush(link);
}

void QpDeliverWaiting(Link* link) {
  Qp* qp = link->qp;
  while (qp != nullptr && !link->waiting.empty() && qp->ibv.state != IBV_QPS_ERR) {
    std::vector<uint8_t> frame = std::move(link->waiting.front());
    FrameHeader h;
    std::memcpy(&h, frame.data(), sizeof h);
    if (NeedsRecv(h) && qp->recvs.empty()) {
      link->waiting.front() = std::move(frame);
      break;
    }
    link->waiting.pop_front();
    if (h.type == kFrameSend) {
      ExecuteSend(link, qp, h, frame.data() + sizeof h);
    } else {
      ExecuteWrite(link, qp, h, frame.data() + sizeof h);
    }
  }
  QpSendAcks(link);
}

}  // namespace plinth::rdma_fabric
