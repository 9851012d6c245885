// A test program for libnpgpu's public C++ headers, run on the host backend (no GPU needed): each family's
// functions against values computed here, and the typed exceptions for bad input. Exit status 0 when every
// check passes; each failure is printed with its line.
#include <npgpu/npgpu.hpp>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

namespace {

int g_checks = 0, g_failures = 0;

#define CHECK(cond)                                                         \
  do {                                                                      \
    ++g_checks;                                                             \
    if (!(cond)) {                                                          \
      ++g_failures;                                                         \
      std::printf("FAILED %s:%d: %s\n", __FILE__, __LINE__, #cond);         \
    }                                                                       \
  } while (0)

// CHECK_THROWS(Type, statement): the statement throws Type (or a subclass) with a non-empty message.
#define CHECK_THROWS(Type, ...)                                                    \
  do {                                                                             \
    ++g_checks;                                                                    \
    bool thrown = false;                                                           \
    try {                                                                          \
      __VA_ARGS__;                                                                 \
    } catch (const Type& e) {                                                      \
      thrown = std::string(e.what()).size() > 0;                                   \
    } catch (const std::exception& e) {                                            \
      std::printf("%s:%d: other exception: %s\n", __FILE__, __LINE__, e.what()); \
    }                                                                              \
    if (!thrown) {                                                                 \
      ++g_failures;                                                                \
      std::printf("FAILED %s:%d: no %s from %s\n", __FILE__, __LINE__, #Type, #__VA_ARGS__); \
    }                                                                              \
  } while (0)

constexpr npgpu::StreamHandle kNoStream = nullptr;  // host views ignore the stream

template <class T>
npgpu::ArrayView view(std::vector<T>& v, npgpu::DType dt, std::vector<std::int64_t> shape) {
  return npgpu::make_contiguous_view(v.data(), dt, static_cast<int>(shape.size()), shape.data(),
                                     npgpu::kHostDevice);
}

npgpu::Scalar f64(double x) {
  npgpu::Scalar s;
  s.dtype = npgpu::DType::Float64;
  s.value.f = x;
  return s;
}

void test_views_and_dtypes() {
  CHECK(npgpu::itemsize(npgpu::DType::Complex128) == 16);
  CHECK(std::string(npgpu::dtype_name(npgpu::DType::Float16)) == "float16");
  CHECK(npgpu::is_valid_dtype(14) && !npgpu::is_valid_dtype(npgpu::kNumDTypes));
  std::vector<float> buf(12);
  auto v = view(buf, npgpu::DType::Float32, {3, 4});
  CHECK(v.size() == 12 && v.nbytes() == 48 && v.is_c_contiguous() && v.on_host());
  CHECK(v.strides[0] == 16 && v.strides[1] == 4);
  const std::int64_t neg[2] = {3, -1};
  CHECK_THROWS(npgpu::InvalidArgument, npgpu::checked_size(neg, 2, 4));
  const std::int64_t huge[2] = {std::int64_t(1) << 40, std::int64_t(1) << 40};
  CHECK_THROWS(npgpu::InvalidArgument, npgpu::checked_size(huge, 2, 8));
}

void test_elementwise() {
  // float64 rows (2, 3) times a broadcast row (stride 0 along axis 0) plus a scalar, via axpy and multiply
  std::vector<double> a = {1, 2, 3, 4, 5, 6}, row = {10, 20, 30}, out(6, NAN);
  auto va = view(a, npgpu::DType::Float64, {2, 3}), vo = view(out, npgpu::DType::Float64, {2, 3});
  auto vr = view(row, npgpu::DType::Float64, {2, 3});
  vr.strides[0] = 0;  // broadcast
  npgpu::binary(npgpu::ElementwiseOp::Multiply, va, vr, vo, npgpu::DType::Float64, kNoStream);
  for (int i = 0; i < 6; ++i) CHECK(out[i] == a[i] * row[i % 3]);
  npgpu::axpy(f64(0.5), va, vo, kNoStream);  // out += 0.5 * a
  for (int i = 0; i < 6; ++i) CHECK(out[i] == a[i] * row[i % 3] + 0.5 * a[i]);

  // int32 inputs computed in the float64 loop (true_divide), stored as float32
  std::vector<std::int32_t> p = {7, -7, 1, 0}, q = {2, 2, 3, 5};
  std::vector<float> r(4, NAN);
  npgpu::binary(npgpu::ElementwiseOp::TrueDivide, view(p, npgpu::DType::Int32, {4}), view(q, npgpu::DType::Int32, {4}),
                view(r, npgpu::DType::Float32, {4}), npgpu::DType::Float64, kNoStream);
  CHECK(r[0] == 3.5f && r[1] == -3.5f && r[2] == static_cast<float>(1.0 / 3.0) && r[3] == 0.0f);

  // comparisons give bool; complex multiply rounds each part once (fma, as NumPy's SIMD loop)
  CHECK(npgpu::elementwise_result_dtype(npgpu::ElementwiseOp::Less, npgpu::DType::Float32) == npgpu::DType::Bool);
  CHECK(npgpu::elementwise_result_dtype(npgpu::ElementwiseOp::Absolute, npgpu::DType::Complex64) ==
        npgpu::DType::Float32);
  CHECK(npgpu::elementwise_op_arity(npgpu::ElementwiseOp::Clip) == 3);
  CHECK(std::string(npgpu::elementwise_op_name(npgpu::ElementwiseOp::TrueDivide)) == "true_divide");
  std::vector<std::complex<double>> z = {{1e300, 1e300}, {3, -4}}, zz(2);
  auto vz = view(z, npgpu::DType::Complex128, {2}), vzz = view(zz, npgpu::DType::Complex128, {2});
  npgpu::binary(npgpu::ElementwiseOp::Multiply, vz, vz, vzz, npgpu::DType::Complex128, kNoStream);
  CHECK(std::isinf(zz[0].real()) && zz[0].real() < 0 && std::isinf(zz[0].imag()) && zz[0].imag() > 0);
  CHECK(zz[1] == std::complex<double>(-7, -24));

  // copy converts with NumPy's unsafe casting and follows negative strides
  std::vector<double> src = {1.9, -2.9, 3.5, 1e3};
  std::vector<std::int16_t> dst(4, 0);
  auto vs = view(src, npgpu::DType::Float64, {4});
  vs.data = src.data() + 3;
  vs.strides[0] = -8;  // reversed
  npgpu::copy(vs, view(dst, npgpu::DType::Int16, {4}), kNoStream);
  CHECK(dst[0] == 1000 && dst[1] == 3 && dst[2] == -2 && dst[3] == 1);

  // bad input: a loop that does not exist, a shape mismatch
  CHECK_THROWS(npgpu::TypeError,
               npgpu::elementwise_result_dtype(npgpu::ElementwiseOp::BitwiseAnd, npgpu::DType::Float64));
  std::vector<double> small(2);
  CHECK_THROWS(npgpu::InvalidArgument, npgpu::binary(npgpu::ElementwiseOp::Add, va, va,
                                                     view(small, npgpu::DType::Float64, {2}),
                                                     npgpu::DType::Float64, kNoStream));
}

void test_reduce_and_scan() {
  // (3, 4) int32: sum over axis 0 (int64 accumulator), max over axis 1, argmax of all, var with ddof 1
  std::vector<std::int32_t> m = {3, -1, 4, 1, 5, 9, -2, 6, 5, 3, 5, 8};
  auto vm = view(m, npgpu::DType::Int32, {3, 4});
  std::vector<std::int64_t> col(4, -99);
  npgpu::reduce(npgpu::ReduceOp::Sum, vm, 1u, view(col, npgpu::DType::Int64, {4}), npgpu::DType::Int64, 0,
                kNoStream);
  CHECK(col[0] == 13 && col[1] == 11 && col[2] == 7 && col[3] == 15);
  std::vector<std::int32_t> rmax(3, -99);
  npgpu::reduce(npgpu::ReduceOp::Max, vm, 2u, view(rmax, npgpu::DType::Int32, {3}), npgpu::DType::Int32, 0,
                kNoStream);
  CHECK(rmax[0] == 4 && rmax[1] == 9 && rmax[2] == 8);
  std::vector<std::int64_t> am(1, -99);
  npgpu::reduce(npgpu::ReduceOp::ArgMax, vm, 3u, view(am, npgpu::DType::Int64, {}), npgpu::DType::Int64, 0,
                kNoStream);
  CHECK(am[0] == 5);  // the first 9
  std::vector<double> var(1, NAN);
  npgpu::reduce(npgpu::ReduceOp::Var, vm, 3u, view(var, npgpu::DType::Float64, {}), npgpu::DType::Float64, 1.0,
                kNoStream);
  double mean = std::accumulate(m.begin(), m.end(), 0.0) / 12, ss = 0;
  for (int x : m) ss += (x - mean) * (x - mean);
  CHECK(std::fabs(var[0] - ss / 11) < 1e-12 * ss);

  // NaN propagates through max; nanmax skips it; an empty max throws
  std::vector<double> withnan = {1, NAN, 3}, one(1, 0);
  npgpu::reduce(npgpu::ReduceOp::Max, view(withnan, npgpu::DType::Float64, {3}), 1u,
                view(one, npgpu::DType::Float64, {}), npgpu::DType::Float64, 0, kNoStream);
  CHECK(std::isnan(one[0]));
  npgpu::reduce(npgpu::ReduceOp::NanMax, view(withnan, npgpu::DType::Float64, {3}), 1u,
                view(one, npgpu::DType::Float64, {}), npgpu::DType::Float64, 0, kNoStream);
  CHECK(one[0] == 3);
  std::vector<double> none;
  CHECK_THROWS(npgpu::InvalidArgument,
               npgpu::reduce(npgpu::ReduceOp::Max, view(none, npgpu::DType::Float64, {0}), 1u,
                             view(one, npgpu::DType::Float64, {}), npgpu::DType::Float64, 0, kNoStream));
  CHECK(std::string(npgpu::reduce_op_name(npgpu::ReduceOp::Max)) == "maximum");

  // exclusive cumsum along axis 1, in place
  std::vector<std::int64_t> s = {1, 2, 3, 4, 5, 6};
  auto vs = view(s, npgpu::DType::Int64, {2, 3});
  npgpu::scan(npgpu::ScanOp::Sum, vs, 1, vs, true, kNoStream);
  CHECK(s[0] == 0 && s[1] == 1 && s[2] == 3 && s[3] == 0 && s[4] == 4 && s[5] == 9);
}

void test_sorting() {
  // two rows, NaN last, stable indices, both directions
  std::vector<double> k = {3, NAN, 1, 3, 2, -0.0, 0.0, 5};
  auto vk = view(k, npgpu::DType::Float64, {2, 4});
  std::vector<double> vals(8, -1);
  std::vector<std::int64_t> idx(8, -1);
  auto vv = view(vals, npgpu::DType::Float64, {2, 4});
  auto vi = view(idx, npgpu::DType::Int64, {2, 4});
  npgpu::sort_rows(vk, &vv, &vi, false, kNoStream);
  CHECK(vals[0] == 1 && vals[1] == 3 && vals[2] == 3 && std::isnan(vals[3]));
  CHECK(idx[0] == 2 && idx[1] == 0 && idx[2] == 3 && idx[3] == 1);
  CHECK(idx[4] == 1 && idx[5] == 2 && idx[6] == 0 && idx[7] == 3);  // -0.0 == 0.0: stable
  npgpu::sort_rows(vk, &vv, &vi, true, kNoStream);
  CHECK(vals[0] == 3 && vals[1] == 3 && vals[2] == 1 && std::isnan(vals[3]));
  CHECK(idx[0] == 0 && idx[1] == 3);  // stable in descending order too

  std::vector<float> sorted = {1, 2, 2, 2, 5};
  std::vector<float> q = {2, 0, 6};
  std::vector<std::int64_t> pos(3, -1);
  npgpu::search_sorted(view(sorted, npgpu::DType::Float32, {5}), view(q, npgpu::DType::Float32, {3}),
                       view(pos, npgpu::DType::Int64, {3}), false, kNoStream);
  CHECK(pos[0] == 1 && pos[1] == 0 && pos[2] == 5);
  npgpu::search_sorted(view(sorted, npgpu::DType::Float32, {5}), view(q, npgpu::DType::Float32, {3}),
                       view(pos, npgpu::DType::Int64, {3}), true, kNoStream);
  CHECK(pos[0] == 4);

  // counting in place of sorting: the range, the counts with first positions, the inverse through ranks
  std::vector<std::uint8_t> keys = {250, 252, 250, 255};
  std::vector<std::uint8_t> span(2, 0);
  auto vkeys = view(keys, npgpu::DType::UInt8, {4});
  auto vspan = view(span, npgpu::DType::UInt8, {2});
  npgpu::key_range(vkeys, vspan, kNoStream);
  CHECK(span[0] == 250 && span[1] == 255);
  std::vector<std::int64_t> counts(6, -7), first(6, -7), ranks = {0, -1, 1, -1, -1, 2}, inverse(4, -7);
  auto vfirst = view(first, npgpu::DType::Int64, {6});
  npgpu::count_keys(vkeys, vspan, view(counts, npgpu::DType::Int64, {6}), &vfirst, kNoStream);
  CHECK(counts[0] == 2 && counts[1] == 0 && counts[2] == 1 && counts[5] == 1);
  CHECK(first[0] == 0 && first[1] == -1 && first[2] == 1 && first[5] == 3);
  npgpu::lookup_keys(vkeys, vspan, view(ranks, npgpu::DType::Int64, {6}), view(inverse, npgpu::DType::Int64, {4}),
                     kNoStream);
  CHECK(inverse[0] == 0 && inverse[1] == 1 && inverse[2] == 0 && inverse[3] == 2);
  CHECK_THROWS(npgpu::TypeError, npgpu::key_range(view(sorted, npgpu::DType::Float32, {5}), vspan, kNoStream));
}

void test_creation_and_manipulation() {
  std::vector<std::int64_t> ar(5, 0);
  npgpu::Scalar start, delta;
  start.dtype = delta.dtype = npgpu::DType::Int64;
  start.value.i = 10;
  delta.value.i = -3;
  npgpu::arange_fill(view(ar, npgpu::DType::Int64, {5}), start, delta, kNoStream);
  CHECK(ar[0] == 10 && ar[4] == -2);
  std::vector<double> ad(4, 0);
  npgpu::arange_fill(view(ad, npgpu::DType::Float64, {4}), f64(0.5), f64(0.25), kNoStream);
  CHECK(ad[3] == 1.25);

  // concatenate-style batch copy, and its refusal of overlapping pairs
  std::vector<float> x = {1, 2, 3}, y = {4, 5}, xy(5, 0);
  npgpu::ArrayView src[2] = {view(x, npgpu::DType::Float32, {3}), view(y, npgpu::DType::Float32, {2})};
  std::int64_t three = 3, two = 2;
  npgpu::ArrayView dst[2] = {
      npgpu::make_contiguous_view(xy.data(), npgpu::DType::Float32, 1, &three, npgpu::kHostDevice),
      npgpu::make_contiguous_view(xy.data() + 3, npgpu::DType::Float32, 1, &two, npgpu::kHostDevice)};
  npgpu::copy_batch(src, dst, 2, kNoStream);
  CHECK(xy[0] == 1 && xy[2] == 3 && xy[3] == 4 && xy[4] == 5);
  npgpu::ArrayView self[1] = {dst[0]};
  npgpu::ArrayView shifted[1] = {
      npgpu::make_contiguous_view(xy.data() + 1, npgpu::DType::Float32, 1, &three, npgpu::kHostDevice)};
  CHECK_THROWS(npgpu::InvalidArgument, npgpu::copy_batch(self, shifted, 1, kNoStream));
}

void test_indexing() {
  std::vector<std::uint8_t> flags = {0, 1, 0, 0, 1, 1};
  std::vector<std::int64_t> pos(6, -1);
  const std::int64_t n = npgpu::nonzero_positions(view(flags, npgpu::DType::Bool, {6}),
                                                  view(pos, npgpu::DType::Int64, {6}), kNoStream);
  CHECK(n == 3 && pos[0] == 1 && pos[1] == 4 && pos[2] == 5);

  // take rows of a (3, 2) matrix with a negative index; an index out of range throws IndexError
  std::vector<double> m = {0, 1, 10, 11, 20, 21}, got(4, NAN);
  std::vector<std::int64_t> ix = {2, -3};
  npgpu::take(view(m, npgpu::DType::Float64, {3, 2}), 1, 3, 2, view(ix, npgpu::DType::Int64, {2}),
              view(got, npgpu::DType::Float64, {1, 2, 2}), kNoStream);
  CHECK(got[0] == 20 && got[1] == 21 && got[2] == 0 && got[3] == 1);
  std::vector<std::int64_t> bad = {3};
  CHECK_THROWS(npgpu::IndexError, npgpu::take(view(m, npgpu::DType::Float64, {3, 2}), 1, 3, 2,
                                              view(bad, npgpu::DType::Int64, {1}),
                                              view(got, npgpu::DType::Float64, {1, 1, 2}), kNoStream));

  // add.at: repeated indices accumulate
  std::vector<std::int32_t> acc = {0, 0, 0}, add = {1, 2, 3, 4};
  std::vector<std::int64_t> at = {0, 2, 0, 0};
  npgpu::scatter_add(view(acc, npgpu::DType::Int32, {3}), 1, 3, 1, view(at, npgpu::DType::Int64, {4}),
                     view(add, npgpu::DType::Int32, {4}), kNoStream);
  CHECK(acc[0] == 8 && acc[1] == 0 && acc[2] == 2);
  std::vector<std::int32_t> v = {-5};
  std::vector<std::int64_t> one = {1};
  npgpu::put(view(acc, npgpu::DType::Int32, {3}), 1, 3, 1, view(one, npgpu::DType::Int64, {1}),
             view(v, npgpu::DType::Int32, {1}), kNoStream);
  CHECK(acc[1] == -5);
}

void test_stencil() {
  const std::int64_t R = 6, C = 7;
  std::vector<double> f(R * C), lap(R * C, NAN), out(R * C, NAN);
  for (std::int64_t i = 0; i < R * C; ++i) f[i] = std::sin(0.3 * i) + 2;
  auto vf = view(f, npgpu::DType::Float64, {R, C}), vl = view(lap, npgpu::DType::Float64, {R, C});
  auto vo = view(out, npgpu::DType::Float64, {R, C});
  // out = 4 f - neighbours, here with periodic wrap-around
  npgpu::laplacian(vf, vl, npgpu::Boundary::Periodic, kNoStream);
  auto at = [&](std::int64_t r, std::int64_t c) { return f[((r + R) % R) * C + (c + C) % C]; };
  for (std::int64_t r = 0; r < R; ++r)
    for (std::int64_t c = 0; c < C; ++c)
      CHECK(std::fabs(lap[r * C + c] - (4 * at(r, c) - at(r - 1, c) - at(r + 1, c) - at(r, c - 1) - at(r, c + 1))) <
            1e-12);
  // reflecting edges conserve the total; one step equals f - coeff * laplacian
  npgpu::diffusion(vf, vo, nullptr, 200, 0.2, npgpu::Boundary::Reflect, kNoStream);
  const double before = std::accumulate(f.begin(), f.end(), 0.0), after = std::accumulate(out.begin(), out.end(), 0.0);
  CHECK(std::fabs(before - after) < 1e-9 * before);
  npgpu::diffusion(vf, vo, nullptr, 1, 0.2, npgpu::Boundary::Periodic, kNoStream);
  for (std::int64_t i = 0; i < R * C; ++i) CHECK(std::fabs(out[i] - (f[i] - 0.2 * lap[i])) < 1e-12);
  // a callback every 5 steps that stops the run after 10
  struct Seen {
    std::vector<std::int64_t> steps;
  } seen;
  npgpu::DiffusionCallback cb;
  cb.every = 5;
  cb.user = &seen;
  cb.fn = [](std::int64_t done, const npgpu::ArrayView& field, void* user) {
    static_cast<Seen*>(user)->steps.push_back(done);
    return done < 10 && field.is_c_contiguous();
  };
  const std::int64_t done = npgpu::diffusion(vf, vo, nullptr, 100, 0.2, npgpu::Boundary::Zero, kNoStream, &cb);
  CHECK(done == 10 && seen.steps.size() == 2 && seen.steps[1] == 10);
  std::vector<double> wrong(R * (C - 1));
  CHECK_THROWS(npgpu::InvalidArgument,
               npgpu::laplacian(vf, view(wrong, npgpu::DType::Float64, {R, C - 1}), npgpu::Boundary::Zero, kNoStream));
}

void test_random() {
  // Philox4x32-10's known answer (Random123's test vector for a zero counter and key)
  const std::uint32_t ctr[4] = {0, 0, 0, 0}, key[2] = {0, 0};
  std::uint32_t w[4];
  npgpu::philox4x32_10(ctr, key, w);
  CHECK(w[0] == 0x6627e8d5u && w[1] == 0xe169c58du && w[2] == 0xbc57ac4cu && w[3] == 0x9b00dbd8u);

  // a fill is a pure function of (seed, counter, i): 8 values from block 0 end with the 4 values of block 1
  npgpu::RandomSpec spec;
  spec.seed = 42;
  std::vector<float> u8(8, -1), u4(4, -1);
  npgpu::random_fill(spec, view(u8, npgpu::DType::Float32, {8}), kNoStream);
  spec.counter = npgpu::random_blocks(npgpu::DType::Float32, 4);
  CHECK(spec.counter == 1);
  npgpu::random_fill(spec, view(u4, npgpu::DType::Float32, {4}), kNoStream);
  for (int i = 0; i < 8; ++i) CHECK(u8[i] >= 0.0f && u8[i] < 1.0f);
  for (int i = 0; i < 4; ++i) CHECK(u4[i] == u8[4 + i]);

  npgpu::RandomSpec ints;
  ints.dist = npgpu::RandomDist::Integers;
  ints.seed = 7;
  ints.low = static_cast<std::uint64_t>(-3);  // two's complement of -3
  ints.range_m1 = 5;                           // [-3, 3)
  std::vector<std::int16_t> r(1000);
  npgpu::random_fill(ints, view(r, npgpu::DType::Int16, {1000}), kNoStream);
  bool in_range = true, saw_low = false, saw_high = false;
  for (auto x : r) {
    in_range = in_range && x >= -3 && x < 3;
    saw_low = saw_low || x == -3;
    saw_high = saw_high || x == 2;
  }
  CHECK(in_range && saw_low && saw_high);

  npgpu::RandomSpec badspec;
  badspec.a = 1.0;
  badspec.b = 0.0;  // low >= high
  CHECK_THROWS(npgpu::InvalidArgument, npgpu::random_fill(badspec, view(u4, npgpu::DType::Float32, {4}), kNoStream));
  CHECK_THROWS(npgpu::TypeError, npgpu::random_fill(spec, view(r, npgpu::DType::Int16, {1000}), kNoStream));

  // stream versions: float32 normals differ between 1 (Box-Muller) and 2 (the ziggurat, the default),
  // float64 normals do not; an unknown version is refused
  npgpu::RandomSpec normal;
  normal.dist = npgpu::RandomDist::Normal;
  normal.seed = 3;
  CHECK(normal.version == npgpu::kRandomStreamVersion && normal.version == 2);
  std::vector<float> z2(64), z1(64);
  std::vector<double> d2(64), d1(64);
  npgpu::random_fill(normal, view(z2, npgpu::DType::Float32, {64}), kNoStream);
  npgpu::random_fill(normal, view(d2, npgpu::DType::Float64, {64}), kNoStream);
  normal.version = 1;
  npgpu::random_fill(normal, view(z1, npgpu::DType::Float32, {64}), kNoStream);
  npgpu::random_fill(normal, view(d1, npgpu::DType::Float64, {64}), kNoStream);
  CHECK(z1 != z2 && d1 == d2);
  for (float z : z2) CHECK(std::isfinite(z) && std::fabs(z) < 7.0f);
  normal.version = 3;
  CHECK_THROWS(npgpu::InvalidArgument, npgpu::random_fill(normal, view(z1, npgpu::DType::Float32, {64}), kNoStream));

  const double pi = npgpu::monte_carlo_pi(1 << 20, 1234, npgpu::kHostDevice, kNoStream);
  CHECK(std::fabs(pi - 3.14159265358979) < 0.01);
  CHECK(npgpu::monte_carlo_pi_hits(1 << 20, 1234, npgpu::kHostDevice, kNoStream) ==
        static_cast<std::uint64_t>(std::llround(pi * (1 << 20) / 4)));
  CHECK_THROWS(npgpu::InvalidArgument, npgpu::monte_carlo_pi_hits(0, 1, npgpu::kHostDevice, kNoStream));
  // Ranges (one starting inside a Philox call of 8 points) add up to the whole count.
  const std::uint64_t whole = npgpu::monte_carlo_pi_hits(100003, 99, npgpu::kHostDevice, kNoStream);
  CHECK(npgpu::monte_carlo_pi_hits_range(0, 4093, 99, npgpu::kHostDevice, kNoStream) +
            npgpu::monte_carlo_pi_hits_range(4093, 100003 - 4093, 99, npgpu::kHostDevice, kNoStream) ==
        whole);
  CHECK_THROWS(npgpu::InvalidArgument, npgpu::monte_carlo_pi_hits_range(-8, 8, 1, npgpu::kHostDevice, kNoStream));
}

void test_sparse_and_launch() {
  // [[1, 0, 2], [0, 0, 0], [0, 3, 0]] @ [1, 10, 100]
  std::vector<std::int32_t> indptr = {0, 2, 2, 3}, indices = {0, 2, 1};
  std::vector<double> data = {1, 2, 3}, x = {1, 10, 100}, y(3, NAN);
  npgpu::csr_matmul(view(indptr, npgpu::DType::Int32, {4}), view(indices, npgpu::DType::Int32, {3}),
                    view(data, npgpu::DType::Float64, {3}), 3, view(x, npgpu::DType::Float64, {3}),
                    view(y, npgpu::DType::Float64, {3}), kNoStream);
  CHECK(y[0] == 201 && y[1] == 0 && y[2] == 30);
  // the same matrix times itself: [[1, 6, 2], [0, 0, 0], [0, 0, 0]] (row 2 meets B's empty row 1)
  npgpu::CsrProduct product(view(indptr, npgpu::DType::Int32, {4}), view(indices, npgpu::DType::Int32, {3}),
                            view(data, npgpu::DType::Float64, {3}), view(indptr, npgpu::DType::Int32, {4}),
                            view(indices, npgpu::DType::Int32, {3}), view(data, npgpu::DType::Float64, {3}), 3,
                            kNoStream);
  CHECK(product.nnz() == 3);
  std::vector<std::int32_t> pptr(4, -1), pidx(3, -1);
  std::vector<double> pval(3, NAN);
  product.write(view(pptr, npgpu::DType::Int32, {4}), view(pidx, npgpu::DType::Int32, {3}),
                view(pval, npgpu::DType::Float64, {3}));
  CHECK((pptr == std::vector<std::int32_t>{0, 3, 3, 3}) && (pidx == std::vector<std::int32_t>{0, 1, 2}));
  CHECK(pval[0] == 1 && pval[1] == 6 && pval[2] == 2);
  CHECK_THROWS(npgpu::InvalidArgument, product.write(view(pptr, npgpu::DType::Int32, {4}),
                                                      view(pidx, npgpu::DType::Int32, {3}),
                                                      view(pval, npgpu::DType::Float64, {3})));

  // one conjugate-gradient step on diag(2, 4) from x = 0, r = p = b = (2, 4): q = A p = (4, 16),
  // alpha = 20 / 72, x = alpha (2, 4)
  std::vector<double> cx = {0, 0}, cr = {2, 4}, cp = {2, 4}, cq = {4, 16};
  std::vector<double> state(static_cast<std::size_t>(npgpu::cg_state_size(2)), NAN);
  auto vstate = view(state, npgpu::DType::Float64, {static_cast<std::int64_t>(state.size())});
  npgpu::cg_start(view(cr, npgpu::DType::Float64, {2}), 1e-20, vstate, kNoStream);
  CHECK(state[0] == 20 && state[1] == 0);
  npgpu::cg_step(view(cx, npgpu::DType::Float64, {2}), view(cr, npgpu::DType::Float64, {2}),
                 view(cp, npgpu::DType::Float64, {2}), view(cq, npgpu::DType::Float64, {2}), vstate, 0, kNoStream);
  CHECK(std::fabs(cx[0] - 40.0 / 72) < 1e-15 && std::fabs(cx[1] - 80.0 / 72) < 1e-15);
  CHECK(std::fabs(state[npgpu::kCgSlot] - (cr[0] * cr[0] + cr[1] * cr[1])) < 1e-12 && state[npgpu::kCgSlot + 1] == 0);
  // the same step with the product: A = diag(2, 4) in CSR
  std::vector<std::int32_t> dptr = {0, 1, 2}, didx = {0, 1};
  std::vector<double> dval = {2, 4}, dx = {0, 0}, dr = {2, 4}, dp = {2, 4}, dq(2, NAN);
  npgpu::cg_start(view(dr, npgpu::DType::Float64, {2}), 1e-20, vstate, kNoStream);
  npgpu::cg_step_csr(view(dptr, npgpu::DType::Int32, {3}), view(didx, npgpu::DType::Int32, {2}),
                     view(dval, npgpu::DType::Float64, {2}), view(dx, npgpu::DType::Float64, {2}),
                     view(dr, npgpu::DType::Float64, {2}), view(dp, npgpu::DType::Float64, {2}),
                     view(dq, npgpu::DType::Float64, {2}), vstate, 0, kNoStream, 1);
  CHECK(dq[0] == 4 && dq[1] == 16 && dx == cx && dr == cr);
  CHECK_THROWS(npgpu::InvalidArgument, npgpu::cg_step(view(cx, npgpu::DType::Float64, {2}),
                                                      view(cr, npgpu::DType::Float64, {2}),
                                                      view(cp, npgpu::DType::Float64, {2}),
                                                      view(cp, npgpu::DType::Float64, {2}), vstate, 1, kNoStream));

  // the host emulates a launch of 2 blocks of 3 threads
  const npgpu::Dim3 grid{2, 1, 1}, block{3, 1, 1};
  std::vector<std::int32_t> t(18), b(18), bd(18), gd(18);
  npgpu::launch_indices(grid, block, view(t, npgpu::DType::Int32, {6, 3}), view(b, npgpu::DType::Int32, {6, 3}),
                        view(bd, npgpu::DType::Int32, {6, 3}), view(gd, npgpu::DType::Int32, {6, 3}), kNoStream);
  CHECK(t[4 * 3] == 1 && b[4 * 3] == 1 && bd[0] == 3 && gd[0] == 2);  // thread 4 is thread 1 of block 1
  CHECK_THROWS(npgpu::InvalidArgument, npgpu::check_launch_geometry(grid, npgpu::Dim3{2048, 1, 1}, npgpu::kHostDevice));
}

}  // namespace

void test_matmul_reduce_checks() {
  // matmul_reduce of host operands needs a device output; misaligned shapes and other dtypes are refused
  // before any device work.
  std::vector<float> a(6, 1.0f), b(12, 1.0f), out(4);
  auto va = view(a, npgpu::DType::Float32, {2, 3}), vb = view(b, npgpu::DType::Float32, {3, 4});
  CHECK_THROWS(npgpu::InvalidArgument,
               npgpu::matmul_reduce_from_host(va, vb, 0, view(out, npgpu::DType::Float32, {4}), kNoStream));
  CHECK_THROWS(npgpu::InvalidArgument,
               npgpu::matmul_reduce_from_host(va, view(b, npgpu::DType::Float32, {4, 3}), 0,
                                              view(out, npgpu::DType::Float32, {3}), kNoStream));
  std::vector<std::int32_t> ai(6);
  CHECK_THROWS(npgpu::TypeError, npgpu::matmul_reduce_from_host(view(ai, npgpu::DType::Int32, {2, 3}), vb, 0,
                                                                view(out, npgpu::DType::Float32, {4}), kNoStream));
}

void test_linalg_checks() {
  // The cuSOLVER factorisations take device matrices: host ones are refused before cuSOLVER is opened.
  std::vector<double> a(4, 1.0);
  std::vector<std::complex<double>> w(2);
  std::vector<std::int32_t> info(1);
  CHECK_THROWS(npgpu::InvalidArgument,
               npgpu::general_eigen(view(a, npgpu::DType::Float64, {2, 2}), 2, view(w, npgpu::DType::Complex128, {2}),
                                    nullptr, view(info, npgpu::DType::Int32, {1}), kNoStream));
}

int main() {
  std::printf("libnpgpu %s, %d GPU(s)\n", npgpu::version(), npgpu::device_count());
  test_views_and_dtypes();
  test_elementwise();
  test_reduce_and_scan();
  test_sorting();
  test_creation_and_manipulation();
  test_indexing();
  test_stencil();
  test_random();
  test_sparse_and_launch();
  test_matmul_reduce_checks();
  test_linalg_checks();
  std::printf("%d checks, %d failed\n", g_checks, g_failures);
  return g_failures == 0 ? 0 : 1;
}
