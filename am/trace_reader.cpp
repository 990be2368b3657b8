#include "trace_reader.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace am {
namespace {

using namespace trace;

uint64_t le(const uint8_t* p, unsigned bytes) {
  uint64_t v = 0;
  for (unsigned i = 0; i < bytes; ++i) v |= uint64_t(p[i]) << (8 * i);
  return v;
}

} // namespace

Trace read_trace(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  const std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in), {}};
  if (bytes.size() < kFileHeaderBytes || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    throw std::runtime_error(path.string() + " is not an AM_TRACE file");
  Trace t;
  t.version = uint32_t(le(&bytes[8], 4));
  if (t.version != kTraceVersion)
    throw std::runtime_error(path.string() + ": trace format version " + std::to_string(t.version) +
                             ", this reader knows " + std::to_string(kTraceVersion));
  const size_t text = size_t(le(&bytes[12], 4));
  size_t at = kFileHeaderBytes + text;
  if (at > bytes.size()) throw std::runtime_error(path.string() + ": header cut short");
  t.card.assign(reinterpret_cast<const char*>(&bytes[kFileHeaderBytes]), text);
  while (at < bytes.size()) {
    if (bytes.size() - at < kRecordHeadBytes) {
      t.truncated = true;
      break;
    }
    TraceRecord r;
    r.kind = TraceKind(bytes[at]);
    r.bar = bytes[at + 1];
    r.size = bytes[at + 2];
    r.offset = uint32_t(le(&bytes[at + 4], 4));
    r.value = le(&bytes[at + 8], 8);
    at += kRecordHeadBytes;
    if (has_payload(r.kind)) {
      if (bytes.size() - at < r.offset) {
        t.truncated = true;
        break;
      }
      r.payload.assign(bytes.begin() + long(at), bytes.begin() + long(at + r.offset));
      at += r.offset;
    }
    t.records.push_back(std::move(r));
  }
  return t;
}

std::optional<TracePackets> packets_of(const TraceRecord& r) {
  const std::vector<uint8_t>& p = r.payload;
  if (r.kind != kPackets || p.size() < 16) return std::nullopt;
  TracePackets out;
  out.engine = TraceEngine(r.bar);
  out.wptr = r.value;
  out.ring_va = le(&p[0], 8);
  out.doorbell = uint32_t(le(&p[8], 4));
  const size_t count = size_t(le(&p[12], 4));
  if (p.size() < 16 + 4 * count || (p.size() - 16 - 4 * count) % 4 != 0) return std::nullopt;
  for (size_t i = 0; i < count; ++i) out.starts.push_back(size_t(le(&p[16 + 4 * i], 4)));
  for (size_t at = 16 + 4 * count; at < p.size(); at += 4)
    out.words.push_back(uint32_t(le(&p[at], 4)));
  return out;
}

std::optional<IpBlock> ip_block_of(const TraceRecord& r) {
  const std::vector<uint8_t>& p = r.payload;
  if (r.kind != kIpBlock || p.size() < 8) return std::nullopt;
  IpBlock b;
  b.hw_id = uint16_t(le(&p[0], 2));
  b.instance = p[2], b.major = p[3], b.minor = p[4], b.revision = p[5];
  const size_t count = size_t(le(&p[6], 2));
  if (p.size() != 8 + 8 * count) return std::nullopt;
  for (size_t i = 0; i < count; ++i) b.bases.push_back(le(&p[8 + 8 * i], 8));
  return b;
}

std::optional<TraceFirmware> firmware_of(const TraceRecord& r) {
  const std::vector<uint8_t>& p = r.payload;
  if (r.kind != kFirmware || p.size() < 12) return std::nullopt;
  return TraceFirmware{std::string(p.begin() + 12, p.end()), le(&p[0], 8), uint32_t(le(&p[8], 4))};
}

std::string phase_name_of(const TraceRecord& r) {
  const std::string text(r.payload.begin(), r.payload.end());
  return text.substr(0, text.find('\n'));
}

std::string phase_error_of(const TraceRecord& r) {
  const std::string text(r.payload.begin(), r.payload.end());
  const size_t nl = text.find('\n');
  return nl == std::string::npos ? std::string() : text.substr(nl + 1);
}

IpDiscovery ip_discovery_of(const Trace& t) {
  IpDiscovery ip;
  for (const TraceRecord& r : t.records)
    if (std::optional<IpBlock> b = ip_block_of(r)) ip.blocks.push_back(std::move(*b));
  return ip;
}

} // namespace am
