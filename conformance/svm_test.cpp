// The CTS "SVM" suite's ground: clSVMAlloc memory is the same pointer on the host and in every
// kernel on every card of the context, so structures built on the host (a linked list, a tree)
// are walked by kernels; the SVM commands round-trip data; every entry point answers bad
// arguments with the specification's error. The two-card tests run with
// AMCL_DEVICES=sim:gfx1100,sim:gfx1201 (they skip with fewer devices).
#include "cl_helpers.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>

using namespace amcl_test;

namespace {

constexpr cl_svm_mem_flags kFine = CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER;

template <class T>
T* svm_alloc(cl_context c, size_t count, cl_svm_mem_flags flags = CL_MEM_READ_WRITE) {
  return static_cast<T*>(clSVMAlloc(c, flags, count * sizeof(T), 0));
}

// The host's layout of the kernels' structures: a global pointer is 64 bits, as a host one.
struct Node {
  cl_int value;
  Node* next;
};
struct Tree {
  cl_int key;
  Tree* left;
  Tree* right;
};

const char* kListSrc = R"(
typedef struct Node { int value; __global struct Node* next; } Node;
// A pointer to a pointer: OpenCL C 1.2 takes no such kernel parameter, so it is wrapped.
typedef struct Start { __global Node* node; } Start;
// The sum of the list from the gid-th node of `starts` on.
__kernel void sum_list(__global const Start* starts, __global int* out) {
  int s = 0;
  for (__global Node* n = starts[get_global_id(0)].node; n; n = n->next) s += n->value;
  out[get_global_id(0)] = s;
})";

const char* kTreeSrc = R"(
typedef struct Tree { int key; __global struct Tree* left; __global struct Tree* right; } Tree;
// How deep `keys[gid]` sits in the search tree, or -1.
__kernel void depth_of(__global Tree* root, __global const int* keys, __global int* depth) {
  const int k = keys[get_global_id(0)];
  int d = 0;
  __global Tree* t = root;
  while (t && t->key != k) { t = k < t->key ? t->left : t->right; ++d; }
  depth[get_global_id(0)] = t ? d : -1;
})";

const char* kAddressSrc = R"(
// Each work-item writes the address of its own element, and adds across the pointer offset.
__kernel void addresses(__global ulong* p) { p[get_global_id(0)] = (ulong)(p + get_global_id(0)); }
__kernel void add(__global uint* p, uint v) { p[get_global_id(0)] += v; }
)";

void svm_free_all(cl_context c, std::initializer_list<void*> pointers) {
  for (void* p : pointers) clSVMFree(c, p);
}

void run(cl_command_queue q, cl_kernel k, size_t n) {
  ASSERT_EQ(clEnqueueNDRangeKernel(q, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(q), CL_SUCCESS);
}

// A search tree of `keys` inserted in order, its nodes in `pool`; returns the root.
Tree* build_tree(Tree* pool, const std::vector<int>& keys) {
  for (size_t i = 0; i < keys.size(); ++i) {
    pool[i] = {keys[i], nullptr, nullptr};
    if (i == 0) continue;
    Tree* t = pool;
    for (;;) {
      Tree*& next = keys[i] < t->key ? t->left : t->right;
      if (!next) {
        next = &pool[i];
        break;
      }
      t = next;
    }
  }
  return pool;
}

int host_depth(const Tree* t, int key) {
  for (int d = 0; t; ++d) {
    if (t->key == key) return d;
    t = key < t->key ? t->left : t->right;
  }
  return -1;
}

} // namespace

TEST(Svm, DevicesReportBufferSvmWithoutAtomics) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  EXPECT_EQ(device_info<cl_device_svm_capabilities>(env.device, CL_DEVICE_SVM_CAPABILITIES),
            cl_device_svm_capabilities(CL_DEVICE_SVM_COARSE_GRAIN_BUFFER |
                                       CL_DEVICE_SVM_FINE_GRAIN_BUFFER));
}

