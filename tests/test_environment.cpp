// Linked into every test program: builds made by tests are cached inside the build tree, not
// in the user's ~/.cache (unless AMCL_CACHE_DIR is already set).
#include <cstdlib>

namespace {
const int kCacheInBuildTree = setenv("AMCL_CACHE_DIR", AMCL_TEST_CACHE_DIR, 0);
} // namespace
