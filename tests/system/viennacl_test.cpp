// ViennaCL (libviennacl-dev, header-only), run as its users run it through the ICD loader on
// amcl: BLAS levels 1-3 and sparse iterative solvers whose OpenCL kernels ViennaCL generates and
// builds at run time, against results computed on the host. PoCL gives the same figures
// (conformance/README.md, "Other OpenCL code from Debian's archive").
#define VIENNACL_WITH_OPENCL
#include <viennacl/compressed_matrix.hpp>
#include <viennacl/linalg/bicgstab.hpp>
#include <viennacl/linalg/cg.hpp>
#include <viennacl/linalg/inner_prod.hpp>
#include <viennacl/linalg/lu.hpp>
#include <viennacl/linalg/norm_2.hpp>
#include <viennacl/linalg/prod.hpp>
#include <viennacl/matrix.hpp>
#include <viennacl/vector.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <vector>

namespace {

template <class T> class ViennaCl : public testing::Test {};
using Types = testing::Types<float, double>;
TYPED_TEST_SUITE(ViennaCl, Types);

template <class T> std::vector<T> random_values(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<T> u(-1, 1);
  std::vector<T> v(n);
  for (T& x : v) x = u(rng);
  return v;
}

TYPED_TEST(ViennaCl, VectorOperationsMatchTheHost) {
  using T = TypeParam;
  const size_t n = 300;
  const std::vector<T> a = random_values<T>(n, 1), b = random_values<T>(n, 2);
  viennacl::vector<T> va(n), vb(n), vc(n);
  viennacl::copy(a, va);
  viennacl::copy(b, vb);
  vc = T(2) * va + vb;
  std::vector<T> c(n);
  viennacl::copy(vc, c);
  double dot = 0, norm = 0;
  for (size_t i = 0; i < n; ++i) {
    EXPECT_NEAR(c[i], 2.0 * a[i] + b[i], 1e-6) << i;
    dot += double(a[i]) * b[i];
    norm += double(a[i]) * a[i];
  }
  const double tol = sizeof(T) == 4 ? 1e-4 : 1e-12;
  EXPECT_NEAR(double(viennacl::linalg::inner_prod(va, vb)), dot, tol);
  EXPECT_NEAR(double(viennacl::linalg::norm_2(va)), std::sqrt(norm), tol);
}

TYPED_TEST(ViennaCl, MatrixProductsMatchTheHost) {
  using T = TypeParam;
  const size_t m = 67, k = 45, n = 39; // no tile size divides them
  const std::vector<T> a = random_values<T>(m * k, 3), b = random_values<T>(k * n, 4);
  std::vector<std::vector<T>> A(m, std::vector<T>(k)), B(k, std::vector<T>(n));
  for (size_t i = 0; i < m; ++i) std::copy_n(&a[i * k], k, A[i].begin());
  for (size_t i = 0; i < k; ++i) std::copy_n(&b[i * n], n, B[i].begin());
  viennacl::matrix<T> vA(m, k), vB(k, n), vC(m, n);
  viennacl::copy(A, vA);
  viennacl::copy(B, vB);
  vC = viennacl::linalg::prod(vA, vB);
  std::vector<std::vector<T>> C(m, std::vector<T>(n));
  viennacl::copy(vC, C);
  const double tol = sizeof(T) == 4 ? 1e-5 : 1e-13;
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j) {
      double s = 0;
      for (size_t l = 0; l < k; ++l) s += double(A[i][l]) * B[l][j];
      ASSERT_NEAR(C[i][j], s, tol) << i << "," << j;
    }
  // A matrix-vector product through a transposed copy.
  const std::vector<T> x = random_values<T>(m, 5);
  viennacl::vector<T> vx(m), vy(k);
  viennacl::copy(x, vx);
  viennacl::matrix<T> vAt = viennacl::trans(vA);
  vy = viennacl::linalg::prod(vAt, vx);
  std::vector<T> y(k);
  viennacl::copy(vy, y);
  for (size_t j = 0; j < k; ++j) {
    double s = 0;
    for (size_t i = 0; i < m; ++i) s += double(A[i][j]) * x[i];
    ASSERT_NEAR(y[j], s, tol) << j;
  }
}

TYPED_TEST(ViennaCl, SparseSolversSolvePoissonsEquation) {
  using T = TypeParam;
  const size_t n = 200; // -u'' = 1 on a grid: tridiagonal 2, -1
  std::vector<std::map<unsigned, T>> S(n);
  for (size_t i = 0; i < n; ++i) {
    S[i][unsigned(i)] = 2;
    if (i) S[i][unsigned(i - 1)] = -1;
    if (i + 1 < n) S[i][unsigned(i + 1)] = -1;
  }
  viennacl::compressed_matrix<T> vS(n, n);
  viennacl::copy(S, vS);
  viennacl::vector<T> rhs = viennacl::scalar_vector<T>(n, T(1));
  auto residual = [&](const viennacl::vector<T>& solution) {
    std::vector<T> s(n);
    viennacl::copy(solution, s);
    double r = 0;
    for (size_t i = 0; i < n; ++i)
      r = std::max(r, std::abs(2.0 * s[i] - (i ? s[i - 1] : 0) - (i + 1 < n ? s[i + 1] : 0) - 1));
    return r;
  };
  EXPECT_LT(residual(viennacl::linalg::solve(vS, rhs, viennacl::linalg::cg_tag(1e-8, 1000))),
            sizeof(T) == 4 ? 1e-2 : 1e-9);
  EXPECT_LT(residual(viennacl::linalg::solve(vS, rhs, viennacl::linalg::bicgstab_tag(1e-8, 1000))),
            sizeof(T) == 4 ? 5e-2 : 1e-4);
}

TYPED_TEST(ViennaCl, LuSolveMatchesTheSystem) {
  using T = TypeParam;
  const size_t n = 40;
  const std::vector<T> d = random_values<T>(n * n, 6), b = random_values<T>(n, 7);
  std::vector<std::vector<T>> D(n, std::vector<T>(n));
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) D[i][j] = d[i * n + j] + (i == j ? T(n) : T(0));
  viennacl::matrix<T> vD(n, n);
  viennacl::copy(D, vD);
  viennacl::vector<T> vb(n);
  viennacl::copy(b, vb);
  viennacl::linalg::lu_factorize(vD);
  viennacl::linalg::lu_substitute(vD, vb);
  std::vector<T> x(n);
  viennacl::copy(vb, x);
  for (size_t i = 0; i < n; ++i) {
    double s = 0;
    for (size_t j = 0; j < n; ++j) s += double(D[i][j]) * x[j];
    EXPECT_NEAR(s, b[i], sizeof(T) == 4 ? 1e-4 : 1e-12) << i;
  }
}

} // namespace