TEST(Svm, AllocRefusesWhatTheSpecRefuses) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  EXPECT_EQ(clSVMAlloc(nullptr, CL_MEM_READ_WRITE, 64, 0), nullptr);
  EXPECT_EQ(clSVMAlloc(env.context, CL_MEM_READ_WRITE, 0, 0), nullptr);
  EXPECT_EQ(clSVMAlloc(env.context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, 0), nullptr);
  EXPECT_EQ(clSVMAlloc(env.context, CL_MEM_USE_HOST_PTR, 64, 0), nullptr);
  EXPECT_EQ(clSVMAlloc(env.context, CL_MEM_SVM_ATOMICS, 64, 0), nullptr)
      << "atomics need fine grain";
  EXPECT_EQ(clSVMAlloc(env.context, kFine | CL_MEM_SVM_ATOMICS, 64, 0), nullptr) << "not offered";
  EXPECT_EQ(clSVMAlloc(env.context, CL_MEM_READ_WRITE, 64, 3), nullptr);
  EXPECT_EQ(clSVMAlloc(env.context, CL_MEM_READ_WRITE, 64, 1u << 31), nullptr);
  const cl_ulong max_alloc = device_info<cl_ulong>(env.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  EXPECT_EQ(clSVMAlloc(env.context, CL_MEM_READ_WRITE, size_t(max_alloc) + 1, 0), nullptr);
  clSVMFree(env.context, nullptr); // no action
  clSVMFree(nullptr, nullptr);

  for (cl_uint align : {0u, 1u, 128u, 4096u, 1u << 21}) {
    void* p = clSVMAlloc(env.context, CL_MEM_READ_ONLY, 100, align);
    ASSERT_NE(p, nullptr) << align;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % std::max(align, 128u), 0u) << align;
    // Inside the GPU's 512 GiB VA space: the host address is the device address.
    EXPECT_LT(reinterpret_cast<uintptr_t>(p), uintptr_t(1) << 39);
    std::memset(p, 0x5a, 100); // host-accessible at once
    clSVMFree(env.context, p);
  }
  void* fine = clSVMAlloc(env.context, kFine, 1 << 20, 0);
  ASSERT_NE(fine, nullptr);
  clSVMFree(env.context, fine);
}

