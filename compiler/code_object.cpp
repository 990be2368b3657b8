#include "code_object.h"

#include "msgpack.h"

#include <llvm/BinaryFormat/ELF.h>
#include <llvm/Object/ELF.h>
#include <llvm/Support/Error.h>

#include <algorithm>
#include <cstring>

namespace amcl::compiler {
namespace {

void classify_arg(KernelArg& arg) {
  const std::string& v = arg.value_kind;
  if (v == "by_value")
    arg.kind = ArgKind::ByValue;
  else if (v == "global_buffer")
    arg.kind = ArgKind::GlobalBuffer;
  else if (v == "dynamic_shared_pointer")
    arg.kind = ArgKind::DynamicSharedPointer;
  else if (v == "image")
    arg.kind = ArgKind::Image;
  else if (v == "sampler")
    arg.kind = ArgKind::Sampler;
  else if (v == "hidden_grid_dims")
    arg.kind = ArgKind::HiddenGridDims;
  else if (v == "hidden_printf_buffer")
    arg.kind = ArgKind::HiddenPrintfBuffer;
  else if (arg.hidden())
    arg.kind = ArgKind::HiddenOther;
  else
    arg.kind = ArgKind::Other;
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

using Elf = llvm::object::ELFFile<llvm::object::ELF64LE>;

// The largest image amcl loads: far above any real code object (LLVM emits a few MiB even for
// big kernels), low enough that a forged segment size cannot make the reader allocate gigabytes.
constexpr uint64_t kMaxImage = 256ull << 20;
// AMDGPUUsage, "Note Records": the metadata note's name and type.
constexpr uint32_t kNtAmdgpuMetadata = 32;

struct Failure {
  std::string message;
};

template <class T> T checked(llvm::Expected<T> v, const char* what) {
  if (!v) throw Failure{std::string(what) + ": " + llvm::toString(v.takeError())};
  return std::move(*v);
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
  if (info.name.empty() || info.kernarg_align == 0 ||
      (info.kernarg_align & (info.kernarg_align - 1)))
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
      // AMDGPUUsage: a power of two, present for dynamic_shared_pointer arguments.
      const int64_t align = a.int_or(".pointee_align", 0);
      if (align < 0 || align > 65536 || (align & (align - 1)) != 0) return false;
      arg.pointee_align = uint32_t(align);
      arg.is_const = a.get(".is_const") != nullptr;
      arg.is_volatile = a.get(".is_volatile") != nullptr;
      arg.is_restrict = a.get(".is_restrict") != nullptr;
      if (uint64_t(arg.offset) + arg.size > info.kernarg_size) return false;
      info.args.push_back(std::move(arg));
    }
  }
  return true;
}

void read_segments(const Elf& elf, CodeObject& co) {
  for (const auto& ph : checked(elf.program_headers(), "program headers")) {
    if (ph.p_type != llvm::ELF::PT_LOAD) continue;
    if (ph.p_offset > co.elf.size() || ph.p_filesz > co.elf.size() - ph.p_offset ||
        ph.p_filesz > ph.p_memsz || ph.p_vaddr > kMaxImage || ph.p_memsz > kMaxImage - ph.p_vaddr)
      throw Failure{"loadable segment out of bounds"};
    co.image_size = std::max<uint64_t>(co.image_size, ph.p_vaddr + ph.p_memsz);
    co.segments.push_back({ph.p_vaddr, ph.p_offset, ph.p_filesz});
  }
  if (co.image_size == 0) throw Failure{"code object has no loadable segment"};
}

// The AMDGPU metadata note (AMDGPUUsage "Code Object V3+ Metadata"), read with amcl's own
// MessagePack reader: LLVM 22's msgpack::Document crashes on a map with two array keys
// (the 5 bytes 82 90 01 90 02), which the binary fuzzer found within a second.
std::optional<MsgValue> read_metadata(const Elf& elf, llvm::ArrayRef<Elf::Elf_Shdr> sections) {
  std::optional<MsgValue> meta;
  for (const auto& s : sections) {
    if (s.sh_type != llvm::ELF::SHT_NOTE) continue;
    llvm::Error err = llvm::Error::success();
    for (const auto& note : elf.notes(s, err)) {
      if (note.getType() != kNtAmdgpuMetadata || note.getName() != "AMDGPU") continue;
      // The alignment the iterator walked the notes with: 0 and 1 mean 4 (ELF.h notes_begin).
      llvm::ArrayRef<uint8_t> desc = note.getDesc(std::max<uint64_t>(s.sh_addralign, 4));
      meta = parse_msgpack(std::span(desc.data(), desc.size()));
      if (!meta) {
        llvm::consumeError(std::move(err));
        throw Failure{"malformed AMDGPU metadata"};
      }
    }
    if (err) throw Failure{"malformed note: " + llvm::toString(std::move(err))};
  }
  return meta;
}

// Kernel descriptors by name ("<kernel>.kd"), and the size of the program-scope variables in
// writable sections, from the full symbol table (or the dynamic one when it was stripped).
void read_symbols(const Elf& elf, llvm::ArrayRef<Elf::Elf_Shdr> sections,
                  std::vector<std::pair<std::string, uint64_t>>& descriptors, CodeObject& co) {
  const Elf::Elf_Shdr* table = nullptr;
  for (const auto& s : sections)
    if (s.sh_type == llvm::ELF::SHT_SYMTAB || (!table && s.sh_type == llvm::ELF::SHT_DYNSYM))
      table = &s;
  if (!table) return;
  const llvm::StringRef strtab =
      checked(elf.getStringTableForSymtab(*table, sections), "symbol names");
  for (const auto& sym : checked(elf.symbols(table), "symbols")) {
    auto name = sym.getName(strtab);
    if (!name) {
      llvm::consumeError(name.takeError());
      continue;
    }
    if (name->ends_with(".kd")) {
      descriptors.emplace_back(name->drop_back(3).str(), sym.st_value);
      continue;
    }
    if (sym.getType() != llvm::ELF::STT_OBJECT || sym.st_shndx == llvm::ELF::SHN_UNDEF ||
        sym.st_shndx >= sections.size())
      continue;
    const auto& home = sections[sym.st_shndx];
    const uint64_t flags = llvm::ELF::SHF_ALLOC | llvm::ELF::SHF_WRITE;
    if ((home.sh_flags & flags) == flags && sym.st_size <= kMaxImage)
      co.global_variable_size += sym.st_size;
  }
}

// The dynamic relocations (allocated SHT_RELA sections: what lld leaves for the loader in a
// -shared link). AMDGPUUsage lists R_AMDGPU_ABS32_LO/HI, ABS64 and RELATIVE64 as the dynamic
// ones (ABS32 as well, which does not fit a 64-bit address space and is refused).
void read_relocations(const Elf& elf, llvm::ArrayRef<Elf::Elf_Shdr> sections, CodeObject& co) {
  using namespace llvm::ELF;
  for (const auto& s : sections) {
    if (!(s.sh_flags & SHF_ALLOC)) continue;
    if (s.sh_type == SHT_REL || s.sh_type == SHT_RELR || s.sh_type == SHT_ANDROID_REL ||
        s.sh_type == SHT_ANDROID_RELA || s.sh_type == SHT_ANDROID_RELR || s.sh_type == SHT_CREL)
      throw Failure{"unsupported relocation section type " + std::to_string(s.sh_type)};
    if (s.sh_type != SHT_RELA) continue;
    const Elf::Elf_Shdr* symtab = nullptr;
    if (s.sh_link != 0) symtab = checked(elf.getSection(s.sh_link), "relocation symbol table");
    for (const auto& r : checked(elf.relas(s), "relocations")) {
      const uint32_t type = r.getType(false);
      if (type == R_AMDGPU_NONE) continue;
      Relocation out;
      out.offset = r.r_offset;
      const uint64_t addend = uint64_t(r.r_addend);
      uint64_t symbol = 0;
      bool defined = false;
      if (r.getSymbol(false) != 0) {
        if (!symtab) throw Failure{"relocation names a symbol but has no symbol table"};
        const Elf::Elf_Sym* sym = checked(elf.getRelocationSymbol(r, symtab), "relocation symbol");
        if (!sym) throw Failure{"relocation symbol missing"};
        if (sym->st_shndx == SHN_UNDEF) {
          // A weak reference nothing defines is 0 (System V gABI); any other is unresolvable.
          if (sym->getBinding() != STB_WEAK) {
            std::string name = "?";
            if (auto names = elf.getStringTableForSymtab(*symtab, sections)) {
              if (auto n = sym->getName(*names))
                name = n->str();
              else
                llvm::consumeError(n.takeError());
            } else {
              llvm::consumeError(names.takeError());
            }
            throw Failure{"undefined symbol " + name + " in a relocation"};
          }
        } else {
          symbol = sym->st_value;
          defined = sym->st_shndx != SHN_ABS;
        }
      }
      uint32_t width = 8;
      switch (type) {
      case R_AMDGPU_RELATIVE64:
        out.relative = true, out.value = addend;
        break;
      case R_AMDGPU_ABS64:
      case R_AMDGPU_ABS32_LO:
      case R_AMDGPU_ABS32_HI:
        out.relative = defined, out.value = symbol + addend;
        out.field = type == R_AMDGPU_ABS64      ? Relocation::Field::Word64
                    : type == R_AMDGPU_ABS32_LO ? Relocation::Field::Low32
                                                : Relocation::Field::High32;
        width = type == R_AMDGPU_ABS64 ? 8 : 4;
        break;
      default:
        throw Failure{"unsupported relocation " +
                      llvm::object::getELFRelocationTypeName(EM_AMDGPU, type).str() + " (type " +
                      std::to_string(type) + ") at offset " + std::to_string(r.r_offset)};
      }
      if (out.offset > co.image_size || width > co.image_size - out.offset)
        throw Failure{"relocation at offset " + std::to_string(out.offset) + " outside the image"};
      co.relocations.push_back(out);
    }
  }
}

void read_elf(CodeObject& co) {
  const llvm::StringRef bytes(reinterpret_cast<const char*>(co.elf.data()), co.elf.size());
  if (bytes.size() < 16 || !bytes.starts_with("\x7f"
                                              "ELF"))
    throw Failure{"not an ELF file"};
  if (bytes[4] != llvm::ELF::ELFCLASS64 || bytes[5] != llvm::ELF::ELFDATA2LSB)
    throw Failure{"not a little-endian ELF64 file"};
  const Elf elf = checked(Elf::create(bytes), "ELF header");
  const auto& eh = elf.getHeader();
  if (eh.e_machine != llvm::ELF::EM_AMDGPU ||
      eh.e_ident[llvm::ELF::EI_OSABI] != llvm::ELF::ELFOSABI_AMDGPU_HSA)
    throw Failure{"not an AMDGPU HSA code object"};
  if (eh.e_type != llvm::ELF::ET_DYN) throw Failure{"code object is not a shared object (ET_DYN)"};
  co.target = target_from_mach(eh.e_flags & llvm::ELF::EF_AMDGPU_MACH);
  if (co.target.empty()) throw Failure{"code object for an unknown AMDGPU processor"};
  read_segments(elf, co);
  const auto sections = checked(elf.sections(), "section headers");
  for (const auto& s : sections)
    if (s.sh_type != llvm::ELF::SHT_NOBITS &&
        (s.sh_offset > co.elf.size() || s.sh_size > co.elf.size() - s.sh_offset))
      throw Failure{"section out of bounds"};

  const std::optional<MsgValue> meta = read_metadata(elf, sections);
  if (!meta) throw Failure{"code object has no AMDGPU metadata note"};
  std::vector<std::pair<std::string, uint64_t>> descriptors;
  read_symbols(elf, sections, descriptors, co);
  read_relocations(elf, sections, co);

  const MsgValue* kernels = meta->get("amdhsa.kernels");
  if (!kernels || kernels->kind != MsgValue::Kind::Array)
    throw Failure{"metadata has no amdhsa.kernels"};
  for (const MsgValue& k : kernels->array) {
    KernelInfo info;
    if (!parse_kernel_metadata(k, info)) throw Failure{"malformed kernel metadata"};
    auto d = std::find_if(descriptors.begin(), descriptors.end(),
                          [&](auto& e) { return e.first == info.name; });
    if (d == descriptors.end()) throw Failure{"kernel " + info.name + " has no descriptor"};
    info.descriptor_offset = d->second;
    if (co.image_size < 64 || info.descriptor_offset > co.image_size - 64 ||
        (info.descriptor_offset & 63))
      throw Failure{"kernel descriptor of " + info.name + " out of bounds"};
    // The descriptor is read as the file has it; a loader fix-up inside it would be ignored.
    for (const Relocation& r : co.relocations)
      if (r.offset + 8 > info.descriptor_offset && r.offset < info.descriptor_offset + 64)
        throw Failure{"relocation inside the kernel descriptor of " + info.name};
    co.kernels.push_back(std::move(info));
  }
  if (const MsgValue* formats = meta->get("amdhsa.printf")) {
    if (formats->kind != MsgValue::Kind::Array) throw Failure{"malformed amdhsa.printf"};
    for (const MsgValue& f : formats->array) {
      auto parsed = f.kind == MsgValue::Kind::String ? parse_printf_format(f.s) : std::nullopt;
      if (!parsed) throw Failure{"malformed amdhsa.printf entry"};
      co.printf_formats.push_back(std::move(*parsed));
    }
  }
}

} // namespace

