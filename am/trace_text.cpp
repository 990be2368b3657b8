#include "trace_text.h"

#include "hw/discovery.h"
#include "hw/gc_generations.h"
#include "hw/ih_v6.h"
#include "packet_names.h"

#include <cstdarg>
#include <cstdio>

namespace am {
namespace {

using namespace trace;

__attribute__((format(printf, 1, 2))) std::string format(const char* fmt, ...) {
  char buf[512];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  return buf;
}

std::string packets_line(const TracePackets& p) {
  const bool compute = p.engine == kEngineCompute;
  const std::string names =
      compute ? pm4_packet_names(p.words) : sdma_packet_names(p.words, p.starts);
  return format("%s submission: %s (%zu dwords), ring 0x%llx, doorbell %u = 0x%llx",
                compute ? "compute" : "SDMA", names.c_str(), p.words.size(),
                static_cast<unsigned long long>(p.ring_va), p.doorbell,
                static_cast<unsigned long long>(p.wptr));
}

std::string interrupt_line(const TraceRecord& r) {
  if (r.payload.size() != 4 * hw::ih::kEntryDwords) return "interrupt: (malformed entry)";
  uint32_t words[hw::ih::kEntryDwords];
  for (unsigned i = 0; i < hw::ih::kEntryDwords; ++i)
    words[i] = uint32_t(r.payload[4 * i]) | uint32_t(r.payload[4 * i + 1]) << 8 |
               uint32_t(r.payload[4 * i + 2]) << 16 | uint32_t(r.payload[4 * i + 3]) << 24;
  const hw::ih::IvEntry iv = hw::ih::decode(words);
  return format("interrupt: client %u source %u ring %u vmid %u, data 0x%x 0x%x 0x%x 0x%x",
                iv.client_id, iv.source_id, iv.ring_id, iv.vmid, iv.src_data[0], iv.src_data[1],
                iv.src_data[2], iv.src_data[3]);
}

std::string phase_line(const TraceRecord& r) {
  const std::string name = phase_name_of(r);
  const double ms = double(r.value) / 1e6;
  switch (r.bar) {
  case kPhaseBegin:
    return format("%s: begins", name.c_str());
  case kPhaseEnd:
    return format("%s: done (%.1f ms)", name.c_str(), ms);
  default:
    return format("boot failed in %s after %.1f ms: %s", name.c_str(), ms,
                  phase_error_of(r).c_str());
  }
}

} // namespace

RegisterNames trace_register_names(const IpDiscovery& ip) {
  const IpBlock* gc = ip.find(hw::discovery::GC_HWID);
  GcRegisters regs;
  if (gc) {
    regs.table = hw::gc_regs_for(gc->major, gc->minor, gc->revision);
    regs.bases = RegisterBases::of(*gc);
    regs.major = gc->major;
  }
  return register_names(ip, regs);
}

std::string trace_line(const TraceRecord& r, const RegisterNames& names) {
  const char* verb = r.kind == kRead ? "read" : "write";
  switch (r.kind) {
  case kRead:
  case kWrite:
    if (r.bar == kRegisterBar)
      return format("%s %s = 0x%08x", verb, names.label(r.offset / 4).c_str(), uint32_t(r.value));
    if (r.bar == kDoorbellBar)
      return format("doorbell %u = 0x%llx", r.offset / 4, static_cast<unsigned long long>(r.value));
    return format("config %s 0x%02x = 0x%08x", verb, r.offset, uint32_t(r.value));
  case kBusMaster:
    return "config: bus master on";
  case kConfigRestore:
    return "config: header restored after a reset";
  case kPackets:
    if (std::optional<TracePackets> p = packets_of(r)) return packets_line(*p);
    return "submission: (malformed record)";
  case kInterrupt:
    return interrupt_line(r);
  case kPhase:
    return phase_line(r);
  case kIpBlock:
    if (std::optional<IpBlock> b = ip_block_of(r))
      return format("IP block %s: version %s, register bases %s", ip_block_name(b->hw_id).c_str(),
                    version_of(*b).c_str(), bases_of(*b).c_str());
    return "IP block: (malformed record)";
  case kFirmware:
    if (std::optional<TraceFirmware> f = firmware_of(r))
      return format("firmware: %s, %llu bytes, version 0x%x", f->name.c_str(),
                    static_cast<unsigned long long>(f->bytes), f->version);
    return "firmware: (malformed record)";
  }
  return format("record of unknown kind %u", unsigned(r.kind));
}

std::string ip_block_name(uint16_t hw_id) {
  using namespace hw::discovery;
  switch (hw_id) {
  case MP1_HWID:
    return "MP1 (SMU)";
  case SMUIO_HWID:
    return "SMUIO";
  case GC_HWID:
    return "GC";
  case VCN_HWID:
    return "VCN";
  case MMHUB_HWID:
    return "MMHUB";
  case ATHUB_HWID:
    return "ATHUB";
  case OSSSYS_HWID:
    return "OSSSYS (IH)";
  case HDP_HWID:
    return "HDP";
  case SDMA0_HWID:
    return "SDMA0";
  case DF_HWID:
    return "DF";
  case NBIF_HWID:
    return "NBIF";
  case UMC_HWID:
    return "UMC";
  case MP0_HWID:
    return "MP0 (PSP)";
  }
  return "hwid " + std::to_string(hw_id);
}

std::string ip_block_of_register(const IpDiscovery& ip, uint32_t index) {
  const IpBlock* best = nullptr;
  uint64_t best_base = 0;
  for (const IpBlock& b : ip.blocks)
    for (uint64_t base : b.bases)
      if (base != 0 && base <= index && (!best || base > best_base)) best = &b, best_base = base;
  return best ? ip_block_name(best->hw_id) : std::string();
}

} // namespace am
