// Matrix products: argument checks, NumPy's matmul shape rules, and the translation of row-major/strided
// NumPy-style views into column-major cuBLAS calls (transpose flags and leading dimensions instead of
// copies). The cuBLAS calls and the reduction kernels are in cuda/blas.cu.
#include "npgpu/blas.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <cuda_runtime_api.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "common/blas_backends.hpp"
#include "common/cuda_check.hpp"
#include "common/staging.hpp"
#include "host/openmp.hpp"
#include "npgpu/elementwise.hpp"
#include "npgpu/errors.hpp"
#include "npgpu/memory.hpp"
#include "npgpu/reduce.hpp"

namespace npgpu {
namespace {

bool blas_dtype(DType d) {
  switch (d) {
    case DType::Float16:
    case DType::BFloat16:
    case DType::Float32:
    case DType::Float64:
    case DType::Complex64:
    case DType::Complex128:
      return true;
    default:
      return false;
  }
}

void check_blas_dtype(const char* what, DType d) {
  if (!blas_dtype(d))
    throw TypeError(std::string(what) + ": unsupported dtype " + dtype_name(d) +
                    " (npgpu's matrix products take float16, bfloat16, float32, float64, complex64 and "
                    "complex128; convert integer or bool arrays with astype first)");
}

std::string shape_str(const ArrayView& v) {
  std::string s = "(";
  for (int i = 0; i < v.ndim; ++i) {
    if (i) s += ", ";
    s += std::to_string(v.shape[i]);
  }
  if (v.ndim == 1) s += ",";
  return s + ")";
}

int common_device(const char* what, const ArrayView& a, const ArrayView& b, const ArrayView& out) {
  if (a.on_host() || b.on_host() || out.on_host())
    throw InvalidArgument(std::string(what) +
                          ": the C++ matrix products take device arrays only (the Python host backend "
                          "delegates to NumPy)");
  if (a.device != b.device || a.device != out.device)
    throw InvalidArgument(std::string(what) + ": operands are on different devices (" + std::to_string(a.device) +
                          ", " + std::to_string(b.device) + ", out " + std::to_string(out.device) + ")");
  return a.device;
}

// [lo, hi) bytes a view touches (empty for an empty view).
void extent(const ArrayView& v, std::uintptr_t* lo, std::uintptr_t* hi) {
  std::intptr_t l = reinterpret_cast<std::intptr_t>(v.data), h = l;
  for (int i = 0; i < v.ndim; ++i) {
    if (v.shape[i] == 0) {
      *lo = *hi = 0;
      return;
    }
    const std::int64_t span = v.strides[i] * (v.shape[i] - 1);
    if (span > 0) h += span; else l += span;
  }
  *lo = static_cast<std::uintptr_t>(l);
  *hi = static_cast<std::uintptr_t>(h + itemsize(v.dtype));
}

bool overlaps(const ArrayView& x, const ArrayView& y) {
  std::uintptr_t a0, a1, b0, b1;
  extent(x, &a0, &a1);
  extent(y, &b0, &b1);
  return a0 < a1 && b0 < b1 && a0 < b1 && b0 < a1;
}

// A C-contiguous device temporary of v's shape and dtype `d`, owning its memory.
struct Temp {
  std::unique_ptr<DeviceBuffer> buf;
  ArrayView view;
  Temp(const ArrayView& like, DType d, StreamHandle s) {
    view = make_contiguous_view(nullptr, d, like.ndim, like.shape, like.device);
    buf = std::make_unique<DeviceBuffer>(std::max<std::int64_t>(view.nbytes(), 1), like.device, s);
    view.data = buf->data();
  }
};

// Element stride of a byte stride; false when it is not a whole number of elements.
bool elem_stride(std::int64_t bytes, std::int64_t item, std::int64_t* out) {
  if (bytes % item != 0) return false;
  *out = bytes / item;
  return true;
}

// How one matrix (rows x cols, element strides rs, cs) can be handed to cuBLAS (column-major):
// row-major: stored as its transpose (cols x rows) with leading dimension ld_row; col-major: as itself.
struct Layout {
  bool row = false, col = false;
  std::int64_t ld_row = 1, ld_col = 1;
};

Layout layout_of(std::int64_t rows, std::int64_t cols, std::int64_t rs, std::int64_t cs) {
  Layout l;
  if (cs == 1 || cols == 1) {
    l.ld_row = rows == 1 ? std::max<std::int64_t>(cols, 1) : rs;
    l.row = l.ld_row >= std::max<std::int64_t>(1, cols);
  }
  if (rs == 1 || rows == 1) {
    l.ld_col = cols == 1 ? std::max<std::int64_t>(rows, 1) : cs;
    l.col = l.ld_col >= std::max<std::int64_t>(1, rows);
  }
  return l;
}

// A view's matrix layout (last two dims); strides must be whole elements and the data pointer aligned.
Layout view_layout(const ArrayView& v) {
  const std::int64_t item = itemsize(v.dtype);
  std::int64_t rs, cs;
  if (!elem_stride(v.strides[v.ndim - 2], item, &rs) || !elem_stride(v.strides[v.ndim - 1], item, &cs) ||
      reinterpret_cast<std::uintptr_t>(v.data) % static_cast<std::uintptr_t>(std::min<std::int64_t>(item, 16)) != 0)
    return Layout{};
  return layout_of(v.shape[v.ndim - 2], v.shape[v.ndim - 1], rs, cs);
}

bool batch_strides_ok(const ArrayView& v, int nb) {
  const std::int64_t item = itemsize(v.dtype);
  for (int i = 0; i < nb; ++i)
    if (v.shape[i] != 1 && v.strides[i] % item != 0) return false;
  return true;
}

// View `v` (ndim >= 2) with its batch dims right-aligned to `nb` batch dims of shape `bshape` (missing or
// extent-1 dims broadcast with stride 0).
ArrayView align_batch(const ArrayView& v, int nb, const std::int64_t* bshape) {
  ArrayView r = v;
  const int vb = v.ndim - 2;
  r.ndim = nb + 2;
  for (int i = 0; i < nb; ++i) {
    const int j = i - (nb - vb);
    r.shape[i] = bshape[i];
    r.strides[i] = (j < 0 || v.shape[j] == 1) ? 0 : v.strides[j];
  }
  for (int i = 0; i < 2; ++i) {
    r.shape[nb + i] = v.shape[vb + i];
    r.strides[nb + i] = v.strides[vb + i];
  }
  return r;
}

void zero_fill(const ArrayView& out, StreamHandle s) {
  static const unsigned char zero = 0;
  if (out.is_c_contiguous()) {
    fill_pattern(out.data, out.nbytes(), &zero, 1, s);
  } else {
    Temp t(out, out.dtype, s);
    fill_pattern(t.view.data, t.view.nbytes(), &zero, 1, s);
    copy(t.view, out, s);
  }
}

// The batched product on aligned views A (nb + 2 dims: batch, m, k), B (batch, k, n), O (batch, m, n), all
// of one dtype, every matrix cuBLAS-compatible (view_layout ok), O not overlapping A or B.
void run_products(const ArrayView& A, const ArrayView& B, const ArrayView& O, int nb, bool tf32, StreamHandle s) {
  const int dev = O.device;
  const DType dt = O.dtype;
  const std::int64_t item = itemsize(dt);
  const std::int64_t m = A.shape[nb], k = A.shape[nb + 1], n = B.shape[nb + 1];
  const Layout la = view_layout(A), lb = view_layout(B), lo = view_layout(O);
  auto es = [&](const ArrayView& v, int d) { return v.strides[d] / item; };

  // Batch dims: drop extent-1 ones, then merge from the innermost outwards while every operand's strides
  // chain (stride[i] == stride[i + 1] * shape[i + 1]); the merged run is one strided-batched call, the rest
  // a host loop.
  std::vector<std::int64_t> shp;
  std::vector<std::int64_t> st[3];
  const ArrayView* ops[3] = {&A, &B, &O};
  for (int i = 0; i < nb; ++i) {
    if (O.shape[i] == 1) continue;
    shp.push_back(O.shape[i]);
    for (int q = 0; q < 3; ++q) st[q].push_back(es(*ops[q], i));
  }
  const int nd = static_cast<int>(shp.size());
  std::int64_t inner = nd ? shp[nd - 1] : 1;
  std::int64_t istride[3] = {0, 0, 0};
  int first = nd;  // batch dims [first, nd) form the strided batch
  if (nd) {
    first = nd - 1;
    for (int q = 0; q < 3; ++q) istride[q] = st[q][nd - 1];
    while (first > 0) {
      bool ok = true;
      for (int q = 0; q < 3; ++q)
        if (st[q][first - 1] != istride[q] * inner) ok = false;
      if (!ok) break;
      --first;
      inner *= shp[first];
    }
  }
  std::int64_t outer = 1;
  for (int i = 0; i < first; ++i) outer *= shp[i];

  for (std::int64_t o = 0; o < outer; ++o) {
    std::int64_t off[3] = {0, 0, 0};
    std::int64_t rem = o;
    for (int i = first - 1; i >= 0; --i) {
      const std::int64_t idx = rem % shp[i];
      rem /= shp[i];
      for (int q = 0; q < 3; ++q) off[q] += idx * st[q][i];
    }
    const char* pa = static_cast<const char*>(A.data) + off[0] * item;
    const char* pb = static_cast<const char*>(B.data) + off[1] * item;
    char* po = static_cast<char*>(O.data) + off[2] * item;
    const std::int64_t rsA = es(A, nb), csA = es(A, nb + 1), rsB = es(B, nb), csB = es(B, nb + 1);
    const std::int64_t rsO = es(O, nb), csO = es(O, nb + 1);
    const bool gemv_dtype = dt == DType::Float32 || dt == DType::Float64 || dt == DType::Complex64 ||
                            dt == DType::Complex128;
    if (inner == 1) {
      // Vector operands: cuBLAS dot / gemv (increments must be positive; extent-1 strides are free).
      auto inc = [](std::int64_t len, std::int64_t st_) { return len <= 1 ? std::int64_t(1) : st_; };
      if (m == 1 && n == 1) {
        const std::int64_t ix = inc(k, csA), iy = inc(k, rsB);
        if (ix > 0 && iy > 0) {
          cuda::dot(dev, dt, false, k, pa, ix, pb, iy, po, s);
          continue;
        }
      } else if (n == 1 && gemv_dtype) {  // out (m) = A (m x k) b (k)
        const std::int64_t ix = inc(k, rsB), iy = inc(m, rsO);
        if (ix > 0 && iy > 0) {
          if (la.col) cuda::gemv(dev, dt, 0, m, k, pa, la.ld_col, pb, ix, po, iy, s);
          else cuda::gemv(dev, dt, 1, k, m, pa, la.ld_row, pb, ix, po, iy, s);
          continue;
        }
      } else if (m == 1 && gemv_dtype) {  // out (n) = a (k) B (k x n): out^T = B^T a^T
        const std::int64_t ix = inc(k, csA), iy = inc(n, csO);
        if (ix > 0 && iy > 0) {
          if (lb.row) cuda::gemv(dev, dt, 0, n, k, pb, lb.ld_row, pa, ix, po, iy, s);
          else cuda::gemv(dev, dt, 1, k, n, pb, lb.ld_col, pa, ix, po, iy, s);
          continue;
        }
      }
    }
    (void)csB;
    cuda::GemmCall c;
    c.dtype = dt;
    c.tf32 = tf32;
    c.batch = inner;
    if (lo.row) {
      // Row-major out: column-major C^T (n x m) = B^T A^T.
      c.m = n;
      c.n = m;
      c.k = k;
      c.a = pb;  // need B^T (n x k): a row-major B is stored as B^T
      c.op_a = lb.row ? 0 : 1;
      c.lda = lb.row ? lb.ld_row : lb.ld_col;
      c.stride_a = istride[1];
      c.b = pa;  // need A^T (k x m): a row-major A is stored as A^T
      c.op_b = la.row ? 0 : 1;
      c.ldb = la.row ? la.ld_row : la.ld_col;
      c.stride_b = istride[0];
      c.c = po;
      c.ldc = lo.ld_row;
      c.stride_c = istride[2];
    } else {
      // Column-major out: C (m x n) = A B.
      c.m = m;
      c.n = n;
      c.k = k;
      c.a = pa;
      c.op_a = la.col ? 0 : 1;
      c.lda = la.col ? la.ld_col : la.ld_row;
      c.stride_a = istride[0];
      c.b = pb;
      c.op_b = lb.col ? 0 : 1;
      c.ldb = lb.col ? lb.ld_col : lb.ld_row;
      c.stride_b = istride[1];
      c.c = po;
      c.ldc = lo.ld_col;
      c.stride_c = istride[2];
    }
    (void)rsA;
    (void)rsO;
    cuda::gemm(dev, c, s);
  }
}

}  // namespace

void matmul(const ArrayView& a, const ArrayView& b, const ArrayView& out, MatmulPrecision precision,
            StreamHandle stream) {
  if (a.ndim < 1 || b.ndim < 1)
    throw InvalidArgument(std::string("matmul: Input operand ") + (a.ndim < 1 ? "0" : "1") +
                          " does not have enough dimensions (has 0, gufunc core with signature "
                          "(n?,k),(k,m?)->(n?,m?) requires 1)");
  check_blas_dtype("matmul", a.dtype);
  check_blas_dtype("matmul", b.dtype);
  check_blas_dtype("matmul", out.dtype);
  if (a.dtype != b.dtype)
    throw TypeError(std::string("matmul: operands have different dtypes (") + dtype_name(a.dtype) + " and " +
                    dtype_name(b.dtype) + "); convert them to their common dtype first");
  if (precision != MatmulPrecision::Highest && precision != MatmulPrecision::TF32)
    throw InvalidArgument("matmul: unknown precision " + std::to_string(static_cast<int>(precision)));
  const int dev = common_device("matmul", a, b, out);
  if (out.readonly) throw InvalidArgument("matmul: output array is read-only");

  // NumPy's promotion of 1-D operands.
  ArrayView A = a, B = b;
  if (a.ndim == 1) {
    A.ndim = 2;
    A.shape[0] = 1;
    A.strides[0] = 0;
    A.shape[1] = a.shape[0];
    A.strides[1] = a.strides[0];
  }
  if (b.ndim == 1) {
    B.ndim = 2;
    B.shape[0] = b.shape[0];
    B.strides[0] = b.strides[0];
    B.shape[1] = 1;
    B.strides[1] = 0;
  }
  const std::int64_t m = A.shape[A.ndim - 2], k = A.shape[A.ndim - 1], n = B.shape[B.ndim - 1];
  if (B.shape[B.ndim - 2] != k)
    throw InvalidArgument("matmul: shapes " + shape_str(a) + " and " + shape_str(b) + " not aligned: " +
                          std::to_string(k) + " (dim " + std::to_string(a.ndim - 1) + ") != " +
                          std::to_string(B.shape[B.ndim - 2]) + " (dim " + std::to_string(b.ndim == 1 ? 0 : b.ndim - 2) +
                          ")");
  const int nb = std::max(A.ndim, B.ndim) - 2;
  std::int64_t bshape[kMaxDims];
  for (int i = 0; i < nb; ++i) {
    const int ia = i - (nb - (A.ndim - 2)), ib = i - (nb - (B.ndim - 2));
    const std::int64_t da = ia >= 0 ? A.shape[ia] : 1, db = ib >= 0 ? B.shape[ib] : 1;
    if (da != db && da != 1 && db != 1)
      throw InvalidArgument("matmul: shapes " + shape_str(a) + " and " + shape_str(b) +
                            ": batch dimensions do not broadcast (" + std::to_string(da) + " vs " +
                            std::to_string(db) + ")");
    bshape[i] = da == 1 ? db : da;
  }
  // Expected result shape.
  std::int64_t rshape[kMaxDims];
  int rnd = 0;
  for (int i = 0; i < nb; ++i) rshape[rnd++] = bshape[i];
  if (a.ndim > 1) rshape[rnd++] = m;
  if (b.ndim > 1) rshape[rnd++] = n;
  bool shape_ok = out.ndim == rnd;
  for (int i = 0; shape_ok && i < rnd; ++i) shape_ok = out.shape[i] == rshape[i];
  if (!shape_ok) {
    ArrayView r = out;
    r.ndim = rnd;
    for (int i = 0; i < rnd; ++i) r.shape[i] = rshape[i];
    throw InvalidArgument("matmul: output shape " + shape_str(out) + " does not match the result shape " +
                          shape_str(r) + " of " + shape_str(a) + " @ " + shape_str(b));
  }
  if (out.size() == 0) return;
  activate_device(dev);
  if (k == 0) {
    zero_fill(out, stream);
    return;
  }
  // The output as (batch..., m, n).
  ArrayView O = out;
  O.ndim = nb + 2;
  for (int i = 0; i < nb; ++i) {
    O.shape[i] = out.shape[i];
    O.strides[i] = out.strides[i];
  }
  O.shape[nb] = m;
  O.strides[nb] = a.ndim > 1 ? out.strides[nb] : 0;
  O.shape[nb + 1] = n;
  O.strides[nb + 1] = b.ndim > 1 ? out.strides[out.ndim - 1] : 0;

  // Operands cuBLAS cannot read in place (no unit stride in the matrix, odd strides, overlap with the
  // output) are copied to C-contiguous temporaries first.
  std::unique_ptr<Temp> ta, tb, to;
  const bool o_direct = O.dtype == A.dtype && view_layout(O).row + view_layout(O).col > 0 && batch_strides_ok(O, nb);
  if (!o_direct) to = std::make_unique<Temp>(O, A.dtype, stream);
  const ArrayView& OW = to ? to->view : O;
  auto prepare = [&](const ArrayView& v, std::unique_ptr<Temp>& t) -> ArrayView {
    const Layout l = view_layout(v);
    if ((l.row || l.col) && batch_strides_ok(v, v.ndim - 2) && !(overlaps(v, OW))) return v;
    t = std::make_unique<Temp>(v, v.dtype, stream);
    copy(v, t->view, stream);
    return t->view;
  };
  const ArrayView A2 = prepare(A, ta), B2 = prepare(B, tb);
  run_products(align_batch(A2, nb, bshape), align_batch(B2, nb, bshape), OW, nb,
               precision == MatmulPrecision::TF32, stream);
  if (to) copy(to->view, O, stream);
}

void vdot(const ArrayView& a, const ArrayView& b, const ArrayView& out, StreamHandle stream) {
  check_blas_dtype("vdot", a.dtype);
  check_blas_dtype("vdot", b.dtype);
  check_blas_dtype("vdot", out.dtype);
  if (a.dtype != b.dtype)
    throw TypeError(std::string("vdot: operands have different dtypes (") + dtype_name(a.dtype) + " and " +
                    dtype_name(b.dtype) + ")");
  const int dev = common_device("vdot", a, b, out);
  if (a.ndim != 1 || b.ndim != 1 || out.ndim != 0)
    throw InvalidArgument("vdot: needs two 1-D operands and a 0-d output");
  if (a.shape[0] != b.shape[0])
    throw InvalidArgument("vdot: vectors have different lengths (shapes " + shape_str(a) + " and " +
                          shape_str(b) + ")");
  if (out.readonly) throw InvalidArgument("vdot: output array is read-only");
  activate_device(dev);
  const std::int64_t n = a.shape[0];
  if (n == 0) {
    zero_fill(out, stream);
    return;
  }
  const std::int64_t item = itemsize(a.dtype);
  std::unique_ptr<Temp> ta, tb, to;
  auto prepare = [&](const ArrayView& v, std::unique_ptr<Temp>& t) -> ArrayView {
    std::int64_t st;
    if (elem_stride(v.strides[0], item, &st) && (st > 0 || n == 1) &&
        reinterpret_cast<std::uintptr_t>(v.data) % static_cast<std::uintptr_t>(std::min<std::int64_t>(item, 16)) == 0)
      return v;
    t = std::make_unique<Temp>(v, v.dtype, stream);
    copy(v, t->view, stream);
    return t->view;
  };
  const ArrayView A = prepare(a, ta), B = prepare(b, tb);
  if (out.dtype != a.dtype) to = std::make_unique<Temp>(out, a.dtype, stream);
  void* res = to ? to->view.data : out.data;
  cuda::dot(dev, a.dtype, a.dtype == DType::Complex64 || a.dtype == DType::Complex128, n, A.data,
            n == 1 ? 1 : A.strides[0] / item, B.data, n == 1 ? 1 : B.strides[0] / item, res, stream);
  if (to) copy(to->view, out, stream);
}

namespace {

// One operand of matmul_reduce: the view X read as (rows x cols) (transpose: its columns are the rows), with
// a unit stride along one axis; a copy (in `t`) when it has none.
cuda::ReduceOperand reduce_operand(const ArrayView& X, bool transpose, std::unique_ptr<Temp>& t, StreamHandle s) {
  const std::int64_t item = itemsize(X.dtype);
  const int r = transpose ? 1 : 0, c = 1 - r;
  std::int64_t sr = 0, sc = 0;
  bool ok = elem_stride(X.strides[r], item, &sr) && elem_stride(X.strides[c], item, &sc) &&
            reinterpret_cast<std::uintptr_t>(X.data) % static_cast<std::uintptr_t>(item) == 0;
  if (ok) {
    if (X.shape[r] <= 1) sr = 1;
    if (X.shape[c] <= 1) sc = 1;
    ok = (sr == 1 && sc >= 1) || (sc == 1 && sr >= 1);
  }
  cuda::ReduceOperand op;
  op.data = X.data;
  if (!ok) {
    t = std::make_unique<Temp>(X, X.dtype, s);
    copy(X, t->view, s);
    op.data = t->view.data;
    sr = transpose ? 1 : X.shape[1];
    sc = transpose ? X.shape[1] : 1;
  }
  op.rows = X.shape[r];
  op.cols = X.shape[c];
  op.stride_r = sr;
  op.stride_c = sc;
  return op;
}

void set_host_threads(int n) {
#ifdef _OPENMP
  omp_set_num_threads(std::max(1, n));
#else
  (void)n;
#endif
}

// The checks both matmul_reduce entry points share: dtypes, 2-D aligned operands, axis, out's shape.
// Returns out's length.
std::int64_t check_matmul_reduce(const ArrayView& a, const ArrayView& b, int axis, const ArrayView& out) {
  for (const ArrayView* v : {&a, &b})
    if (v->dtype != DType::Float32 && v->dtype != DType::Float64)
      throw TypeError(std::string("matmul_reduce: unsupported dtype ") + dtype_name(v->dtype) +
                      " (float32 or float64)");
  if (a.dtype != b.dtype)
    throw TypeError(std::string("matmul_reduce: operands have different dtypes (") + dtype_name(a.dtype) +
                    " and " + dtype_name(b.dtype) + ")");
  check_blas_dtype("matmul_reduce", out.dtype);
  if (a.ndim != 2 || b.ndim != 2)
    throw InvalidArgument("matmul_reduce: needs two 2-D operands, got shapes " + shape_str(a) + " and " +
                          shape_str(b));
  if (a.shape[1] != b.shape[0])
    throw InvalidArgument("matmul_reduce: shapes " + shape_str(a) + " and " + shape_str(b) + " not aligned: " +
                          std::to_string(a.shape[1]) + " (dim 1) != " + std::to_string(b.shape[0]) + " (dim 0)");
  if (axis != 0 && axis != 1)
    throw InvalidArgument("matmul_reduce: axis must be 0 or 1, got " + std::to_string(axis));
  const std::int64_t len = axis == 0 ? b.shape[1] : a.shape[0];
  if (out.ndim != 1 || out.shape[0] != len)
    throw InvalidArgument("matmul_reduce: output shape " + shape_str(out) + " should be (" + std::to_string(len) +
                          ",)");
  if (out.readonly) throw InvalidArgument("matmul_reduce: output array is read-only");
  return len;
}

}  // namespace

void matmul_reduce(const ArrayView& a, const ArrayView& b, int axis, const ArrayView& out, StreamHandle stream,
                   MatmulReduceMethod method) {
  const std::int64_t len = check_matmul_reduce(a, b, axis, out);
  const int dev = common_device("matmul_reduce", a, b, out);
  if (method != MatmulReduceMethod::Kernels && method != MatmulReduceMethod::Cublas)
    throw InvalidArgument("matmul_reduce: unknown method");
  if (len == 0) return;
  activate_device(dev);
  const std::int64_t k = a.shape[1];
  const std::int64_t outer = axis == 0 ? a.shape[0] : b.shape[1];  // the summed dimension
  if (k == 0 || outer == 0) {
    zero_fill(out, stream);
    return;
  }
  const DType dt = a.dtype;
  std::unique_ptr<Temp> to;
  const bool direct = out.dtype == dt && out.strides[0] == itemsize(dt) && !overlaps(out, a) && !overlaps(out, b);
  if (!direct) to = std::make_unique<Temp>(out, dt, stream);
  void* y = to ? to->view.data : out.data;
  // Step 1 reduces x1 to the k-vector (axis 0: column sums of a; axis 1: row sums of b), step 2 weights x2's
  // rows with it (axis 0: s^T b; axis 1: a t, i.e. t^T a^T).
  std::unique_ptr<Temp> t1, t2;
  const cuda::ReduceOperand x1 = axis == 0 ? reduce_operand(a, false, t1, stream) : reduce_operand(b, true, t1, stream);
  const cuda::ReduceOperand x2 = axis == 0 ? reduce_operand(b, false, t2, stream) : reduce_operand(a, true, t2, stream);
  if (method == MatmulReduceMethod::Kernels) {
    cuda::matmul_reduce_kernels(dev, dt, x1, x2, y, stream);
  } else {
    // cuBLAS gemv twice in the operands' dtype: s = x1^T 1, y = x2^T s.
    DeviceBuffer mid(k * itemsize(dt), dev, stream);
    DeviceBuffer ones(outer * itemsize(dt), dev, stream);
    const float f1 = 1.0f;
    const double d1 = 1.0;
    fill_pattern(ones.data(), outer, dt == DType::Float32 ? static_cast<const void*>(&f1) : &d1,
                 static_cast<int>(itemsize(dt)), stream);
    cuda::weighted_reduce_cublas(dev, dt, x1.data, x1.rows, x1.cols, x1.stride_r, x1.stride_c, ones.data(),
                                 mid.data(), stream);
    cuda::weighted_reduce_cublas(dev, dt, x2.data, x2.rows, x2.cols, x2.stride_r, x2.stride_c, mid.data(), y,
                                 stream);
  }
  if (to) copy(to->view, out, stream);
}

void matmul_reduce_from_host(const ArrayView& a, const ArrayView& b, int axis, const ArrayView& out,
                             StreamHandle stream) {
  const std::int64_t len = check_matmul_reduce(a, b, axis, out);
  if (!a.on_host() || !b.on_host() || out.on_host())
    throw InvalidArgument("matmul_reduce_from_host: needs host operands and a device output");
  if (!a.is_c_contiguous() || !b.is_c_contiguous())
    throw InvalidArgument("matmul_reduce_from_host: operands must be C-contiguous");
  if (out.dtype != a.dtype || !out.is_c_contiguous())
    throw InvalidArgument("matmul_reduce_from_host: the output must be C-contiguous, of the operands' dtype");
  if (len == 0) return;
  const int dev = out.device;
  require_device(dev);
  activate_device(dev);
  const std::int64_t k = a.shape[1];
  if (k == 0 || (axis == 0 ? a.shape[0] : b.shape[1]) == 0) {
    zero_fill(out, stream);
    return;
  }
  // x1 is summed here into the k-vector (axis 0: a's columns, axis 1: b's rows); x2 goes to the device.
  const ArrayView& x1 = axis == 0 ? a : b;
  const ArrayView& x2 = axis == 0 ? b : a;
  std::vector<double> sums(static_cast<std::size_t>(k));
  const ArrayView sv = make_contiguous_view(sums.data(), DType::Float64, 1, &k, kHostDevice);
  const auto sum_x1 = [&] { reduce(ReduceOp::Sum, x1, axis == 0 ? 1u : 2u, sv, DType::Float64, 0.0, nullptr); };
  DeviceBuffer dx2(x2.size() * itemsize(x2.dtype), dev, stream);
  const ArrayView x2d = make_contiguous_view(dx2.data(), x2.dtype, 2, x2.shape, dev);
  // Both halves stream host memory; run together, each gets part of the host's threads (oversubscribed,
  // they slow each other down). NPGPU_MATMUL_REDUCE_HOST_THREADS: the summing share (0: one after the other).
  const int cores = host::max_threads();
  int share = cores / 2;
  if (const char* v = std::getenv("NPGPU_MATMUL_REDUCE_HOST_THREADS")) share = std::clamp(std::atoi(v), 0, cores - 1);
  if (share <= 0) {
    sum_x1();
    upload_staged(x2, x2d, stream);
  } else {
    std::exception_ptr failed;
    std::thread summer([&] {
      try {
        set_host_threads(share);  // this new thread's own setting
        sum_x1();
      } catch (...) {
        failed = std::current_exception();
      }
    });
    struct Restore {  // joins the summer and gives this thread back its thread count on every way out
      std::thread& t;
      int threads;
      ~Restore() {
        if (t.joinable()) t.join();
        set_host_threads(threads);
      }
    } restore{summer, cores};
    set_host_threads(cores - share);
    upload_staged(x2, x2d, stream);
    summer.join();
    if (failed) std::rethrow_exception(failed);
  }
  DeviceBuffer w(k * 8, dev, stream);
  copy_to_device_staged(w.data(), sums.data(), k * 8, dev, stream);
  std::unique_ptr<Temp> unused;
  const cuda::ReduceOperand x = reduce_operand(x2d, axis == 1, unused, stream);
  cuda::matmul_reduce_weighted(dev, a.dtype, x, static_cast<const double*>(w.data()), out.data, stream);
}

void upload_staged(const ArrayView& host, const ArrayView& dev, StreamHandle stream) {
  if (!host.on_host() || dev.on_host())
    throw InvalidArgument("upload_staged: needs a host source and a device destination");
  if (host.dtype != dev.dtype || host.ndim != dev.ndim)
    throw InvalidArgument("upload_staged: source " + host.describe() + " and destination " + dev.describe() +
                          " differ");
  for (int i = 0; i < host.ndim; ++i)
    if (host.shape[i] != dev.shape[i])
      throw InvalidArgument("upload_staged: source " + host.describe() + " and destination " + dev.describe() +
                            " differ");
  if (!host.is_c_contiguous() || !dev.is_c_contiguous())
    throw InvalidArgument("upload_staged: source and destination must be C-contiguous");
  if (dev.readonly) throw InvalidArgument("upload_staged: destination is read-only");
  const std::int64_t n = host.size(), item = itemsize(host.dtype);
  if (n == 0) return;
  require_device(dev.device);
  activate_device(dev.device);
  detail::StagedOperand op{host.data, item, false};
  char* dst = static_cast<char*>(dev.data);
  std::int64_t start = 0;  // run_staged hands the chunks over in order
  detail::run_staged(dev.device, stream, &op, 1, n, [&](void* const* p, std::int64_t count, StreamHandle s) {
    NPGPU_CUDA_TRY(cudaMemcpyAsync(dst + start * item, p[0], static_cast<size_t>(count * item),
                                   cudaMemcpyDeviceToDevice, static_cast<cudaStream_t>(s)));
    start += count;
  });
}

int cublas_version(int device) {
  require_device(device);
  activate_device(device);
  return cuda::cublas_version(device);
}

}  // namespace npgpu
