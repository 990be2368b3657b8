// The host half of printf: amdhsa.printf entries parse back into formats, and records
// format as OpenCL C's printf defines (C99 conversions plus vectors, literal strings inline).
#include "runtime/printf_output.h"

#include <gtest/gtest.h>

#include <cstring>

using amcl::compiler::parse_printf_format;
using amcl::compiler::PrintfFormat;
using amcl::rt::format_printf_records;

namespace {

// A record: the format id, then each argument's bytes.
struct Record {
  std::vector<uint8_t> bytes;
  explicit Record(uint32_t id) { add(id); }
  // resize + memcpy rather than insert: GCC 12 misreports vector::insert of a few bytes
  // as an overflow (-Wstringop-overflow).
  template <class T> Record& add(T v) {
    const size_t at = bytes.size();
    bytes.resize(at + sizeof v);
    std::memcpy(bytes.data() + at, &v, sizeof v);
    return *this;
  }
  Record& text(const char* s, size_t padded) {
    const size_t at = bytes.size();
    bytes.resize(at + padded, 0);
    std::memcpy(bytes.data() + at, s, std::strlen(s));
    return *this;
  }
};

std::vector<uint8_t> join(std::initializer_list<Record> records) {
  std::vector<uint8_t> out;
  for (const Record& r : records) out.insert(out.end(), r.bytes.begin(), r.bytes.end());
  return out;
}

PrintfFormat format(const char* entry) {
  auto f = parse_printf_format(entry);
  EXPECT_TRUE(f) << entry;
  return f.value_or(PrintfFormat{});
}

} // namespace

TEST(PrintfFormat, ParsesEntriesAndUndoesLlvmEscapes) {
  const PrintfFormat f = format("3:2:4:8:a\\72b %d\\n%ld\\t\\x");
  EXPECT_EQ(f.id, 3u);
  EXPECT_EQ(f.arg_sizes, (std::vector<uint32_t>{4, 8}));
  EXPECT_EQ(f.format, "a:b %d\n%ld\t\\x");
  EXPECT_EQ(format("7:0:hello").format, "hello");
  EXPECT_EQ(format("1:0:").format, "");
  // More arguments than conversions: LLVM lists sizes only for the converted ones
  // (printf("", "foo") and printf("fmt%d", a, b)).
  EXPECT_EQ(format("1:1:").arg_sizes, std::vector<uint32_t>{});
  EXPECT_EQ(format("1:1:").format, "");
  EXPECT_EQ(format("2:2:4:fmt%d").arg_sizes, std::vector<uint32_t>{4});
  EXPECT_EQ(format("2:2:4:fmt%d").format, "fmt%d");
  EXPECT_EQ(format("3:1:12").format, "12"); // digits without a colon are format text
}

TEST(PrintfFormat, RejectsMalformedEntries) {
  for (const char* bad :
       {"", "1", "1:", "x:0:a", "1:1:0:zero-size", "1:99:4:too many", "1:1:99999999999:huge"})
    EXPECT_FALSE(parse_printf_format(bad)) << bad;
}

TEST(PrintfOutput, ScalarsStringsAndVectors) {
  const std::vector<PrintfFormat> formats = {
      format("1:4:4:4:8:4:i=%d f=%.2f l=%ld s=%s\\n"),
      format("2:3:16:4:4:v=%v4d c=%v3hhd h=%v2hx!"),
      format("3:2:4:4:%c%% %5.1e|%s|"),
  };
  const float f = 2.5f;
  const auto records = join({
      Record(1).add(int32_t(-3)).add(f).add(int64_t(-1234567890123)).text("ok", 4),
      Record(2)
          .add(int32_t(1))
          .add(int32_t(2))
          .add(int32_t(-3))
          .add(int32_t(4))
          .add(int8_t(1))
          .add(int8_t(-2))
          .add(int8_t(3))
          .add(int8_t(3))
          .add(uint16_t(0xab))
          .add(uint16_t(0xffff)),
      Record(3).add(int32_t('Z')).add(1234.5f),
  });
  EXPECT_EQ(format_printf_records(formats, records),
            "i=-3 f=2.50 l=-1234567890123 s=ok\n"
            "v=1,2,-3,4 c=1,-2,3 h=ab,ffff!"
            "Z% 1.2e+03|%s|"); // a conversion without an argument is printed as written
}

TEST(PrintfOutput, EmptyStringMarkerAndUnsignedWidths) {
  const std::vector<PrintfFormat> formats = {format("5:3:4:4:4:[%s] %u %x")};
  const auto records = join(
      {Record(5).add(uint32_t(0xFFFFFF00u)).add(uint32_t(4000000000u)).add(uint32_t(0xdeadbeef))});
  EXPECT_EQ(format_printf_records(formats, records), "[] 4000000000 deadbeef");
}

TEST(PrintfOutput, StopsAtWhatItCannotInterpret) {
  const std::vector<PrintfFormat> formats = {format("1:1:4:%d;")};
  // A good record, then an unknown id: the first is printed, the rest is not guessed at.
  auto records = join({Record(1).add(int32_t(7)), Record(9).add(int32_t(8))});
  EXPECT_EQ(format_printf_records(formats, records), "7;");
  // A record cut short.
  records = join({Record(1).add(int32_t(7))});
  records.pop_back();
  EXPECT_EQ(format_printf_records(formats, records), "");
  EXPECT_EQ(format_printf_records(formats, {}), "");
}

// Half vectors keep 16-bit elements in the record (%v4hf; scalars are promoted to double):
// normal, subnormal, signed zero, infinity and the largest half.
TEST(PrintfOutput, HalfVectorElements) {
  const std::vector<PrintfFormat> formats = {format("1:1:8:%2.2v4hf|"), format("2:1:8:%v4hg")};
  const auto records = join({
      Record(1)
          .add(uint16_t(0x3c00))
          .add(uint16_t(0x4000))
          .add(uint16_t(0x4200))
          .add(uint16_t(0x4400)),
      Record(2)
          .add(uint16_t(0x0001))
          .add(uint16_t(0x8000))
          .add(uint16_t(0xfc00))
          .add(uint16_t(0x7bff)),
  });
  EXPECT_EQ(format_printf_records(formats, records),
            "1.00,2.00,3.00,4.00|5.96046e-08,-0,-inf,65504");
}
