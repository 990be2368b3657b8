// AM_TRACE's file format: a compact binary record of everything the driver did to one card,
// for a first run on a real card that fails (read by tools/amcl-trace, replayed by
// am/trace_replay). All integers are little-endian; nothing is padded beyond what is listed.
//
// File header (16 bytes, then its text):
//   0  char[8]  "AMTRACE\0"
//   8  u32      format version (kTraceVersion)
//   12 u32      length of the text that follows, in bytes
//   16 char[]   "<PCI address> <vendor>:<device> rev <revision> <real|emulated>", no NUL
// Then records, each a 16-byte head and, for some kinds, `length` bytes of payload:
//   0  u8   kind (TraceKind)
//   1  u8   bar: 5 registers, 2 doorbells, kConfigSpace, or the engine (TraceEngine) of a
//           packet stream, or the TracePhase of a phase marker
//   2  u8   access size in bytes (4, 8), 0 for records with a payload
//   3  u8   0
//   4  u32  byte offset in the BAR or config space, or the payload's length in bytes
//   8  u64  the value read or written; a packet stream's write pointer after it; a phase's
//           elapsed nanoseconds
// Payloads:
//   kPackets   u64 ring GPU address, u32 doorbell index, u32 packet count k (0 for PM4, which
//              its headers walk), u32 packet starts[k] (SDMA), then the stream's dwords
//   kInterrupt the IH entry's 8 dwords as the ring held them (hw::ih::decode reads them)
//   kPhase     the phase's name; for kPhaseFailed, then "\n" and the error
//   kIpBlock   u16 hw id, u8 instance, u8 major, u8 minor, u8 revision, u16 base count n,
//              u64 bases[n] (dwords): the IP discovery entry, once the driver has read it
//   kFirmware  u64 bytes, u32 version, then the file's name
// The card's IP versions and firmware names are known only once the driver has read them
// from the card, so they follow the header as kIpBlock and kFirmware records.
#pragma once
#include <cstddef>
#include <cstdint>

namespace am::trace {

inline constexpr char kMagic[8] = {'A', 'M', 'T', 'R', 'A', 'C', 'E', '\0'};
inline constexpr uint32_t kTraceVersion = 1;
inline constexpr size_t kFileHeaderBytes = 16;
inline constexpr size_t kRecordHeadBytes = 16;

inline constexpr uint8_t kRegisterBar = 5, kDoorbellBar = 2, kConfigSpace = 0xff;

enum TraceKind : uint8_t {
  kRead = 1,      // BAR or config-space read
  kWrite = 2,     // BAR or config-space write
  kBusMaster = 3, // the command register's memory and bus-master bits set (Pci::enable_bus_master)
  kPackets = 4,   // a packet stream put on a ring, before its doorbell
  kInterrupt = 5, // an IH entry the driver took off its ring
  kPhase = 6,     // a boot phase began, ended or failed
  kIpBlock = 7,   // a block of the card's IP discovery table
  kFirmware = 8,  // a firmware file the driver loaded
  kConfigRestore = 9, // Pci::after_config_restore after a reset
};

// Whether records of `kind` carry a payload (their head's offset is its length).
inline constexpr bool has_payload(uint8_t kind) {
  return kind == kPackets || kind == kInterrupt || kind == kPhase || kind == kIpBlock ||
         kind == kFirmware;
}

enum TraceEngine : uint8_t { kEngineCompute = 0, kEngineSdma = 1 };
enum TracePhase : uint8_t { kPhaseBegin = 0, kPhaseEnd = 1, kPhaseFailed = 2 };

} // namespace am::trace