TEST(Svm, KernelsWalkAListBuiltOnTheHost) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  cl_kernel k = env.kernel(kListSrc, "sum_list");
  ASSERT_NE(k, nullptr);
  const int n = 100;
  // Coarse grain: all nodes in one allocation, linked in a shuffled order.
  Node* nodes = svm_alloc<Node>(env.context, n);
  Node** starts = svm_alloc<Node*>(env.context, n);
  cl_int* out = svm_alloc<cl_int>(env.context, n);
  ASSERT_TRUE(nodes && starts && out);
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937(7));
  ASSERT_EQ(clEnqueueSVMMap(env.queue, CL_TRUE, CL_MAP_WRITE, nodes, n * sizeof(Node), 0, nullptr,
                            nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clEnqueueSVMMap(env.queue, CL_TRUE, CL_MAP_WRITE, starts, n * sizeof(Node*), 0, nullptr,
                            nullptr),
            CL_SUCCESS);
  for (int i = 0; i < n; ++i) {
    Node& node = nodes[order[i]];
    node.value = i + 1;
    node.next = i + 1 < n ? &nodes[order[i + 1]] : nullptr;
    starts[i] = &node;
  }
  ASSERT_EQ(clEnqueueSVMUnmap(env.queue, nodes, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueSVMUnmap(env.queue, starts, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArgSVMPointer(k, 0, starts), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArgSVMPointer(k, 1, out), CL_SUCCESS);
  // The nodes are reached through pointers only: named as the specification asks.
  void* indirect[] = {nodes};
  ASSERT_EQ(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof indirect, indirect),
            CL_SUCCESS);
  run(env.queue, k, n);
  ASSERT_EQ(clEnqueueSVMMap(env.queue, CL_TRUE, CL_MAP_READ, out, n * sizeof(cl_int), 0, nullptr,
                            nullptr),
            CL_SUCCESS);
  for (int i = 0; i < n; ++i) {
    // Nodes i+1 .. n from the i-th on.
    const int expect = (n * (n + 1) - i * (i + 1)) / 2;
    EXPECT_EQ(out[i], expect) << i;
  }
  ASSERT_EQ(clEnqueueSVMUnmap(env.queue, out, 0, nullptr, nullptr), CL_SUCCESS);

  // Fine grain: a node per allocation, no maps; the kernel sees the host's later changes.
  std::vector<Node*> own(n);
  for (int i = 0; i < n; ++i) ASSERT_NE(own[i] = svm_alloc<Node>(env.context, 1, kFine), nullptr);
  for (int i = 0; i < n; ++i) *own[i] = {2 * i, i + 1 < n ? own[i + 1] : nullptr};
  Node** head = svm_alloc<Node*>(env.context, 1, kFine);
  cl_int* sum = svm_alloc<cl_int>(env.context, 1, kFine);
  *head = own[0];
  ASSERT_EQ(clSetKernelArgSVMPointer(k, 0, head), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArgSVMPointer(k, 1, sum), CL_SUCCESS);
  run(env.queue, k, 1);
  EXPECT_EQ(*sum, n * (n - 1));
  own[n / 2]->next = nullptr; // cut the list in half
  run(env.queue, k, 1);
  EXPECT_EQ(*sum, (n / 2) * (n / 2 + 1));
  for (Node* p : own) clSVMFree(env.context, p);
  svm_free_all(env.context, {head, sum, nodes, starts, out});
  clReleaseKernel(k);
}

TEST(Svm, KernelsSearchATreeBuiltOnTheHost) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  cl_kernel k = env.kernel(kTreeSrc, "depth_of");
  ASSERT_NE(k, nullptr);
  const int n = 500;
  std::vector<int> keys(n);
  std::iota(keys.begin(), keys.end(), 0);
  std::shuffle(keys.begin(), keys.end(), std::mt19937(11));
  Tree* pool = svm_alloc<Tree>(env.context, n, kFine);
  ASSERT_NE(pool, nullptr);
  Tree* root = build_tree(pool, keys);
  const int queries = 2 * n; // half of them are not in the tree
  cl_int* wanted = svm_alloc<cl_int>(env.context, queries, kFine);
  cl_int* depth = svm_alloc<cl_int>(env.context, queries, kFine);
  for (int i = 0; i < queries; ++i) wanted[i] = i % 2 ? i / 2 : n + i;
  ASSERT_EQ(clSetKernelArgSVMPointer(k, 0, root), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArgSVMPointer(k, 1, wanted), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArgSVMPointer(k, 2, depth), CL_SUCCESS);
  run(env.queue, k, queries);
  for (int i = 0; i < queries; ++i) EXPECT_EQ(depth[i], host_depth(root, wanted[i])) << wanted[i];
  svm_free_all(env.context, {pool, wanted, depth});
  clReleaseKernel(k);
}

