#include "code_object.h"

#include "msgpack.h"

#include <algorithm>
#include <cstring>

namespace amcl::compiler {
namespace {

void classify_arg(KernelArg& arg) {
  const std::string& v = arg.value_kind;
  if (v == "by_value") arg.kind = ArgKind::ByValue;
  else if (v == "global_buffer") arg.kind = ArgKind::GlobalBuffer;
  else if (v == "dynamic_shared_pointer") arg.kind = ArgKind::DynamicSharedPointer;
  else if (v == "hidden_grid_dims") arg.kind = ArgKind::HiddenGridDims;
  else if (v == "hidden_printf_buffer") arg.kind = ArgKind::HiddenPrintfBuffer;
  else if (arg.hidden()) arg.kind = ArgKind::HiddenOther;
  else arg.kind = ArgKind::Other;
  static const std::pair<const char*, ArgKind> per_dim[] = {
      {"hidden_block_count_", ArgKind::HiddenBlockCount},
      {"hidden_group_size_", ArgKind::HiddenGroupSize},
      {"hidden_remainder_", ArgKind::HiddenRemainder},
      {"hidden_global_offset_", ArgKind::HiddenGlobalOffset}};
  for (const auto& [prefix, kind] : per_dim) {
    const size_t n = std::strlen(prefix);
    if (v.size() == n + 1 && v.compare(0, n, prefix) == 0 && v[n] >= 'x' && v[n] <= 'z') {
      arg.kind = kind;
      arg.dim = uint8_t(v[n] - 'x');
    }
  }
}

// ELF constants (System V gABI) and the AMDGPU specifics from LLVM's AMDGPUUsage.
constexpr uint16_t kEmAmdgpu = 224;
constexpr uint8_t kOsAbiAmdgpuHsa = 64;
constexpr uint32_t kPtLoad = 1, kShtSymtab = 2, kShtNote = 7, kShtDynsym = 11;
constexpr uint32_t kNtAmdgpuMetadata = 32;
constexpr uint32_t kMachMask = 0xff;
// The largest image amcl loads: far above any real code object (LLVM emits a few MiB even for
// big kernels), low enough that a forged segment size cannot make the reader allocate gigabytes.
constexpr uint64_t kMaxImage = 256ull << 20;

struct Ehdr { uint8_t ident[16]; uint16_t type, machine; uint32_t version; uint64_t entry, phoff, shoff;
              uint32_t flags; uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx; };
struct Phdr { uint32_t type, flags; uint64_t offset, vaddr, paddr, filesz, memsz, align; };
struct Shdr { uint32_t name, type; uint64_t flags, addr, offset, size; uint32_t link, info;
              uint64_t addralign, entsize; };
struct Sym { uint32_t name; uint8_t info, other; uint16_t shndx; uint64_t value, size; };

bool in_bounds(std::span<const uint8_t> b, uint64_t off, uint64_t len) {
  return off <= b.size() && len <= b.size() - off;
}

template <class T> bool read_at(std::span<const uint8_t> b, uint64_t off, T& out) {
  if (!in_bounds(b, off, sizeof(T))) return false;
  std::memcpy(&out, b.data() + off, sizeof(T));
  return true;
}

bool fail(std::string* error, const std::string& msg) {
  if (error) *error = msg;
  return false;
}

std::array<uint32_t, 3> triple(const MsgValue* v) {
  std::array<uint32_t, 3> r{};
  if (v && v->kind == MsgValue::Kind::Array)
    for (size_t i = 0; i < 3 && i < v->array.size(); ++i)
      if (v->array[i].kind == MsgValue::Kind::Int) r[i] = uint32_t(v->array[i].i);
  return r;
}

bool parse_kernel_metadata(const MsgValue& k, KernelInfo& info) {
  if (k.kind != MsgValue::Kind::Map) return false;
  info.name = k.str_or(".name", "");
  info.kernarg_size = uint32_t(k.int_or(".kernarg_segment_size", 0));
  info.kernarg_align = uint32_t(k.int_or(".kernarg_segment_align", 8));
  info.group_segment_size = uint32_t(k.int_or(".group_segment_fixed_size", 0));
  info.private_segment_size = uint32_t(k.int_or(".private_segment_fixed_size", 0));
  info.wavefront_size = uint32_t(k.int_or(".wavefront_size", 32));
  info.sgpr_count = uint32_t(k.int_or(".sgpr_count", 0));
  info.vgpr_count = uint32_t(k.int_or(".vgpr_count", 0));
  info.sgpr_spill_count = uint32_t(k.int_or(".sgpr_spill_count", 0));
  info.vgpr_spill_count = uint32_t(k.int_or(".vgpr_spill_count", 0));
  info.max_flat_workgroup_size = uint32_t(k.int_or(".max_flat_workgroup_size", 1024));
  info.reqd_workgroup_size = triple(k.get(".reqd_workgroup_size"));
  info.uniform_work_group_size = k.int_or(".uniform_work_group_size", 0) == 1;
  info.workgroup_size_hint = triple(k.get(".workgroup_size_hint"));
  info.vec_type_hint = k.str_or(".vec_type_hint", "");
  if (info.name.empty() || info.kernarg_align == 0 || (info.kernarg_align & (info.kernarg_align - 1)))
    return false;
  if (const MsgValue* args = k.get(".args")) {
    if (args->kind != MsgValue::Kind::Array) return false;
    for (const MsgValue& a : args->array) {
      if (a.kind != MsgValue::Kind::Map) return false;
      KernelArg arg;
      arg.name = a.str_or(".name", "");
      arg.type_name = a.str_or(".type_name", "");
      arg.value_kind = a.str_or(".value_kind", "");
      classify_arg(arg);
      arg.address_space = a.str_or(".address_space", "");
      arg.access_qual = a.str_or(".access", "");
      arg.offset = uint32_t(a.int_or(".offset", 0));
      arg.size = uint32_t(a.int_or(".size", 0));
      arg.is_const = a.get(".is_const") != nullptr;
      arg.is_volatile = a.get(".is_volatile") != nullptr;
      arg.is_restrict = a.get(".is_restrict") != nullptr;
      if (uint64_t(arg.offset) + arg.size > info.kernarg_size) return false;
      info.args.push_back(std::move(arg));
    }
  }
  return true;
}

} // namespace

std::string target_from_mach(uint32_t mach) {
  switch (mach) {
  case 0x041: return "gfx1100";
  case 0x046: return "gfx1101";
  case 0x047: return "gfx1102";
  case 0x044: return "gfx1103";
  case 0x043: return "gfx1150";
  case 0x04a: return "gfx1151";
  case 0x048: return "gfx1200";
  case 0x04e: return "gfx1201";
  default: return "";
  }
}

const KernelInfo* CodeObject::find(const std::string& name) const {
  for (const auto& k : kernels)
    if (k.name == name) return &k;
  return nullptr;
}

void CodeObject::load(uint8_t* image) const {
  std::memset(image, 0, image_size);
  Ehdr eh;
  std::memcpy(&eh, elf.data(), sizeof eh);
  for (unsigned i = 0; i < eh.phnum; ++i) {
    Phdr ph;
    std::memcpy(&ph, elf.data() + eh.phoff + uint64_t(i) * eh.phentsize, sizeof ph);
    if (ph.type == kPtLoad) std::memcpy(image + ph.vaddr, elf.data() + ph.offset, ph.filesz);
  }
}

std::optional<PrintfFormat> parse_printf_format(const std::string& entry) {
  // "ID:N:S0:...:S(N-1):Format"; the format's own colons are escaped, so the first N + 2
  // fields end at colons.
  PrintfFormat f;
  size_t pos = 0;
  auto number = [&](uint32_t& out) {
    const size_t colon = entry.find(':', pos);
    if (colon == std::string::npos || colon == pos || colon - pos > 9) return false;
    uint32_t v = 0;
    for (size_t i = pos; i < colon; ++i) {
      if (entry[i] < '0' || entry[i] > '9') return false;
      v = v * 10 + uint32_t(entry[i] - '0');
    }
    out = v;
    pos = colon + 1;
    return true;
  };
  uint32_t n = 0;
  if (!number(f.id) || !number(n) || n > 64) return std::nullopt;
  f.arg_sizes.resize(n);
  for (uint32_t& s : f.arg_sizes)
    if (!number(s) || s == 0 || s > 256) return std::nullopt;
  // Undo the escapes LLVM's printf lowering writes (AMDGPUPrintfRuntimeBinding): the C
  // control characters and "\72" for ':'.
  for (size_t i = pos; i < entry.size(); ++i) {
    const char c = entry[i];
    if (c != '\\' || i + 1 >= entry.size()) {
      f.format += c;
      continue;
    }
    const char e = entry[++i];
    switch (e) {
    case 'a': f.format += '\a'; break;
    case 'b': f.format += '\b'; break;
    case 'f': f.format += '\f'; break;
    case 'n': f.format += '\n'; break;
    case 'r': f.format += '\r'; break;
    case 't': f.format += '\t'; break;
    case 'v': f.format += '\v'; break;
    case '7':
      if (i + 1 < entry.size() && entry[i + 1] == '2') {
        f.format += ':';
        ++i;
        break;
      }
      [[fallthrough]];
    default: f.format += '\\', f.format += e;
    }
  }
  return f;
}

std::optional<CodeObject> read_code_object(std::span<const uint8_t> b, std::string* error) {
  Ehdr eh;
  if (!read_at(b, 0, eh) || std::memcmp(eh.ident, "\x7f" "ELF", 4) != 0)
    return fail(error, "not an ELF file"), std::nullopt;
  if (eh.ident[4] != 2 || eh.ident[5] != 1)
    return fail(error, "not a little-endian ELF64 file"), std::nullopt;
  if (eh.machine != kEmAmdgpu || eh.ident[7] != kOsAbiAmdgpuHsa)
    return fail(error, "not an AMDGPU HSA code object"), std::nullopt;
  if (eh.type != 3) return fail(error, "code object is not a shared object (ET_DYN)"), std::nullopt;
  CodeObject co;
  co.target = target_from_mach(eh.flags & kMachMask);
  if (co.target.empty()) return fail(error, "code object for an unknown AMDGPU processor"), std::nullopt;
  if (eh.phentsize != sizeof(Phdr) || eh.shentsize != sizeof(Shdr) ||
      !in_bounds(b, eh.phoff, uint64_t(eh.phnum) * sizeof(Phdr)) ||
      !in_bounds(b, eh.shoff, uint64_t(eh.shnum) * sizeof(Shdr)))
    return fail(error, "ELF header tables out of bounds"), std::nullopt;

  for (unsigned i = 0; i < eh.phnum; ++i) {
    Phdr ph;
    read_at(b, eh.phoff + uint64_t(i) * sizeof ph, ph);
    if (ph.type != kPtLoad) continue;
    if (!in_bounds(b, ph.offset, ph.filesz) || ph.filesz > ph.memsz || ph.vaddr > kMaxImage ||
        ph.memsz > kMaxImage - ph.vaddr)
      return fail(error, "loadable segment out of bounds"), std::nullopt;
    co.image_size = std::max(co.image_size, ph.vaddr + ph.memsz);
  }
  if (co.image_size == 0) return fail(error, "code object has no loadable segment"), std::nullopt;

  std::vector<Shdr> sh(eh.shnum);
  for (unsigned i = 0; i < eh.shnum; ++i) read_at(b, eh.shoff + uint64_t(i) * sizeof(Shdr), sh[i]);

  std::optional<MsgValue> meta;
  std::vector<std::pair<std::string, uint64_t>> descriptors;
  for (const Shdr& s : sh) {
    if (!in_bounds(b, s.offset, s.size) && s.type != 8 /* NOBITS */)
      return fail(error, "section out of bounds"), std::nullopt;
    if (s.type == kShtNote) {
      for (uint64_t off = s.offset; off + 12 <= s.offset + s.size;) {
        uint32_t namesz = 0, descsz = 0, type = 0;
        read_at(b, off, namesz), read_at(b, off + 4, descsz), read_at(b, off + 8, type);
        uint64_t name_off = off + 12, desc_off = name_off + ((uint64_t(namesz) + 3) & ~3ull);
        uint64_t next = desc_off + ((uint64_t(descsz) + 3) & ~3ull);
        if (next > s.offset + s.size) return fail(error, "malformed note"), std::nullopt;
        if (type == kNtAmdgpuMetadata && namesz == 7 &&
            std::memcmp(b.data() + name_off, "AMDGPU", 7) == 0) {
          meta = parse_msgpack(b.subspan(desc_off, descsz));
          if (!meta) return fail(error, "malformed AMDGPU metadata"), std::nullopt;
        }
        off = next;
      }
    }
    if ((s.type == kShtSymtab || s.type == kShtDynsym) && s.link < sh.size()) {
      const Shdr& strtab = sh[s.link];
      if (!in_bounds(b, strtab.offset, strtab.size)) return fail(error, "bad string table"), std::nullopt;
      for (uint64_t off = s.offset; off + sizeof(Sym) <= s.offset + s.size; off += sizeof(Sym)) {
        Sym sym;
        read_at(b, off, sym);
        if (sym.name >= strtab.size) continue;
        const char* p = reinterpret_cast<const char*>(b.data() + strtab.offset + sym.name);
        std::string name(p, strnlen(p, strtab.size - sym.name));
        if (name.size() > 3 && name.compare(name.size() - 3, 3, ".kd") == 0)
          descriptors.emplace_back(name.substr(0, name.size() - 3), sym.value);
      }
    }
  }
  if (!meta) return fail(error, "code object has no AMDGPU metadata note"), std::nullopt;
  const MsgValue* kernels = meta->get("amdhsa.kernels");
  if (!kernels || kernels->kind != MsgValue::Kind::Array)
    return fail(error, "metadata has no amdhsa.kernels"), std::nullopt;
  for (const MsgValue& k : kernels->array) {
    KernelInfo info;
    if (!parse_kernel_metadata(k, info)) return fail(error, "malformed kernel metadata"), std::nullopt;
    auto d = std::find_if(descriptors.begin(), descriptors.end(),
                          [&](auto& e) { return e.first == info.name; });
    if (d == descriptors.end()) return fail(error, "kernel " + info.name + " has no descriptor"), std::nullopt;
    info.descriptor_offset = d->second;
    if (info.descriptor_offset + 64 > co.image_size || (info.descriptor_offset & 63))
      return fail(error, "kernel descriptor of " + info.name + " out of bounds"), std::nullopt;
    co.kernels.push_back(std::move(info));
  }
  if (const MsgValue* formats = meta->get("amdhsa.printf")) {
    if (formats->kind != MsgValue::Kind::Array) return fail(error, "malformed amdhsa.printf"), std::nullopt;
    for (const MsgValue& f : formats->array) {
      auto parsed = f.kind == MsgValue::Kind::String ? parse_printf_format(f.s) : std::nullopt;
      if (!parsed) return fail(error, "malformed amdhsa.printf entry"), std::nullopt;
      co.printf_formats.push_back(std::move(*parsed));
    }
  }
  co.elf.assign(b.begin(), b.end());
  // Read the descriptors from the loaded image (they live in a PT_LOAD segment).
  std::vector<uint8_t> image(co.image_size);
  co.load(image.data());
  for (KernelInfo& k : co.kernels) {
    const uint8_t* kd = image.data() + k.descriptor_offset;
    std::memcpy(&k.entry_offset, kd + 16, 8);
    std::memcpy(&k.rsrc3, kd + 44, 4);
    std::memcpy(&k.rsrc1, kd + 48, 4);
    std::memcpy(&k.rsrc2, kd + 52, 4);
    std::memcpy(&k.code_properties, kd + 56, 2);
    int64_t entry = int64_t(k.descriptor_offset) + k.entry_offset;
    if (entry < 0 || uint64_t(entry) >= co.image_size || (entry & 255))
      return fail(error, "kernel entry of " + k.name + " out of bounds or misaligned"), std::nullopt;
  }
  return co;
}

} // namespace amcl::compiler