std::string target_from_mach(uint32_t mach) {
  switch (mach) {
  case 0x041:
    return "gfx1100";
  case 0x046:
    return "gfx1101";
  case 0x047:
    return "gfx1102";
  case 0x044:
    return "gfx1103";
  case 0x043:
    return "gfx1150";
  case 0x04a:
    return "gfx1151";
  case 0x048:
    return "gfx1200";
  case 0x04e:
    return "gfx1201";
  default:
    return "";
  }
}

std::string KernelInfo::source_attributes() const {
  std::string out;
  auto add = [&](const std::string& a) { out += (out.empty() ? "" : " ") + a; };
  auto dims = [](const std::array<uint32_t, 3>& d) {
    return "(" + std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]) +
           ")";
  };
  if (!vec_type_hint.empty()) add("vec_type_hint(" + vec_type_hint + ")");
  if (reqd_workgroup_size[0]) add("reqd_work_group_size" + dims(reqd_workgroup_size));
  if (workgroup_size_hint[0]) add("work_group_size_hint" + dims(workgroup_size_hint));
  return out;
}

const KernelInfo* CodeObject::find(const std::string& name) const {
  for (const auto& k : kernels)
    if (k.name == name) return &k;
  return nullptr;
}

void CodeObject::load(uint8_t* image, uint64_t load_address) const {
  std::memset(image, 0, image_size);
  for (const Segment& seg : segments)
    std::memcpy(image + seg.vaddr, elf.data() + seg.offset, seg.filesz);
  for (const Relocation& r : relocations) {
    const uint64_t v = r.value + (r.relative ? load_address : 0);
    switch (r.field) {
    case Relocation::Field::Word64:
      std::memcpy(image + r.offset, &v, 8);
      break;
    case Relocation::Field::Low32: {
      const uint32_t lo = uint32_t(v);
      std::memcpy(image + r.offset, &lo, 4);
      break;
    }
    case Relocation::Field::High32: {
      const uint32_t hi = uint32_t(v >> 32);
      std::memcpy(image + r.offset, &hi, 4);
      break;
    }
    }
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
  // N counts the call's arguments, but LLVM lists sizes (and stores values) only for those
  // a conversion specifier consumes: printf("", "foo") gives "1:1:". A size is digits and a
  // colon, which format text cannot begin with (its colons are escaped), so the sizes end
  // where that pattern does.
  for (uint32_t i = 0; i < n; ++i) {
    const size_t colon = entry.find(':', pos);
    if (colon == std::string::npos || colon == pos ||
        entry.find_first_not_of("0123456789", pos) != colon)
      break;
    uint32_t s = 0;
    if (!number(s) || s == 0 || s > 256) return std::nullopt;
    f.arg_sizes.push_back(s);
  }
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
    case 'a':
      f.format += '\a';
      break;
    case 'b':
      f.format += '\b';
      break;
    case 'f':
      f.format += '\f';
      break;
    case 'n':
      f.format += '\n';
      break;
    case 'r':
      f.format += '\r';
      break;
    case 't':
      f.format += '\t';
      break;
    case 'v':
      f.format += '\v';
      break;
    case '7':
      if (i + 1 < entry.size() && entry[i + 1] == '2') {
        f.format += ':';
        ++i;
        break;
      }
      [[fallthrough]];
    default:
      f.format += '\\', f.format += e;
    }
  }
  return f;
}