TEST(Svm, PointersAreTheSameNumberInKernelsAndArithmeticWorks) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  cl_program p = env.program(kAddressSrc);
  ASSERT_NE(p, nullptr);
  cl_int err;
  cl_kernel addresses = clCreateKernel(p, "addresses", &err);
  cl_kernel add = clCreateKernel(p, "add", &err);
  const size_t n = 256;
  auto* words = svm_alloc<cl_ulong>(env.context, n, kFine);
  ASSERT_NE(words, nullptr);
  ASSERT_EQ(clSetKernelArgSVMPointer(addresses, 0, words), CL_SUCCESS);
  run(env.queue, addresses, n);
  for (size_t i = 0; i < n; ++i) EXPECT_EQ(words[i], reinterpret_cast<cl_ulong>(&words[i])) << i;
  // A pointer into the middle of an allocation, and one just past its end (nothing runs).
  ASSERT_EQ(clSetKernelArgSVMPointer(addresses, 0, words + 100), CL_SUCCESS);
  run(env.queue, addresses, 1);
  EXPECT_EQ(words[100], reinterpret_cast<cl_ulong>(&words[100]));
  EXPECT_EQ(clSetKernelArgSVMPointer(addresses, 0, words + n), CL_SUCCESS);

  auto* counts = svm_alloc<cl_uint>(env.context, 64);
  const cl_uint five = 5;
  ASSERT_EQ(clEnqueueSVMMemFill(env.queue, counts, &five, 4, 64 * 4, 0, nullptr, nullptr),
            CL_SUCCESS);
  const cl_uint three = 3;
  ASSERT_EQ(clSetKernelArgSVMPointer(add, 0, counts + 32), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(add, 1, sizeof three, &three), CL_SUCCESS);
  run(env.queue, add, 32);
  std::vector<cl_uint> back(64);
  ASSERT_EQ(
      clEnqueueSVMMemcpy(env.queue, CL_TRUE, back.data(), counts, 64 * 4, 0, nullptr, nullptr),
      CL_SUCCESS);
  for (size_t i = 0; i < 64; ++i) EXPECT_EQ(back[i], i < 32 ? 5u : 8u) << i;

  // clSetKernelArg after clSetKernelArgSVMPointer: the argument is a cl_mem again.
  cl_mem buffer = env.buffer(32 * 4, back.data());
  ASSERT_EQ(clSetKernelArg(add, 0, sizeof buffer, &buffer), CL_SUCCESS);
  run(env.queue, add, 32);
  ASSERT_EQ(
      clEnqueueReadBuffer(env.queue, buffer, CL_TRUE, 0, 32 * 4, back.data(), 0, nullptr, nullptr),
      CL_SUCCESS);
  EXPECT_EQ(back[0], 8u);
  // A cloned kernel keeps the SVM argument.
  ASSERT_EQ(clSetKernelArgSVMPointer(add, 0, counts), CL_SUCCESS);
  cl_kernel clone = clCloneKernel(add, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  run(env.queue, clone, 1);
  EXPECT_EQ(counts[0], 8u);
  clReleaseMemObject(buffer);
  clReleaseKernel(clone);
  svm_free_all(env.context, {words, counts});
  clReleaseKernel(addresses);
  clReleaseKernel(add);
  clReleaseProgram(p);
}

