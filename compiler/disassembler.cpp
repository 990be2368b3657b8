#include "disassembler.h"

#include "llvm_init.h"

#include <llvm/MC/MCAsmInfo.h>
#include <llvm/MC/MCContext.h>
#include <llvm/MC/MCDisassembler/MCDisassembler.h>
#include <llvm/MC/MCInst.h>
#include <llvm/MC/MCInstPrinter.h>
#include <llvm/MC/MCInstrInfo.h>
#include <llvm/MC/MCRegisterInfo.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/MCTargetOptions.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Triple.h>

#include <memory>
#include <vector>

namespace amcl::compiler {

DisassembledInstruction disassemble_one(const std::string& target,
                                        std::span<const uint32_t> words) {
  DisassembledInstruction out;
  out.text = "invalid encoding";
  init_llvm();
  const llvm::Triple triple("amdgcn-amd-amdhsa");
  std::string error;
  const llvm::Target* t = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!t) return out;
  std::unique_ptr<llvm::MCRegisterInfo> mri(t->createMCRegInfo(triple));
  llvm::MCTargetOptions options;
  std::unique_ptr<llvm::MCAsmInfo> mai(t->createMCAsmInfo(*mri, triple, options));
  // Asked first of a generic subtarget: LLVM warns on stderr about a CPU it does not know.
  std::unique_ptr<llvm::MCSubtargetInfo> generic(t->createMCSubtargetInfo(triple, "", ""));
  if (!generic || !generic->isCPUStringValid(target)) return out;
  std::unique_ptr<llvm::MCSubtargetInfo> sti(t->createMCSubtargetInfo(triple, target, ""));
  std::unique_ptr<llvm::MCInstrInfo> mii(t->createMCInstrInfo());
  if (!mri || !mai || !sti || !mii) return out;
  llvm::MCContext ctx(triple, mai.get(), mri.get(), sti.get());
  std::unique_ptr<llvm::MCDisassembler> disassembler(t->createMCDisassembler(*sti, ctx));
  std::unique_ptr<llvm::MCInstPrinter> printer(
      t->createMCInstPrinter(triple, mai->getAssemblerDialect(), *mai, *mii, *mri));
  if (!disassembler || !printer) return out;
  std::vector<uint8_t> bytes;
  for (uint32_t w : words)
    for (unsigned i = 0; i < 4; ++i) bytes.push_back(uint8_t(w >> (8 * i)));
  llvm::MCInst inst;
  uint64_t size = 0;
  if (disassembler->getInstruction(inst, size, bytes, 0, llvm::nulls()) !=
          llvm::MCDisassembler::Success ||
      size == 0 || size > bytes.size())
    return out;
  std::string text;
  llvm::raw_string_ostream os(text);
  printer->printInst(&inst, 0, "", *sti, os);
  os.flush();
  const size_t first = text.find_first_not_of(" \t");
  const size_t last = text.find_last_not_of(" \t\n");
  out.valid = true;
  out.text = first == std::string::npos ? text : text.substr(first, last - first + 1);
  out.size = unsigned(size);
  return out;
}

} // namespace amcl::compiler