std::optional<CodeObject> read_code_object(std::span<const uint8_t> b, std::string* error) {
  CodeObject co;
  // A private, aligned copy: LLVM's ELF reader views headers in place.
  co.elf.assign(b.begin(), b.end());
  try {
    read_elf(co);
  } catch (const Failure& f) {
    if (error) *error = f.message;
    return std::nullopt;
  }
  // The descriptors as loaded (they live in a PT_LOAD segment; no relocation touches them).
  std::vector<uint8_t> image(co.image_size);
  co.load(image.data(), 0);
  for (KernelInfo& k : co.kernels) {
    const uint8_t* kd = image.data() + k.descriptor_offset;
    std::memcpy(&k.entry_offset, kd + 16, 8);
    std::memcpy(&k.rsrc3, kd + 44, 4);
    std::memcpy(&k.rsrc1, kd + 48, 4);
    std::memcpy(&k.rsrc2, kd + 52, 4);
    std::memcpy(&k.code_properties, kd + 56, 2);
    int64_t entry = int64_t(k.descriptor_offset) + k.entry_offset;
    if (entry < 0 || uint64_t(entry) >= co.image_size || (entry & 255)) {
      if (error) *error = "kernel entry of " + k.name + " out of bounds or misaligned";
      return std::nullopt;
    }
  }
  return co;
}

} // namespace amcl::compiler