TEST(Svm, MemcpyFillMapAndMigrateRoundTrip) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  const size_t n = 1 << 16;
  auto* a = svm_alloc<uint8_t>(env.context, n);
  auto* b = svm_alloc<uint8_t>(env.context, n, kFine);
  ASSERT_TRUE(a && b);
  std::vector<uint8_t> host(n), back(n);
  for (size_t i = 0; i < n; ++i) host[i] = uint8_t(i * 7 + 1);
  cl_event copied;
  ASSERT_EQ(clEnqueueSVMMemcpy(env.queue, CL_FALSE, a, host.data(), n, 0, nullptr, &copied),
            CL_SUCCESS);
  cl_command_type type = 0;
  clGetEventInfo(copied, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr);
  EXPECT_EQ(type, cl_command_type(CL_COMMAND_SVM_MEMCPY));
  ASSERT_EQ(clEnqueueSVMMemcpy(env.queue, CL_FALSE, b, a, n, 1, &copied, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueSVMMemcpy(env.queue, CL_TRUE, back.data(), b, n, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(back, host);
  clReleaseEvent(copied);

  // Fills of every pattern size, at an offset the pattern divides.
  for (size_t pattern_size = 1; pattern_size <= 128; pattern_size *= 2) {
    std::vector<uint8_t> pattern(pattern_size);
    for (size_t i = 0; i < pattern_size; ++i) pattern[i] = uint8_t(pattern_size + i);
    const size_t at = 256, size = 1024;
    std::memset(a, 0, n);
    ASSERT_EQ(clEnqueueSVMMemFill(env.queue, a + at, pattern.data(), pattern_size, size, 0, nullptr,
                                  nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clEnqueueSVMMap(env.queue, CL_TRUE, CL_MAP_READ, a, n, 0, nullptr, nullptr),
              CL_SUCCESS);
    for (size_t i = 0; i < n; ++i) {
      const uint8_t expect = i >= at && i < at + size ? pattern[(i - at) % pattern_size] : 0;
      ASSERT_EQ(a[i], expect) << pattern_size << " at " << i;
    }
    ASSERT_EQ(clEnqueueSVMUnmap(env.queue, a, 0, nullptr, nullptr), CL_SUCCESS);
  }

  // Migration orders like a marker.
  const void* both[] = {a, b + 16};
  const size_t sizes[] = {0, 32};
  cl_event migrated;
  ASSERT_EQ(clEnqueueSVMMigrateMem(env.queue, 2, both, sizes, CL_MIGRATE_MEM_OBJECT_HOST, 0,
                                   nullptr, &migrated),
            CL_SUCCESS);
  EXPECT_EQ(env.final_status(migrated), CL_COMPLETE);
  clReleaseEvent(migrated);
  svm_free_all(env.context, {a, b});
}

TEST(Svm, EnqueueFreeFreesOrCallsBack) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  void* p = clSVMAlloc(env.context, CL_MEM_READ_WRITE, 4096, 0);
  void* q = clSVMAlloc(env.context, CL_MEM_READ_WRITE, 4096, 0);
  ASSERT_TRUE(p && q);
  struct Seen {
    cl_command_queue queue = nullptr;
    std::vector<void*> pointers;
  } seen;
  auto callback = [](cl_command_queue queue, cl_uint n, void* pointers[], void* data) {
    auto* s = static_cast<Seen*>(data);
    s->queue = queue;
    s->pointers.assign(pointers, pointers + n);
    for (cl_uint i = 0; i < n; ++i) {
      cl_context c = nullptr;
      clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof c, &c, nullptr);
      clSVMFree(c, pointers[i]);
    }
  };
  void* both[] = {p, q};
  cl_event freed;
  ASSERT_EQ(clEnqueueSVMFree(env.queue, 2, both, callback, &seen, 0, nullptr, &freed), CL_SUCCESS);
  EXPECT_EQ(env.final_status(freed), CL_COMPLETE);
  EXPECT_EQ(seen.queue, env.queue);
  EXPECT_EQ(seen.pointers, std::vector<void*>({p, q}));
  cl_command_type type = 0;
  clGetEventInfo(freed, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr);
  EXPECT_EQ(type, cl_command_type(CL_COMMAND_SVM_FREE));
  clReleaseEvent(freed);
  // Without a callback amcl frees; an empty list only orders.
  void* r = clSVMAlloc(env.context, CL_MEM_READ_WRITE, 4096, 0);
  ASSERT_EQ(clEnqueueSVMFree(env.queue, 1, &r, nullptr, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueSVMFree(env.queue, 0, nullptr, nullptr, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clFinish(env.queue), CL_SUCCESS);
  // The freed range is refused as an SVM pointer now.
  cl_kernel k = env.kernel(kAddressSrc, "addresses");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(clSetKernelArgSVMPointer(k, 0, r), CL_INVALID_ARG_VALUE);
  clReleaseKernel(k);
}

TEST(Svm, EntryPointsAnswerBadArgumentsWithTheSpecsErrors) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  auto* p = static_cast<uint8_t*>(clSVMAlloc(env.context, CL_MEM_READ_WRITE, 4096, 0));
  ASSERT_NE(p, nullptr);
  int host[8] = {};
  cl_command_queue no_queue = nullptr;
  cl_event bad_event = nullptr;

  EXPECT_EQ(clEnqueueSVMMemcpy(no_queue, CL_TRUE, p, host, 8, 0, nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clEnqueueSVMMemcpy(env.queue, CL_TRUE, nullptr, host, 8, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMemcpy(env.queue, CL_TRUE, p, nullptr, 8, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMemcpy(env.queue, CL_TRUE, p, p + 4, 8, 0, nullptr, nullptr),
            CL_MEM_COPY_OVERLAP);
  EXPECT_EQ(clEnqueueSVMMemcpy(env.queue, CL_TRUE, p + 4, p, 8, 0, nullptr, nullptr),
            CL_MEM_COPY_OVERLAP);
  EXPECT_EQ(clEnqueueSVMMemcpy(env.queue, CL_TRUE, p, p + 8, 8, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(clEnqueueSVMMemcpy(env.queue, CL_TRUE, p, host, 8, 1, nullptr, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
  EXPECT_EQ(clEnqueueSVMMemcpy(env.queue, CL_TRUE, p, host, 8, 1, &bad_event, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);

  const cl_uint pattern = 1;
  EXPECT_EQ(clEnqueueSVMMemFill(no_queue, p, &pattern, 4, 16, 0, nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clEnqueueSVMMemFill(env.queue, nullptr, &pattern, 4, 16, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMemFill(env.queue, p, nullptr, 4, 16, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMemFill(env.queue, p, &pattern, 3, 12, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMemFill(env.queue, p, &pattern, 0, 16, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  uint8_t big[256] = {};
  EXPECT_EQ(clEnqueueSVMMemFill(env.queue, p, big, 256, 256, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMemFill(env.queue, p + 2, &pattern, 4, 16, 0, nullptr, nullptr),
            CL_INVALID_VALUE)
      << "not aligned to the pattern";
  EXPECT_EQ(clEnqueueSVMMemFill(env.queue, p, &pattern, 4, 18, 0, nullptr, nullptr),
            CL_INVALID_VALUE)
      << "size not a multiple of the pattern";

  EXPECT_EQ(clEnqueueSVMMap(no_queue, CL_TRUE, CL_MAP_READ, p, 8, 0, nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clEnqueueSVMMap(env.queue, CL_TRUE, CL_MAP_READ, nullptr, 8, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMap(env.queue, CL_TRUE, CL_MAP_READ, p, 0, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMap(env.queue, CL_TRUE, 0x100, p, 8, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMap(env.queue, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, p, 8,
                            0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMUnmap(no_queue, p, 0, nullptr, nullptr), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clEnqueueSVMUnmap(env.queue, nullptr, 0, nullptr, nullptr), CL_INVALID_VALUE);

  void* list[] = {p};
  EXPECT_EQ(clEnqueueSVMFree(no_queue, 1, list, nullptr, nullptr, 0, nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clEnqueueSVMFree(env.queue, 0, list, nullptr, nullptr, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMFree(env.queue, 1, nullptr, nullptr, nullptr, 0, nullptr, nullptr),
            CL_INVALID_VALUE);

  const void* ranges[] = {p};
  const size_t too_long[] = {8192};
  const void* not_svm[] = {host};
  EXPECT_EQ(clEnqueueSVMMigrateMem(no_queue, 1, ranges, nullptr, 0, 0, nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clEnqueueSVMMigrateMem(env.queue, 0, ranges, nullptr, 0, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMigrateMem(env.queue, 1, nullptr, nullptr, 0, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMigrateMem(env.queue, 1, ranges, too_long, 0, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMigrateMem(env.queue, 1, not_svm, nullptr, 0, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMigrateMem(env.queue, 1, ranges, nullptr, 0x80, 0, nullptr, nullptr),
            CL_INVALID_VALUE);

  cl_kernel k = env.kernel("__kernel void k(__global int* p, int v) { p[0] = v; }", "k");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(clSetKernelArgSVMPointer(nullptr, 0, p), CL_INVALID_KERNEL);
  EXPECT_EQ(clSetKernelArgSVMPointer(k, 2, p), CL_INVALID_ARG_INDEX);
  EXPECT_EQ(clSetKernelArgSVMPointer(k, 1, p), CL_INVALID_ARG_VALUE) << "not a pointer";
  EXPECT_EQ(clSetKernelArgSVMPointer(k, 0, host), CL_INVALID_ARG_VALUE) << "not SVM";
  EXPECT_EQ(clSetKernelArgSVMPointer(k, 0, p + 4096), CL_SUCCESS) << "just past the end";
  EXPECT_EQ(clSetKernelArgSVMPointer(k, 0, p + 4097), CL_INVALID_ARG_VALUE);
  EXPECT_EQ(clSetKernelArgSVMPointer(k, 0, nullptr), CL_SUCCESS);

  void* ptrs[] = {p};
  cl_bool yes = CL_TRUE, no = CL_FALSE;
  EXPECT_EQ(clSetKernelExecInfo(nullptr, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof ptrs, ptrs),
            CL_INVALID_KERNEL);
  EXPECT_EQ(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof ptrs, ptrs), CL_SUCCESS);
  EXPECT_EQ(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, nullptr), CL_SUCCESS)
      << "an empty list unsets the pointers (CTS svm_set_kernel_exec_info_svm_ptrs)";
  EXPECT_EQ(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, ptrs), CL_INVALID_VALUE);
  EXPECT_EQ(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 3, ptrs), CL_INVALID_VALUE);
  EXPECT_EQ(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof ptrs, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof yes, &yes),
            CL_INVALID_OPERATION)
      << "no device offers system SVM";
  EXPECT_EQ(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof no, &no),
            CL_SUCCESS);
  EXPECT_EQ(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, 1, &no),
            CL_INVALID_VALUE);
  EXPECT_EQ(clSetKernelExecInfo(k, 0x7777, sizeof yes, &yes), CL_INVALID_VALUE);
  clReleaseKernel(k);
  clSVMFree(env.context, p);
}

TEST(Svm, BuffersOnSvmMemoryUseIt) {
  Env env;
  ASSERT_NE(env.queue, nullptr);
  const size_t n = 1024;
  auto* words = svm_alloc<cl_uint>(env.context, n, kFine);
  ASSERT_NE(words, nullptr);
  for (size_t i = 0; i < n; ++i) words[i] = cl_uint(i);
  cl_int err;
  cl_mem m = clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR, n * 4, words, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(mem_info<cl_bool>(m, CL_MEM_USES_SVM_POINTER), cl_bool(CL_TRUE));
  EXPECT_EQ(mem_info<void*>(m, CL_MEM_HOST_PTR), static_cast<void*>(words));
  const cl_buffer_region region{env.sub_buffer_align(), 64};
  cl_mem sub = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(mem_info<cl_bool>(sub, CL_MEM_USES_SVM_POINTER), cl_bool(CL_TRUE));
  // No larger than the allocation (CTS svm_allocate_shared_buffer_negative).
  EXPECT_EQ(clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR, 2 * n * 4, words, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_BUFFER_SIZE);
  EXPECT_EQ(clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR, n * 4, words + 1, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_BUFFER_SIZE);
  // A kernel writing through the buffer writes the SVM memory.
  cl_kernel k = env.kernel(kAddressSrc, "add");
  ASSERT_NE(k, nullptr);
  const cl_uint one = 1;
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 1, sizeof one, &one), CL_SUCCESS);
  run(env.queue, k, n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(words[i], cl_uint(i + 1)) << i;
  // Host memory that is not SVM: an ordinary buffer.
  std::vector<cl_uint> plain(n);
  cl_mem other = clCreateBuffer(env.context, CL_MEM_USE_HOST_PTR, n * 4, plain.data(), &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(mem_info<cl_bool>(other, CL_MEM_USES_SVM_POINTER), cl_bool(CL_FALSE));
  clReleaseMemObject(other);
  clReleaseMemObject(sub);
  clReleaseMemObject(m);
  clReleaseKernel(k);
  clSVMFree(env.context, words);
}

TEST(Svm, ContextReleaseTakesWhatWasNotFreed) {
  for (int round = 0; round < 3; ++round) {
    Env env;
    ASSERT_NE(env.queue, nullptr);
    for (int i = 0; i < 8; ++i)
      ASSERT_NE(clSVMAlloc(env.context, CL_MEM_READ_WRITE, 1 << 20, 0), nullptr);
  }
}

// Two cards of different generations in one context: one pointer, the same on both.
using SvmTwoCards = TwoCards;

TEST_F(SvmTwoCards, BothCardsSeeTheSamePointer) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(context, 1, &kAddressSrc, nullptr, &err);
  ASSERT_EQ(clBuildProgram(p, 0, nullptr, "", nullptr, nullptr), CL_SUCCESS);
  cl_kernel addresses = clCreateKernel(p, "addresses", &err);
  cl_kernel add = clCreateKernel(p, "add", &err);
  const size_t n = 128;
  auto* words = svm_alloc<cl_ulong>(context, n, kFine);
  ASSERT_NE(words, nullptr);
  for (int card = 0; card < 2; ++card) {
    std::fill(words, words + n, 0);
    ASSERT_EQ(clSetKernelArgSVMPointer(addresses, 0, words), CL_SUCCESS);
    run(queues[card], addresses, n);
    for (size_t i = 0; i < n; ++i)
      ASSERT_EQ(words[i], reinterpret_cast<cl_ulong>(&words[i])) << "card " << card << " " << i;
  }
  // One card adds, then the other, in order through an event.
  auto* counts = svm_alloc<cl_uint>(context, n);
  const cl_uint ten = 10;
  ASSERT_EQ(clEnqueueSVMMemFill(queues[0], counts, &ten, 4, n * 4, 0, nullptr, nullptr),
            CL_SUCCESS);
  const cl_uint v[2] = {1, 100};
  cl_event first;
  ASSERT_EQ(clSetKernelArgSVMPointer(add, 0, counts), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(add, 1, sizeof v[0], &v[0]), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(queues[0], add, 1, nullptr, &n, nullptr, 0, nullptr, &first),
            CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(add, 1, sizeof v[1], &v[1]), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(queues[1], add, 1, nullptr, &n, nullptr, 1, &first, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clFinish(queues[1]), CL_SUCCESS);
  std::vector<cl_uint> back(n);
  ASSERT_EQ(clEnqueueSVMMemcpy(queues[1], CL_TRUE, back.data(), counts, n * 4, 0, nullptr, nullptr),
            CL_SUCCESS);
  for (size_t i = 0; i < n; ++i) EXPECT_EQ(back[i], 111u) << i;
  clReleaseEvent(first);

  // A list built on the host, walked by each card.
  cl_program lp = clCreateProgramWithSource(context, 1, &kListSrc, nullptr, &err);
  ASSERT_EQ(clBuildProgram(lp, 0, nullptr, "", nullptr, nullptr), CL_SUCCESS);
  cl_kernel walk = clCreateKernel(lp, "sum_list", &err);
  Node* nodes = svm_alloc<Node>(context, 10, kFine);
  Node** head = svm_alloc<Node*>(context, 1, kFine);
  cl_int* sum = svm_alloc<cl_int>(context, 1, kFine);
  for (int i = 0; i < 10; ++i) nodes[i] = {i, i + 1 < 10 ? &nodes[i + 1] : nullptr};
  *head = nodes;
  ASSERT_EQ(clSetKernelArgSVMPointer(walk, 0, head), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArgSVMPointer(walk, 1, sum), CL_SUCCESS);
  for (int card = 0; card < 2; ++card) {
    *sum = -1;
    run(queues[card], walk, 1);
    EXPECT_EQ(*sum, 45) << card;
  }
  svm_free_all(context, {nodes, head, sum, words, counts});
  clReleaseKernel(walk);
  clReleaseKernel(addresses);
  clReleaseKernel(add);
  clReleaseProgram(lp);
  clReleaseProgram(p);
}
