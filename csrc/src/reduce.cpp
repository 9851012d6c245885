// Reductions and scans: argument checks, the operation's reducer / compute type / finishing step, then the
// host or CUDA backend by the views' device.
#include "npgpu/reduce.hpp"

#include <string>

#include "common/reduce_backends.hpp"
#include "npgpu/errors.hpp"

namespace npgpu {
namespace {

using detail::Fin;
using detail::Pre;
using detail::ReduceArgs;
using detail::RKind;
using detail::RType;

bool is_complex_dt(DType d) { return d == DType::Complex64 || d == DType::Complex128; }
bool is_float_dt(DType d) {
  return d == DType::Float16 || d == DType::BFloat16 || d == DType::Float32 || d == DType::Float64;
}
bool is_signed_dt(DType d) {
  return d == DType::Int8 || d == DType::Int16 || d == DType::Int32 || d == DType::Int64;
}

// The accumulator class of an accumulator dtype.
RType acc_type(DType d) {
  if (is_complex_dt(d)) return RType::C128;
  if (is_float_dt(d)) return RType::F64;
  return RType::U64;
}

// The exact comparison type of an input dtype (min, max, argmin, argmax).
RType value_type(DType d, ReduceOp op) {
  if (is_complex_dt(d))
    throw TypeError(std::string(reduce_op_name(op)) + ": complex inputs are not supported");
  if (is_float_dt(d)) return RType::F64;
  if (is_signed_dt(d)) return RType::I64;
  return RType::U64;
}

void set(ReduceArgs& a, RKind k, RType t, Pre p = Pre::None, Fin f = Fin::None) {
  a.kind = k;
  a.type = t;
  a.pre = p;
  a.fin.fin = f;
}

void plan_op(ReduceOp op, DType in, DType acc, ReduceArgs& a) {
  a.fin.signed_int = is_signed_dt(acc);
  switch (op) {
    case ReduceOp::Sum: set(a, RKind::Add, acc_type(acc)); break;
    case ReduceOp::Prod: set(a, RKind::Mul, acc_type(acc)); break;
    case ReduceOp::NanSum: set(a, RKind::Add, acc_type(acc), Pre::NanToZero); break;
    case ReduceOp::NanProd: set(a, RKind::Mul, acc_type(acc), Pre::NanToOne); break;
    case ReduceOp::Min: set(a, RKind::Min, value_type(in, op)); break;
    case ReduceOp::Max: set(a, RKind::Max, value_type(in, op)); break;
    case ReduceOp::NanMin: {
      const RType t = value_type(in, op);
      set(a, t == RType::F64 ? RKind::NanMin : RKind::Min, t);
      break;
    }
    case ReduceOp::NanMax: {
      const RType t = value_type(in, op);
      set(a, t == RType::F64 ? RKind::NanMax : RKind::Max, t);
      break;
    }
    case ReduceOp::ArgMin: set(a, RKind::ArgMin, value_type(in, op), Pre::None, Fin::Index); break;
    case ReduceOp::ArgMax: set(a, RKind::ArgMax, value_type(in, op), Pre::None, Fin::Index); break;
    case ReduceOp::Any: set(a, RKind::Max, RType::U64, Pre::Nonzero); break;
    case ReduceOp::All: set(a, RKind::Min, RType::U64, Pre::Nonzero); break;
    case ReduceOp::CountNonzero: set(a, RKind::Add, RType::U64, Pre::Nonzero); break;
    case ReduceOp::Mean: {
      const RType t = acc_type(acc) == RType::C128 || is_complex_dt(in) ? RType::C128 : RType::F64;
      set(a, RKind::Add, t, Pre::None, Fin::Mean);
      break;
    }
    case ReduceOp::NanMean:
    case ReduceOp::Var:
    case ReduceOp::NanVar:
    case ReduceOp::Std:
    case ReduceOp::NanStd:
      if (is_complex_dt(in) || is_complex_dt(acc))
        throw TypeError(std::string(reduce_op_name(op)) + ": complex inputs are not supported");
      set(a, RKind::Welford, RType::F64, Pre::None,
          op == ReduceOp::NanMean ? Fin::Mean : (op == ReduceOp::Std || op == ReduceOp::NanStd) ? Fin::Std : Fin::Var);
      a.skip_nan = op == ReduceOp::NanMean || op == ReduceOp::NanVar || op == ReduceOp::NanStd;
      break;
    case ReduceOp::Norm1: set(a, RKind::Add, RType::F64, Pre::Abs); break;
    case ReduceOp::Norm2: set(a, RKind::Add, RType::F64, Pre::AbsSq, Fin::Sqrt); break;
    case ReduceOp::NormInf: set(a, RKind::Max, RType::F64, Pre::Abs); break;
    case ReduceOp::NormNegInf: set(a, RKind::Min, RType::F64, Pre::Abs); break;
    default:
      throw InvalidArgument("reduce: unknown operation " + std::to_string(static_cast<int>(op)));
  }
}

bool needs_identity_free(ReduceOp op) {
  switch (op) {
    case ReduceOp::Min:
    case ReduceOp::Max:
    case ReduceOp::NanMin:
    case ReduceOp::NanMax:
    case ReduceOp::ArgMin:
    case ReduceOp::ArgMax:
    case ReduceOp::NormInf:
    case ReduceOp::NormNegInf:
      return true;
    default:
      return false;
  }
}

}  // namespace

const char* reduce_op_name(ReduceOp op) {
  switch (op) {
    case ReduceOp::Sum: return "sum";
    case ReduceOp::Prod: return "prod";
    case ReduceOp::Min: return "minimum";
    case ReduceOp::Max: return "maximum";
    case ReduceOp::ArgMin: return "argmin";
    case ReduceOp::ArgMax: return "argmax";
    case ReduceOp::Any: return "any";
    case ReduceOp::All: return "all";
    case ReduceOp::CountNonzero: return "count_nonzero";
    case ReduceOp::NanSum: return "nansum";
    case ReduceOp::NanProd: return "nanprod";
    case ReduceOp::NanMin: return "fmin";
    case ReduceOp::NanMax: return "fmax";
    case ReduceOp::Mean: return "mean";
    case ReduceOp::NanMean: return "nanmean";
    case ReduceOp::Var: return "var";
    case ReduceOp::NanVar: return "nanvar";
    case ReduceOp::Std: return "std";
    case ReduceOp::NanStd: return "nanstd";
    case ReduceOp::Norm1: return "norm";
    case ReduceOp::Norm2: return "norm";
    case ReduceOp::NormInf: return "norm";
    case ReduceOp::NormNegInf: return "norm";
  }
  return "reduce";
}

void reduce(ReduceOp op, const ArrayView& in, std::uint64_t axes, const ArrayView& out, DType acc, double ddof,
            StreamHandle stream) {
  const std::string name = reduce_op_name(op);
  if (in.ndim < 64 && (axes >> in.ndim) != 0)
    throw InvalidArgument(name + ": axis out of range for an array of " + std::to_string(in.ndim) + " dimensions");
  if (in.device != out.device)
    throw InvalidArgument(name + ": input " + in.describe() + " and output " + out.describe() +
                          " are on different devices");
  if (out.readonly) throw InvalidArgument(name + ": output array is read-only");
  if (!is_valid_dtype(static_cast<std::int32_t>(acc))) throw TypeError(name + ": bad accumulator dtype");
  ReduceArgs a;
  plan_op(op, in.dtype, acc, a);
  a.fin.ddof = ddof;
  // Split the input's axes into kept and reduced; match the output (with or without the reduced axes).
  int nred = 0;
  for (int d = 0; d < in.ndim; ++d) nred += static_cast<int>((axes >> d) & 1u);
  const bool keepdims = out.ndim == in.ndim && nred > 0;
  if (!keepdims && out.ndim != in.ndim - nred)
    throw InvalidArgument(name + ": output " + out.describe() + " does not match the reduction of " + in.describe());
  ArrayView& ok = a.out_k;
  ArrayView& ik = a.in_k;
  ArrayView& ir = a.in_r;
  ok = out;
  ok.ndim = 0;
  ik = in;
  ik.ndim = 0;
  ir = in;
  ir.ndim = 0;
  int od = 0;
  for (int d = 0; d < in.ndim; ++d) {
    if ((axes >> d) & 1u) {
      if (keepdims && out.shape[d] != 1)
        throw InvalidArgument(name + ": output " + out.describe() + " does not match the reduction of " +
                              in.describe());
      ir.shape[ir.ndim] = in.shape[d];
      ir.strides[ir.ndim++] = in.strides[d];
      if (keepdims) ++od;
    } else {
      if (out.shape[od] != in.shape[d])
        throw InvalidArgument(name + ": output " + out.describe() + " does not match the reduction of " +
                              in.describe());
      ok.shape[ok.ndim] = out.shape[od];
      ok.strides[ok.ndim++] = out.strides[od];
      ++od;
      ik.shape[ik.ndim] = in.shape[d];
      ik.strides[ik.ndim++] = in.strides[d];
    }
  }
  a.outputs = ok.size();
  a.count = ir.size();
  a.fin.count = static_cast<double>(a.count);
  // An empty reduced axis has no extremum even when there are no outputs either, as NumPy says.
  if (a.count == 0 && needs_identity_free(op)) {
    if (op == ReduceOp::ArgMin || op == ReduceOp::ArgMax)
      throw InvalidArgument("attempt to get " + name + " of an empty sequence");
    throw InvalidArgument("zero-size array to reduction operation " + name + " which has no identity");
  }
  if (a.outputs == 0) return;
  if (out.data == nullptr) throw InvalidArgument(name + ": output has no data");
  if (in.device == kHostDevice) {
    host::reduce(a, stream);
  } else {
    activate_device(in.device);
    cuda::reduce(a, stream);
  }
}

void scan(ScanOp op, const ArrayView& in, int axis, const ArrayView& out, bool exclusive, StreamHandle stream) {
  const char* name = op == ScanOp::Sum ? "cumsum" : "cumprod";
  if (op != ScanOp::Sum && op != ScanOp::Prod) throw InvalidArgument("scan: unknown operation");
  if (axis < 0 || axis >= in.ndim)
    throw InvalidArgument(std::string(name) + ": axis " + std::to_string(axis) + " is out of bounds for an array of " +
                          std::to_string(in.ndim) + " dimensions");
  bool same = in.ndim == out.ndim;
  for (int d = 0; same && d < in.ndim; ++d) same = in.shape[d] == out.shape[d];
  if (!same)
    throw InvalidArgument(std::string(name) + ": output " + out.describe() + " does not match input " + in.describe());
  if (in.device != out.device)
    throw InvalidArgument(std::string(name) + ": input and output are on different devices");
  if (out.readonly) throw InvalidArgument(std::string(name) + ": output array is read-only");
  if (out.size() == 0) return;
  detail::ScanArgs a;
  a.op = op;
  a.exclusive = exclusive;
  a.in_p = in;
  a.out_p = out;
  int k = 0;
  for (int d = 0; d < in.ndim; ++d) {
    if (d == axis) continue;
    a.in_p.shape[k] = in.shape[d];
    a.in_p.strides[k] = in.strides[d];
    a.out_p.shape[k] = out.shape[d];
    a.out_p.strides[k] = out.strides[d];
    ++k;
  }
  a.in_p.shape[k] = in.shape[axis];
  a.in_p.strides[k] = in.strides[axis];
  a.out_p.shape[k] = out.shape[axis];
  a.out_p.strides[k] = out.strides[axis];
  if (in.device == kHostDevice) {
    host::scan(a, stream);
  } else {
    activate_device(in.device);
    cuda::scan(a, stream);
  }
}

}  // namespace npgpu
