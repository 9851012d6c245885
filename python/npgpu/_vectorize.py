"""npgpu.vectorize: a Python function of scalars, translated from its syntax tree to a C++ expression and
compiled as an elementwise kernel (as Numba's ``@vectorize(..., target='cuda')``).

The function's body must be one ``return`` of an expression built from its parameters, numbers (literals or
global constants), arithmetic (``+ - * / // % **``, unary ``-``/``+``/``~``, ``& | ^ << >>`` on integers),
comparisons (chained too), ``not``/``and``/``or`` on booleans, conditional expressions (``a if c else b``),
and calls of ``math`` functions, NumPy ufuncs of the same names, ``abs``, ``min``, ``max``, ``round``,
``float``, ``int``, ``bool`` and NumPy scalar types (``numpy.float32(x)``). Anything else raises TypeError
naming the construct, when the function is decorated.

Types follow NumPy's rules: the inputs' dtypes promote as NumPy promotes them (Python numbers, literal or
passed, are "weak": ``x * 2.5`` stays float32 for a float32 ``x``); ``/`` of integers gives float64;
``//`` and ``%`` follow Python's (NumPy's) signs; math functions keep float32 as float32 and give float64
for integers; ``math.floor``/``ceil``/``trunc`` and ``round(x)`` return int64 as in Python, ``numpy.floor``
and friends keep the float type; arithmetic on two booleans gives int64 as in Python. Integer division or
remainder by zero gives 0 (as NumPy's result, without its warning); an integer to a negative integer power
gives 0 unless the base is 1 or -1.

On the host (NumPy inputs while npgpu.get_backend() is 'cpu', for instance without a GPU or under
``npgpu.use_backend('cpu')``; or npgpu arrays on the host device 'cpu') the same translated expression is
evaluated with npgpu array operations on the host backend (_HostEval), node for node with the types, casts
and rules of the emitted C++, so results match the GPU's (docs/vectorize.md lists where they can differ).
GPU kernels are compiled with --fmad=false, so + - * / round the same way on both.
"""
import ast
import builtins
import inspect
import math
import textwrap

import numpy as np

import npgpu
from npgpu import _rtc
from npgpu._array import Array
from npgpu._rtc_elementwise import C_TYPE, ElementwiseKernel, _check_scalar, _is_scalar, parse_type

_B = np.dtype(np.bool_)
_I64 = np.dtype(np.int64)
_F64 = np.dtype(np.float64)
_F32 = np.dtype(np.float32)

# math / numpy function -> (kind, name). kinds: 'f1' float function of one argument, 'f2' of two, 'pred'
# (float predicate -> bool), 'toint' (math.floor/ceil/trunc -> int64), special names handled in _call.
_FUNCS = {}


def _reg(obj, kind, name):
    if obj is not None:
        _FUNCS[id(obj)] = (obj, kind, name)


for _n in ("sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
           "exp", "expm1", "log2", "log10", "log1p", "sqrt", "erf", "erfc", "lgamma", "fabs", "cbrt", "exp2"):
    _reg(getattr(math, _n, None), "f1", _n)
_reg(math.gamma, "f1", "tgamma")
_reg(math.log, "log", "log")
_reg(math.degrees, "f1", "degrees")
_reg(math.radians, "f1", "radians")
for _n in ("atan2", "hypot", "copysign", "fmod", "pow"):
    _reg(getattr(math, _n), "f2", _n)
for _n in ("isnan", "isinf", "isfinite"):
    _reg(getattr(math, _n), "pred", _n)
for _n in ("floor", "ceil", "trunc"):
    _reg(getattr(math, _n), "toint", _n)
# NumPy ufuncs (the float results of floor/ceil/trunc/rint, NaN-propagating minimum/maximum).
for _np_name, _c in (("sin", "sin"), ("cos", "cos"), ("tan", "tan"), ("arcsin", "asin"), ("arccos", "acos"),
                     ("arctan", "atan"), ("sinh", "sinh"), ("cosh", "cosh"), ("tanh", "tanh"),
                     ("arcsinh", "asinh"), ("arccosh", "acosh"), ("arctanh", "atanh"), ("exp", "exp"),
                     ("expm1", "expm1"), ("exp2", "exp2"), ("log", "log"), ("log2", "log2"), ("log10", "log10"),
                     ("log1p", "log1p"), ("sqrt", "sqrt"), ("cbrt", "cbrt"), ("fabs", "fabs"),
                     ("floor", "floor"), ("ceil", "ceil"), ("trunc", "trunc"), ("rint", "rint"),
                     ("degrees", "degrees"), ("radians", "radians"), ("deg2rad", "radians"),
                     ("rad2deg", "degrees")):
    _reg(getattr(np, _np_name), "f1", _c)
for _np_name, _c in (("arctan2", "atan2"), ("hypot", "hypot"), ("copysign", "copysign"), ("fmod", "fmod")):
    _reg(getattr(np, _np_name), "f2", _c)
for _n in ("isnan", "isinf", "isfinite"):
    _reg(getattr(np, _n), "pred", _n)
_reg(np.absolute, "abs", "abs")
_reg(np.minimum, "minimum", "minimum")
_reg(np.maximum, "maximum", "maximum")
_reg(np.where, "where", "where")
_reg(np.power, "power", "power")
_reg(np.square, "square", "square")
_reg(builtins.abs, "abs", "abs")
_reg(builtins.min, "min", "min")
_reg(builtins.max, "max", "max")
_reg(builtins.round, "round", "round")
_reg(builtins.float, "cast", "float64")
_reg(builtins.int, "cast", "int64")
_reg(builtins.bool, "cast", "bool")
for _t in C_TYPE:
    _reg(_t.type, "cast", _t.name)

_CONSTANTS = {id(math): {"pi": math.pi, "e": math.e, "tau": math.tau, "inf": math.inf, "nan": math.nan},
              id(np): {"pi": np.pi, "e": np.e, "inf": np.inf, "nan": np.nan, "euler_gamma": np.euler_gamma}}

# Readable names of the constructs refused.
_STMT_NAMES = {
    "Assign": "an assignment", "AugAssign": "an augmented assignment (+=)", "AnnAssign": "an annotated assignment",
    "For": "a for loop", "AsyncFor": "an async for loop", "While": "a while loop",
    "If": "an if statement (use a conditional expression: a if c else b)", "With": "a with statement",
    "AsyncWith": "an async with statement", "Try": "a try statement", "TryStar": "a try statement",
    "Raise": "a raise statement", "Assert": "an assert statement", "Import": "an import statement",
    "ImportFrom": "an import statement", "Global": "a global statement", "Nonlocal": "a nonlocal statement",
    "Pass": "a pass statement", "Break": "a break statement", "Continue": "a continue statement",
    "Delete": "a del statement", "FunctionDef": "a nested function", "AsyncFunctionDef": "a nested function",
    "ClassDef": "a class definition", "Match": "a match statement", "Expr": "an expression statement",
}
_EXPR_NAMES = {
    "Lambda": "a lambda", "ListComp": "a list comprehension", "SetComp": "a set comprehension",
    "DictComp": "a dict comprehension", "GeneratorExp": "a generator expression", "List": "a list",
    "Tuple": "a tuple", "Dict": "a dict", "Set": "a set", "Subscript": "indexing (x[...])",
    "Starred": "a starred expression", "JoinedStr": "an f-string", "FormattedValue": "an f-string",
    "Await": "await", "Yield": "yield", "YieldFrom": "yield from", "NamedExpr": "an assignment expression (:=)",
    "Slice": "a slice",
}
_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
           ast.Pow: "**", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>"}
_CMPOPS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}

# Device helpers every vectorize kernel gets (Python's / NumPy's integer and float division semantics).
PREAMBLE = r"""
template <class T> __device__ __forceinline__ T npgpu_floordiv_i(T a, T b) {
  if (b == 0) return T(0);
  T q = T(a / b);
  if (T(a % b) != 0 && ((a < 0) != (b < 0))) q = T(q - 1);
  return q;
}
template <class T> __device__ __forceinline__ T npgpu_mod_i(T a, T b) {
  if (b == 0) return T(0);
  T r = T(a % b);
  if (r != 0 && ((r < 0) != (b < 0))) r = T(r + b);
  return r;
}
template <class T> __device__ __forceinline__ T npgpu_floordiv_f(T a, T b) {
  if (b == 0) return a / b;
  T mod = fmod(a, b);
  T div = (a - mod) / b;
  if (mod != 0 && ((b < 0) != (mod < 0))) div -= T(1);
  if (div != 0) {
    T fl = floor(div);
    if (div - fl > T(0.5)) fl += T(1);
    return fl;
  }
  return copysign(T(0), a / b);
}
template <class T> __device__ __forceinline__ T npgpu_mod_f(T a, T b) {
  T mod = fmod(a, b);
  if (b == 0) return mod;
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) mod += b;
  } else {
    mod = copysign(T(0), b);
  }
  return mod;
}
template <class T> __device__ __forceinline__ T npgpu_ipow(T a, T b) {
  if (b < 0) return a == T(1) ? T(1) : (T(0) - T(1) == a ? ((b & 1) ? a : T(1)) : T(0));
  T r = T(1);
  while (b) {
    if (b & 1) r = T(r * a);
    a = T(a * a);
    b >>= 1;
  }
  return r;
}
// static_cast of NaN or of an out-of-range float to an integer is undefined (the optimiser may fold it to
// anything): saturate at the type's limits, NaN -> 0, as cvt.rzi does and the host path's _f2i mirrors.
template <class To, class From> __device__ __forceinline__ To npgpu_f2i(From x, To lo, To hi) {
  if (x != x) return To(0);
  if (x <= From(lo)) return lo;
  if (x >= From(hi)) return hi;
  return static_cast<To>(x);
}
template <class T> __device__ __forceinline__ T npgpu_pymin(T a, T b) { return b < a ? b : a; }
template <class T> __device__ __forceinline__ T npgpu_pymax(T a, T b) { return b > a ? b : a; }
template <class T> __device__ __forceinline__ T npgpu_minimum(T a, T b) { return (a < b || a != a) ? a : b; }
template <class T> __device__ __forceinline__ T npgpu_maximum(T a, T b) { return (a > b || a != a) ? a : b; }
"""


class _T:
    """A typed C expression: code, dtype, and whether it is a weak Python number (a literal or a Python
    scalar argument), with its value when it is a literal."""
    __slots__ = ("code", "dtype", "weak", "value")

    def __init__(self, code, dtype, weak=False, value=None):
        self.code, self.dtype, self.weak, self.value = code, np.dtype(dtype), weak, value


def _py_dtype(v):
    if isinstance(v, (bool, np.bool_)):
        return _B
    if isinstance(v, int):
        return _I64
    return _F64


def _f2i_code(code, dtype):
    """C for static_cast<integer dtype>(floating code), saturating (npgpu_f2i)."""
    info = np.iinfo(dtype)
    return f"npgpu_f2i<{C_TYPE[np.dtype(dtype)]}>({code}, {_literal(info.min, dtype)}, {_literal(info.max, dtype)})"


def _literal(v, dtype):
    """v as a C literal of dtype."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return "true" if v else "false"
    if dtype.kind in "iu":
        v = int(v)
        suffix = {"int64": "LL", "uint64": "ULL", "uint32": "U"}.get(dtype.name, "")
        if dtype.itemsize < 4:
            return f"static_cast<{C_TYPE[dtype]}>({v})"
        if dtype.name == "int64" and v == -(1 << 63):
            return "(-9223372036854775807LL - 1LL)"
        return f"{v}{suffix}"
    v = float(v)
    if math.isnan(v):
        code = "__longlong_as_double(0x7ff8000000000000LL)"
    elif math.isinf(v):
        code = ("-" if v < 0 else "") + "__longlong_as_double(0x7ff0000000000000LL)"
    else:
        code = repr(v)
        if "e" not in code and "." not in code:
            code += ".0"
    return code if dtype == _F64 else f"static_cast<float>({code})"


class TranslationError(TypeError):
    pass


class Translator:
    """Parses a Python function once (refusing unsupported constructs) and emits typed C++ expressions for
    given argument dtypes."""

    def __init__(self, func):
        if not callable(func):
            raise TypeError(f"npgpu.vectorize takes a Python function, not {type(func).__name__}")
        self.func = func
        self.name = getattr(func, "__name__", "function")
        try:
            src = textwrap.dedent(inspect.getsource(func))
        except (OSError, TypeError):
            raise TypeError(f"npgpu.vectorize: cannot read the source of {self.name!r} (it translates the "
                            f"function's Python source to CUDA C++); define it with def in a file") from None
        fn = self._find_function(src)
        a = fn.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.defaults or a.kw_defaults or getattr(a, "posonlyargs", []):
            raise TypeError(f"npgpu.vectorize: {self.name}: only plain positional parameters are supported (no "
                            f"*args, **kwargs, keyword-only parameters or default values)")
        self.params = [x.arg for x in a.args]
        if isinstance(fn, ast.Lambda):
            self.expr = fn.body
        else:
            body = list(fn.body)
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and \
                    isinstance(body[0].value.value, str):
                body = body[1:]  # docstring
            for stmt in body:
                if not isinstance(stmt, ast.Return):
                    self._refuse(_STMT_NAMES.get(type(stmt).__name__, f"a {type(stmt).__name__} statement"), stmt)
            if len(body) != 1:
                raise TypeError(f"npgpu.vectorize: {self.name}: the body must be a single 'return <expression>'"
                                + ("" if body else " (it has none)"))
            if body[0].value is None:
                self._refuse("a return without a value", body[0])
            self.expr = body[0].value
        # Names the body may use besides its parameters: globals, closure variables, builtins.
        self.env = dict(builtins.__dict__)
        self.env.update(getattr(func, "__globals__", {}))
        try:
            cv = inspect.getclosurevars(func)
            self.env.update(cv.nonlocals)
        except (TypeError, ValueError):
            pass
        self._validate(self.expr)

    def _find_function(self, src):
        try:
            tree = ast.parse(src)
        except SyntaxError:
            tree = None
        if tree is not None:
            for node in ast.walk(tree):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == self.name:
                    if isinstance(node, ast.AsyncFunctionDef):
                        raise TypeError(f"npgpu.vectorize: {self.name}: async functions are not supported")
                    return node
            lambdas = [n for n in ast.walk(tree) if isinstance(n, ast.Lambda)]
            if self.name == "<lambda>" and len(lambdas) == 1:
                return lambdas[0]
        raise TypeError(f"npgpu.vectorize: cannot isolate the source of {self.name!r}; define it with def")

    def _refuse(self, what, node):
        line = getattr(node, "lineno", None)
        code = getattr(self.func, "__code__", None)
        where = ""
        if line and code is not None:
            where = f" (line {code.co_firstlineno + line - 1} of {code.co_filename})"
        raise TypeError(f"npgpu.vectorize: {self.name} uses {what}{where}, which cannot be translated: the body "
                        f"must be one return of an expression of arithmetic, comparisons, conditional expressions "
                        f"and math functions")

    # ---------------------------------------------------------------------------------- validation

    def _resolve(self, node):
        """The Python object a Name or module Attribute refers to, or raise."""
        if isinstance(node, ast.Name):
            if node.id in self.env:
                return self.env[node.id]
            raise TypeError(f"npgpu.vectorize: {self.name}: unknown name {node.id!r}")
        if isinstance(node, ast.Attribute):
            base = self._resolve(node.value) if isinstance(node.value, (ast.Name, ast.Attribute)) else None
            if base is math or base is np:
                if not hasattr(base, node.attr):
                    raise TypeError(f"npgpu.vectorize: {self.name}: {base.__name__} has no {node.attr!r}")
                return getattr(base, node.attr)
            self._refuse(f"attribute access '{ast.unparse(node)}'", node)
        self._refuse(f"'{ast.unparse(node)}'", node)

    def _validate(self, node):
        t = type(node).__name__
        if isinstance(node, ast.Constant):
            if isinstance(node.value, (bool, int, float)):
                return
            kind = type(node.value).__name__
            self._refuse({"str": "a string constant", "bytes": "a bytes constant", "NoneType": "None",
                          "complex": "a complex constant", "ellipsis": "Ellipsis"}.get(kind, f"a {kind} constant"),
                         node)
        if isinstance(node, ast.Name):
            if node.id in self.params:
                return
            obj = self._resolve(node)
            if not isinstance(obj, (bool, int, float, np.number, np.bool_)):
                self._refuse(f"the name {node.id!r} (a {type(obj).__name__}, not a number)", node)
            return
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id in self.params:
                self._refuse(f"attribute access '{ast.unparse(node)}'", node)
            base = self._resolve(node.value) if isinstance(node.value, (ast.Name, ast.Attribute)) else None
            if (base is math or base is np) and node.attr in _CONSTANTS[id(base)]:
                return
            self._refuse(f"attribute access '{ast.unparse(node)}'", node)
        if isinstance(node, ast.BinOp):
            if type(node.op) not in _BINOPS:
                self._refuse(f"the {type(node.op).__name__} operator (@)", node)
            self._validate(node.left)
            self._validate(node.right)
            return
        if isinstance(node, ast.UnaryOp):
            self._validate(node.operand)
            return
        if isinstance(node, ast.BoolOp):
            for v in node.values:
                self._validate(v)
            return
        if isinstance(node, ast.Compare):
            for op in node.ops:
                if type(op) not in _CMPOPS:
                    name = {ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in"}[type(op)]
                    self._refuse(f"the '{name}' operator", node)
            self._validate(node.left)
            for c in node.comparators:
                self._validate(c)
            return
        if isinstance(node, ast.IfExp):
            for v in (node.test, node.body, node.orelse):
                self._validate(v)
            return
        if isinstance(node, ast.Call):
            if node.keywords:
                self._refuse(f"keyword arguments in '{ast.unparse(node)}'", node)
            if not isinstance(node.func, (ast.Name, ast.Attribute)):
                self._refuse(f"a call of '{ast.unparse(node.func)}'", node)
            try:
                obj = self._resolve(node.func)
            except TypeError:
                self._refuse(f"a call of '{ast.unparse(node.func)}'", node)
            if id(obj) not in _FUNCS or _FUNCS[id(obj)][0] is not obj:
                self._refuse(f"a call of '{ast.unparse(node.func)}' (not a supported math function)", node)
            for arg in node.args:
                if isinstance(arg, ast.Starred):
                    self._refuse("a starred argument", arg)
                self._validate(arg)
            self._check_arity(node, _FUNCS[id(obj)], len(node.args))
            return
        self._refuse(_EXPR_NAMES.get(t, f"a {t} expression"), node)

    def _check_arity(self, node, entry, n):
        _, kind, name = entry
        want = {"f1": (1, 1), "f2": (2, 2), "pred": (1, 1), "toint": (1, 1), "log": (1, 2), "abs": (1, 1),
                "min": (2, 64), "max": (2, 64), "round": (1, 1), "cast": (1, 1), "minimum": (2, 2),
                "maximum": (2, 2), "where": (3, 3), "power": (2, 2), "square": (1, 1)}[kind]
        if not want[0] <= n <= want[1]:
            if kind == "round":
                self._refuse("round() with ndigits", node)
            expect = str(want[0]) if want[0] == want[1] else f"{want[0]} or more"
            raise TypeError(f"npgpu.vectorize: {self.name}: {ast.unparse(node.func)} takes {expect} argument(s), "
                            f"got {n}")

    # ---------------------------------------------------------------------------------- emission

    def emit(self, arg_types):
        """C++ expression and result dtype for arguments of `arg_types`: one per parameter, a dtype, or
        'weak_int' / 'weak_float' / 'weak_bool' for Python scalars. Parameter p is spelled a_p."""
        if len(arg_types) != len(self.params):
            raise TypeError(f"{self.name} takes {len(self.params)} arguments, got {len(arg_types)}")
        self.args = {}
        for p, t in zip(self.params, arg_types):
            if isinstance(t, str) and t.startswith("weak_"):
                d = {"weak_int": _I64, "weak_float": _F64, "weak_bool": _B}[t]
                self.args[p] = _T(f"a_{p}", d, weak=True)
            else:
                d = np.dtype(t)
                if d not in C_TYPE:
                    raise TypeError(f"npgpu.vectorize: {self.name}: unsupported dtype {d} for parameter {p!r} "
                                    f"(supported: bool, integers, float32, float64)")
                self.args[p] = _T(f"a_{p}", d)
        r = self._emit(self.expr)
        return r.code, r.dtype

    def _err(self, node, msg):
        raise TypeError(f"npgpu.vectorize: {self.name}: {msg} in '{ast.unparse(node)}'")

    @staticmethod
    def _promote(*ts):
        strong = [t.dtype for t in ts if not t.weak]
        weak = [t for t in ts if t.weak]
        if not strong:
            return np.result_type(*[t.dtype for t in ts])
        # NumPy 2 (NEP 50): Python numbers adapt to the arrays' dtype unless their kind is higher.
        return np.result_type(*strong, *[(t.value if t.value is not None else t.dtype.type(0).item())
                                         for t in weak])

    @staticmethod
    def _cast(t, dtype):
        dtype = np.dtype(dtype)
        if t.value is not None and t.dtype.kind != "c":
            return _literal(t.value, dtype)
        if t.dtype == dtype:
            return t.code
        if dtype.kind == "b":
            return f"({t.code} != 0)"
        if t.dtype.kind == "f" and dtype.kind in "iu":
            return _f2i_code(t.code, dtype)
        return f"static_cast<{C_TYPE[dtype]}>({t.code})"

    @staticmethod
    def _wrap(code, dtype):
        """Arithmetic on types narrower than int is done in int by C: cast back so it wraps as NumPy's."""
        if dtype.kind in "iu" and dtype.itemsize < 4:
            return f"static_cast<{C_TYPE[dtype]}>({code})"
        return code

    def _fname(self, name, dtype):
        return name + ("f" if dtype == _F32 else "")

    def _float_of(self, t):
        return t.dtype if t.dtype.kind == "f" else _F64

    def _emit(self, node):
        if isinstance(node, ast.Constant):
            v = node.value
            return _T(_literal(v, _py_dtype(v)), _py_dtype(v), weak=True, value=v)
        if isinstance(node, ast.Name):
            if node.id in self.args:
                return self.args[node.id]
            v = self.env[node.id]
            if isinstance(v, (np.number, np.bool_)):  # a NumPy scalar global: a strong constant
                return _T(_literal(v.item(), v.dtype), v.dtype, weak=False)
            return _T(_literal(v, _py_dtype(v)), _py_dtype(v), weak=True, value=v)
        if isinstance(node, ast.Attribute):
            base = self._resolve(node.value)
            v = _CONSTANTS[id(base)][node.attr]
            return _T(_literal(v, _F64), _F64, weak=True, value=v)
        if isinstance(node, ast.BinOp):
            return self._binop(node, _BINOPS[type(node.op)], self._emit(node.left), self._emit(node.right))
        if isinstance(node, ast.UnaryOp):
            a = self._emit(node.operand)
            if isinstance(node.op, ast.Not):
                return _T(f"(!{self._cast(a, _B)})" if a.dtype == _B else f"({a.code} == 0)", _B)
            if isinstance(node.op, ast.Invert):
                if a.dtype == _B:
                    return _T(f"(!{a.code})", _B)
                if a.dtype.kind not in "iu":
                    self._err(node, f"~ of a {a.dtype} value")
                return _T(self._wrap(f"(~{a.code})", a.dtype), a.dtype, a.weak)
            d = _I64 if a.dtype == _B else a.dtype
            op = "-" if isinstance(node.op, ast.USub) else "+"
            code = self._cast(a, d)
            if a.value is not None:
                return _T(_literal(-a.value if op == "-" else +a.value, d), d, True, -a.value if op == "-" else +a.value)
            return _T(self._wrap(f"({op}{code})", d), d, a.weak)
        if isinstance(node, ast.BoolOp):
            vals = [self._emit(v) for v in node.values]
            for v, vn in zip(vals, node.values):
                if v.dtype != _B:
                    self._err(vn, f"'{'and' if isinstance(node.op, ast.And) else 'or'}' of a {v.dtype} operand "
                                  f"(Python returns an operand, not a bool: compare it, or use a conditional "
                                  f"expression)")
            op = " && " if isinstance(node.op, ast.And) else " || "
            return _T("(" + op.join(v.code for v in vals) + ")", _B)
        if isinstance(node, ast.Compare):
            parts = []
            left = self._emit(node.left)
            for op, comp in zip(node.ops, node.comparators):
                right = self._emit(comp)
                d = self._promote(left, right)
                parts.append(f"({self._cast(left, d)} {_CMPOPS[type(op)]} {self._cast(right, d)})")
                left = right
            return _T(parts[0] if len(parts) == 1 else "(" + " && ".join(parts) + ")", _B)
        if isinstance(node, ast.IfExp):
            c = self._emit(node.test)
            a, b = self._emit(node.body), self._emit(node.orelse)
            d = self._promote(a, b)
            return _T(f"({self._cast(c, _B)} ? {self._cast(a, d)} : {self._cast(b, d)})", d, a.weak and b.weak)
        if isinstance(node, ast.Call):
            return self._call(node)
        self._refuse(_EXPR_NAMES.get(type(node).__name__, type(node).__name__), node)

    def _binop(self, node, op, a, b):
        if op in ("&", "|", "^", "<<", ">>"):
            d = self._promote(a, b)
            if d.kind not in "biu" or (d == _B and op in ("<<", ">>")):
                self._err(node, f"'{op}' on {d} values")
            if d == _B:
                return _T(f"({a.code} {op} {b.code})" if op != "^" else f"({a.code} != {b.code})", _B)
            return _T(self._wrap(f"({self._cast(a, d)} {op} {self._cast(b, d)})", d), d, a.weak and b.weak)
        d = self._promote(a, b)
        if d == _B:
            d = _I64  # Python: True + True == 2
        weak = a.weak and b.weak
        if op == "/":
            if d.kind in "iu":
                d = _F64
            return _T(f"({self._cast(a, d)} / {self._cast(b, d)})", d, weak)
        ca, cb = self._cast(a, d), self._cast(b, d)
        if op in ("+", "-", "*"):
            return _T(self._wrap(f"({ca} {op} {cb})", d), d, weak)
        if op == "//":
            f = "npgpu_floordiv_i" if d.kind in "iu" else "npgpu_floordiv_f"
            return _T(f"{f}<{C_TYPE[d]}>({ca}, {cb})", d, weak)
        if op == "%":
            f = "npgpu_mod_i" if d.kind in "iu" else "npgpu_mod_f"
            return _T(f"{f}<{C_TYPE[d]}>({ca}, {cb})", d, weak)
        if op == "**":
            if d.kind in "iu":
                return _T(f"npgpu_ipow<{C_TYPE[d]}>({ca}, {cb})", d, weak)
            if b.value is not None and b.value == 2:
                return _T(f"({ca} * {ca})", d, weak)
            return _T(f"{self._fname('pow', d)}({ca}, {cb})", d, weak)
        self._err(node, f"operator {op}")

    def _call(self, node):
        obj = self._resolve(node.func)
        _, kind, name = _FUNCS[id(obj)]
        args = [self._emit(a) for a in node.args]
        # math functions of Python numbers give Python floats (weak); NumPy's give NumPy scalars (strong).
        weak = all(a.weak for a in args) and not isinstance(obj, np.ufunc)
        if kind == "f1":
            (a,) = args
            d = self._float_of(a)
            x = self._cast(a, d)
            if name == "degrees":
                return _T(f"({x} * {_literal(180.0 / math.pi, d)})", d, weak)
            if name == "radians":
                return _T(f"({x} * {_literal(math.pi / 180.0, d)})", d, weak)
            return _T(f"{self._fname(name, d)}({x})", d, weak)
        if kind == "log":
            d = self._float_of(args[0]) if len(args) == 1 else self._promote(
                _T("", self._float_of(args[0])), _T("", self._float_of(args[1])))
            if len(args) == 1:
                return _T(f"{self._fname('log', d)}({self._cast(args[0], d)})", d, weak)
            return _T(f"({self._fname('log', d)}({self._cast(args[0], d)}) / "
                      f"{self._fname('log', d)}({self._cast(args[1], d)}))", d, weak)
        if kind == "f2":
            d = self._promote(*args)
            if d.kind != "f":
                d = _F64
            return _T(f"{self._fname(name, d)}({self._cast(args[0], d)}, {self._cast(args[1], d)})", d, weak)
        if kind == "pred":
            (a,) = args
            if a.dtype.kind != "f":
                return _T("true" if name == "isfinite" else "false", _B)
            return _T(f"{name}({a.code})", _B)
        if kind == "toint":
            (a,) = args
            if a.dtype.kind in "biu":
                return _T(self._cast(a, _I64), _I64)
            return _T(_f2i_code(f"{self._fname(name, a.dtype)}({a.code})", _I64), _I64)
        if kind == "round":
            (a,) = args
            if a.dtype.kind in "biu":
                return _T(self._cast(a, _I64), _I64)
            return _T(_f2i_code(f"{self._fname('rint', a.dtype)}({a.code})", _I64), _I64)
        if kind == "abs":
            (a,) = args
            if a.dtype == _B:
                return _T(self._cast(a, _I64) if obj is builtins.abs else a.code, _I64 if obj is builtins.abs else _B)
            if a.dtype.kind == "f":
                return _T(f"{self._fname('fabs', a.dtype)}({a.code})", a.dtype, a.weak)
            if a.dtype.kind == "u":
                return a
            return _T(self._wrap(f"({a.code} < 0 ? -{a.code} : {a.code})", a.dtype), a.dtype, a.weak)
        if kind in ("min", "max", "minimum", "maximum"):
            d = self._promote(*args)
            f = {"min": "npgpu_pymin", "max": "npgpu_pymax", "minimum": "npgpu_minimum",
                 "maximum": "npgpu_maximum"}[kind]
            code = self._cast(args[0], d)
            for b in args[1:]:
                code = f"{f}<{C_TYPE[d]}>({code}, {self._cast(b, d)})"
            return _T(code, d, all(a.weak for a in args))
        if kind == "where":
            c, a, b = args
            d = self._promote(a, b)
            return _T(f"({self._cast(c, _B)} ? {self._cast(a, d)} : {self._cast(b, d)})", d)
        if kind == "power":
            return self._binop(node, "**", args[0], args[1])
        if kind == "square":
            return self._binop(node, "*", args[0], args[0])
        if kind == "cast":
            d = np.dtype(name)
            (a,) = args
            return _T(self._cast(a, d), d)  # float -> int: truncation toward zero, as int(), saturating
        self._err(node, f"function {name}")



# ------------------------------------------------------------------------------------------ host path
#
# On the host device the translated expression is evaluated with npgpu array operations (which run on the
# host backend), node by node, with the same types and the same rules as the C++ that _emit writes for that
# node: operands are cast to the types the C++ casts them to, each operation computes in the C++ type, and
# the result is cast to the declared result type. The comments name the C++ each branch mirrors.

_HOST = "cpu"


def _hconst(v, dtype):
    """A 0-d host array holding the C literal _literal(v, dtype) writes (integers wrap as static_cast)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        h = np.array(bool(v), dtype)
    elif dtype.kind in "iu":
        bits = dtype.itemsize * 8
        w = int(v) & ((1 << bits) - 1)
        h = np.array(w, np.dtype(f"u{dtype.itemsize}")).view(dtype)
    else:
        h = np.array(float(v), np.float64).astype(dtype)
    return npgpu.asarray(h, device=_HOST)


def _f2i(x, dtype):
    """static_cast<integer>(floating) as the GPU's cvt.rzi does it: toward zero, saturating at the type's
    limits, NaN -> 0 (C++ leaves out-of-range conversions undefined; NumPy's astype gives other values)."""
    info = np.iinfo(dtype)
    lo = npgpu.less_equal(x, _hconst(info.min, x.dtype))
    hi = npgpu.greater_equal(x, _hconst(float(info.max) + 1.0, x.dtype))  # 2**k: exact in float32/64
    bad = npgpu.logical_or(npgpu.logical_or(lo, hi), npgpu.isnan(x))
    r = npgpu.where(bad, _hconst(0, x.dtype), x).astype(dtype)
    return npgpu.where(hi, _hconst(info.max, dtype), npgpu.where(lo, _hconst(info.min, dtype), r))


def _convert(arr, dtype):
    """static_cast<C_TYPE[dtype]>(arr)."""
    dtype = np.dtype(dtype)
    if arr.dtype == dtype:
        return arr
    if dtype.kind == "b":
        return npgpu.not_equal(arr, _hconst(0, arr.dtype))
    if arr.dtype.kind == "f" and dtype.kind in "iu":
        return _f2i(arr, dtype)
    return arr.astype(dtype)


class _V:
    """A value of the host evaluation: the host array `arr` of `dtype` (None for literals), with the
    translator's weak/value bookkeeping of the same node (see _T)."""
    __slots__ = ("arr", "dtype", "weak", "value")

    def __init__(self, arr, dtype, weak=False, value=None):
        self.arr, self.dtype, self.weak, self.value = arr, np.dtype(dtype), weak, value

    def a(self):
        """The array the node's own C code denotes (a literal in its own type)."""
        return self.arr if self.arr is not None else _hconst(self.value, self.dtype)


def _special(name):
    """erf, erfc, lgamma, tgamma have no npgpu ufunc: SciPy's (vectorized, on the host data)."""
    try:
        import scipy.special as sp
    except ImportError:
        raise RuntimeError(f"npgpu.vectorize: math.{ {'tgamma': 'gamma'}.get(name, name)} on the host device "
                           f"needs SciPy (pip install scipy); npgpu has no host ufunc for it") from None
    f = {"erf": sp.erf, "erfc": sp.erfc, "lgamma": sp.gammaln, "tgamma": sp.gamma}[name]

    def call(x):
        h = np.asarray(x)
        return npgpu.asarray(np.asarray(f(h), dtype=h.dtype), device=_HOST)
    return call


# C function name (as _emit spells it, before the 'f' suffix of float32) -> npgpu function.
_HOST_F1 = {"sin": "sin", "cos": "cos", "tan": "tan", "asin": "arcsin", "acos": "arccos", "atan": "arctan",
            "sinh": "sinh", "cosh": "cosh", "tanh": "tanh", "asinh": "arcsinh", "acosh": "arccosh",
            "atanh": "arctanh", "exp": "exp", "expm1": "expm1", "exp2": "exp2", "log": "log", "log2": "log2",
            "log10": "log10", "log1p": "log1p", "sqrt": "sqrt", "cbrt": "cbrt", "fabs": "fabs", "floor": "floor",
            "ceil": "ceil", "trunc": "trunc", "rint": "rint"}
_HOST_F2 = {"atan2": "arctan2", "hypot": "hypot", "copysign": "copysign", "fmod": "fmod", "pow": "power"}


def _f1(name):
    if name in ("erf", "erfc", "lgamma", "tgamma"):
        return _special(name)
    return getattr(npgpu, _HOST_F1[name])


class _HostEval:
    """Evaluates a Translator's expression on host arrays, node for node as Translator._emit translates it."""

    def __init__(self, tr):
        self.tr = tr

    def run(self, values):
        """values: parameter -> _V (host arrays of the declared dtypes; Python scalars weak)."""
        self.args = values
        return self._ev(self.tr.expr)

    _promote = staticmethod(Translator._promote)

    @staticmethod
    def _cast(t, dtype):
        """Translator._cast: literals are re-spelled in the target type, other values static_cast."""
        dtype = np.dtype(dtype)
        if t.value is not None and t.dtype.kind != "c":
            return _hconst(t.value, dtype)
        return _convert(t.a(), dtype)

    def _ev(self, node):
        tr = self.tr
        if isinstance(node, ast.Constant):
            v = node.value
            return _V(None, _py_dtype(v), True, v)
        if isinstance(node, ast.Name):
            if node.id in self.args:
                return self.args[node.id]
            v = tr.env[node.id]
            if isinstance(v, (np.number, np.bool_)):
                return _V(_hconst(v.item(), v.dtype), v.dtype)
            return _V(None, _py_dtype(v), True, v)
        if isinstance(node, ast.Attribute):
            v = _CONSTANTS[id(tr._resolve(node.value))][node.attr]
            return _V(None, _F64, True, v)
        if isinstance(node, ast.BinOp):
            return self._binop(node, _BINOPS[type(node.op)], self._ev(node.left), self._ev(node.right))
        if isinstance(node, ast.UnaryOp):
            a = self._ev(node.operand)
            if isinstance(node.op, ast.Not):
                if a.dtype == _B:
                    return _V(npgpu.logical_not(self._cast(a, _B)), _B)
                return _V(npgpu.equal(a.a(), _hconst(0, a.dtype)), _B)  # (code == 0)
            if isinstance(node.op, ast.Invert):
                if a.dtype == _B:
                    return _V(npgpu.logical_not(a.a()), _B)
                return _V(npgpu.invert(a.a()), a.dtype, a.weak)
            d = _I64 if a.dtype == _B else a.dtype
            neg = isinstance(node.op, ast.USub)
            if a.value is not None:
                v = -a.value if neg else +a.value
                return _V(None, d, True, v)
            x = self._cast(a, d)
            return _V(npgpu.negative(x) if neg else x, d, a.weak)
        if isinstance(node, ast.BoolOp):
            vals = [self._ev(v) for v in node.values]
            f = npgpu.logical_and if isinstance(node.op, ast.And) else npgpu.logical_or
            r = vals[0].a()
            for v in vals[1:]:
                r = f(r, v.a())
            return _V(r, _B)
        if isinstance(node, ast.Compare):
            ops = {ast.Lt: npgpu.less, ast.LtE: npgpu.less_equal, ast.Gt: npgpu.greater,
                   ast.GtE: npgpu.greater_equal, ast.Eq: npgpu.equal, ast.NotEq: npgpu.not_equal}
            r = None
            left = self._ev(node.left)
            for op, comp in zip(node.ops, node.comparators):
                right = self._ev(comp)
                d = self._promote(left, right)
                part = ops[type(op)](self._cast(left, d), self._cast(right, d))
                r = part if r is None else npgpu.logical_and(r, part)
                left = right
            return _V(r, _B)
        if isinstance(node, ast.IfExp):
            # (c ? a : b): both branches are evaluated (they have no side effects, and integer division by
            # zero is defined as 0), then selected elementwise.
            c = self._ev(node.test)
            a, b = self._ev(node.body), self._ev(node.orelse)
            d = self._promote(a, b)
            return _V(npgpu.where(self._cast(c, _B), self._cast(a, d), self._cast(b, d)), d, a.weak and b.weak)
        if isinstance(node, ast.Call):
            return self._call(node)
        tr._refuse(_EXPR_NAMES.get(type(node).__name__, type(node).__name__), node)

    def _binop(self, node, op, a, b):
        if op in ("&", "|", "^", "<<", ">>"):
            d = self._promote(a, b)
            if d.kind not in "biu" or (d == _B and op in ("<<", ">>")):
                self.tr._err(node, f"'{op}' on {d} values")
            if d == _B:
                f = {"&": npgpu.logical_and, "|": npgpu.logical_or, "^": npgpu.not_equal}[op]
                return _V(f(a.a(), b.a()), _B)
            f = {"&": npgpu.bitwise_and, "|": npgpu.bitwise_or, "^": npgpu.bitwise_xor, "<<": npgpu.left_shift,
                 ">>": npgpu.right_shift}[op]
            return _V(f(self._cast(a, d), self._cast(b, d)), d, a.weak and b.weak)
        d = self._promote(a, b)
        if d == _B:
            d = _I64  # Python: True + True == 2
        weak = a.weak and b.weak
        if op == "/":
            if d.kind in "iu":
                d = _F64
            return _V(npgpu.true_divide(self._cast(a, d), self._cast(b, d)), d, weak)
        ca, cb = self._cast(a, d), self._cast(b, d)
        if op in ("+", "-", "*"):
            f = {"+": npgpu.add, "-": npgpu.subtract, "*": npgpu.multiply}[op]
            return _V(f(ca, cb), d, weak)
        if op == "//":  # npgpu_floordiv_i / _f: Python's (NumPy's) floor division; x // 0 == 0 for integers
            return _V(npgpu.floor_divide(ca, cb), d, weak)
        if op == "%":  # npgpu_mod_i / _f: the divisor's sign; x % 0 == 0 for integers
            return _V(npgpu.remainder(ca, cb), d, weak)
        if op == "**":
            if d.kind in "iu":
                return _V(self._ipow(ca, cb, d), d, weak)
            if b.value is not None and b.value == 2:
                return _V(npgpu.multiply(ca, ca), d, weak)  # (x * x)
            return _V(npgpu.power(ca, cb), d, weak)  # pow / powf
        self.tr._err(node, f"operator {op}")

    @staticmethod
    def _ipow(a, b, d):
        """npgpu_ipow: wrapping power; a negative exponent gives 1 for a base of 1, +-1 for -1, else 0."""
        zero, one = _hconst(0, d), _hconst(1, d)
        if d.kind == "u":
            return npgpu.power(a, b)
        neg = npgpu.less(b, zero)
        r = npgpu.power(a, npgpu.where(neg, zero, b))
        odd = npgpu.not_equal(npgpu.bitwise_and(b, one), zero)
        minus_one = npgpu.equal(a, _hconst(-1, d))
        special = npgpu.where(npgpu.equal(a, one), one,
                              npgpu.where(minus_one, npgpu.where(odd, a, one), zero))
        return npgpu.where(neg, special, r)

    def _call(self, node):
        tr = self.tr
        obj = tr._resolve(node.func)
        _, kind, name = _FUNCS[id(obj)]
        args = [self._ev(a) for a in node.args]
        weak = all(a.weak for a in args) and not isinstance(obj, np.ufunc)
        if kind == "f1":
            (a,) = args
            d = tr._float_of(a)
            x = self._cast(a, d)
            if name in ("degrees", "radians"):  # (x * constant) in d
                k = 180.0 / math.pi if name == "degrees" else math.pi / 180.0
                return _V(npgpu.multiply(x, _hconst(k, d)), d, weak)
            return _V(_f1(name)(x), d, weak)
        if kind == "log":
            d = tr._float_of(args[0]) if len(args) == 1 else self._promote(
                _V(None, tr._float_of(args[0])), _V(None, tr._float_of(args[1])))
            r = npgpu.log(self._cast(args[0], d))
            if len(args) == 2:
                r = npgpu.true_divide(r, npgpu.log(self._cast(args[1], d)))
            return _V(r, d, weak)
        if kind == "f2":
            d = self._promote(*args)
            if d.kind != "f":
                d = _F64
            return _V(getattr(npgpu, _HOST_F2[name])(self._cast(args[0], d), self._cast(args[1], d)), d, weak)
        if kind == "pred":
            (a,) = args
            if a.dtype.kind != "f":
                return _V(_hconst(name == "isfinite", _B), _B)
            return _V(getattr(npgpu, name)(a.a()), _B)
        if kind in ("toint", "round"):
            (a,) = args
            if a.dtype.kind in "biu":
                return _V(self._cast(a, _I64), _I64)
            f = getattr(npgpu, "rint" if kind == "round" else name)
            return _V(_f2i(f(a.a()), _I64), _I64)
        if kind == "abs":
            (a,) = args
            if a.dtype == _B:
                if obj is builtins.abs:
                    return _V(self._cast(a, _I64), _I64)
                return _V(a.a(), _B)
            if a.dtype.kind == "f":
                return _V(npgpu.fabs(a.a()), a.dtype, a.weak)
            if a.dtype.kind == "u":
                return a
            x = a.a()
            return _V(npgpu.where(npgpu.less(x, _hconst(0, a.dtype)), npgpu.negative(x), x), a.dtype, a.weak)
        if kind in ("min", "max", "minimum", "maximum"):
            d = self._promote(*args)
            r = self._cast(args[0], d)
            for b in args[1:]:
                y = self._cast(b, d)
                if kind == "min":  # b < a ? b : a
                    r = npgpu.where(npgpu.less(y, r), y, r)
                elif kind == "max":  # b > a ? b : a
                    r = npgpu.where(npgpu.greater(y, r), y, r)
                else:  # (a < b || a != a) ? a : b, and >
                    cmp = npgpu.less if kind == "minimum" else npgpu.greater
                    r = npgpu.where(npgpu.logical_or(cmp(r, y), npgpu.not_equal(r, r)), r, y)
            return _V(r, d, all(a.weak for a in args))
        if kind == "where":
            c, a, b = args
            d = self._promote(a, b)
            return _V(npgpu.where(self._cast(c, _B), self._cast(a, d), self._cast(b, d)), d)
        if kind == "power":
            return self._binop(node, "**", args[0], args[1])
        if kind == "square":
            return self._binop(node, "*", args[0], args[0])
        if kind == "cast":
            d = np.dtype(name)
            (a,) = args
            if a.dtype.kind == "f" and d.kind in "iu":
                return _V(_f2i(a.a(), d), d)  # truncation toward zero, as int()
            return _V(self._cast(a, d), d)
        tr._err(node, f"function {name}")


def translate(func, arg_types):
    """(C++ expression, result dtype) of `func` for arguments of `arg_types` (dtypes, or 'weak_int',
    'weak_float', 'weak_bool' for Python scalars); parameter p is spelled a_p. Raises TypeError for
    constructs outside the supported subset."""
    return Translator(func).emit(arg_types)


def _parse_signature(sig):
    """'float32(float32, float32)' -> (out dtype, [in dtypes]); numba's and C's type names."""
    if not isinstance(sig, str):
        raise TypeError(f"signatures are strings such as 'float32(float32, float32)', got {sig!r}")
    s = sig.replace(" ", "")
    if "(" not in s or not s.endswith(")"):
        raise ValueError(f"bad signature {sig!r}: expected 'ret(arg, ...)'")
    ret, args = s[:-1].split("(", 1)

    def one(name):
        name = {"boolean": "bool", "b1": "bool", "float": "float32", "double": "float64"}.get(name, name)
        t = parse_type(name)
        if isinstance(t, str):
            try:
                t = np.dtype(name)
            except TypeError:
                raise ValueError(f"bad signature {sig!r}: unknown type {name!r}") from None
        if t not in C_TYPE:
            raise TypeError(f"signature {sig!r}: unsupported type {t}")
        return t

    return one(ret), [one(a) for a in args.split(",")] if args else []


class Vectorized(_rtc.PlannedCall):
    """A function made elementwise by npgpu.vectorize: call it with arrays (npgpu arrays give npgpu arrays on
    their device; NumPy arrays run on the backend of NumPy-input calls, the GPU or the host, and results come
    back as NumPy arrays) or scalars, broadcast together as in NumPy. ``out=`` takes an output array;
    ``stream=`` a stream (unused on the host). On the host the translated expression is evaluated with npgpu
    operations under the same type rules as the GPU kernel."""

    def __init__(self, func, signatures=None):
        self.translator = Translator(func)
        self.__name__ = self.translator.name
        self.__doc__ = getattr(func, "__doc__", None)
        self.py_func = func
        self.signatures = None
        if signatures is not None:
            sigs = [signatures] if isinstance(signatures, str) else list(signatures)
            self.signatures = [_parse_signature(s) for s in sigs]
            for out_t, in_ts in self.signatures:
                if len(in_ts) != len(self.translator.params):
                    raise TypeError(f"npgpu.vectorize: signature with {len(in_ts)} arguments for "
                                    f"{self.__name__}, which takes {len(self.translator.params)}")
                self.translator.emit(in_ts)  # type errors show at decoration time
        self._kernels = {}
        # A call of exactly the types and layouts of a recent call of the last kernel launches from that
        # kernel's plans (PlannedCall.__call__): safe casts compose, so the same kernel serves it.
        self._planned_by = None

    def __repr__(self):
        return f"<npgpu.vectorize {self.__name__}({', '.join(self.translator.params)})>"

    def _arg_type(self, x):
        if isinstance(x, bool):
            return "weak_bool"
        if isinstance(x, int):
            return "weak_int"
        if isinstance(x, float):
            return "weak_float"
        return np.dtype(x.dtype)

    def _pick_signature(self, types):
        for out_t, in_ts in self.signatures:
            ok = True
            for t, want in zip(types, in_ts):
                if isinstance(t, str):
                    ok = ok and not (t == "weak_float" and want.kind in "biu") and \
                        not (t == "weak_int" and want.kind == "b")
                else:
                    ok = ok and np.can_cast(t, want, casting="safe")
            if ok:
                return out_t, in_ts
        got = ", ".join(t if isinstance(t, str) else str(t) for t in types)
        raise TypeError(f"{self.__name__}: no signature matches arguments ({got}); signatures: "
                        + ", ".join(f"{o}({', '.join(str(x) for x in i)})" for o, i in self.signatures))

    def _types(self, types):
        """(declared input dtypes, declared result dtype, emitted expression, its dtype) for argument types."""
        if self.signatures is not None:
            out_t, in_ts = self._pick_signature(types)
            expr, res = self.translator.emit(in_ts)
            decl = list(in_ts)
            emitted = list(in_ts)
        else:
            emitted = list(types)
            expr, res = self.translator.emit(emitted)
            out_t = res
            decl = [{"weak_int": _I64, "weak_float": _F64, "weak_bool": _B}[t] if isinstance(t, str) else t
                    for t in types]
        return decl, out_t, expr, res, emitted

    def _kernel(self, types):
        k = self._kernels.get(types)
        if k is None:
            decl, out_t, expr, res, _ = self._types(types)
            code = expr if res == out_t else Translator._cast(_T(expr, res), out_t)
            params = ", ".join(f"{d.name} a_{p}" for d, p in zip(decl, self.translator.params))
            # --fmad=false: no fused multiply-adds, so each + - * / rounds as NumPy's (and the host path's) do.
            ek = ElementwiseKernel(params, f"{out_t.name} r_", f"r_ = {code}", name=f"vec_{_c_ident(self.__name__)}",
                                   preamble=PREAMBLE, options=("--fmad=false",))
            k = self._kernels[types] = (ek, decl)
        return k

    def _call(self, args, stream=None, out=None, **kwargs):
        """A call that no plan of the last kernel serves (``PlannedCall.__call__`` tried them)."""
        if kwargs:
            raise TypeError(f"{self.__name__}() got an unexpected keyword argument {next(iter(kwargs))!r}")
        if len(args) != len(self.translator.params):
            raise TypeError(f"{self.__name__} takes {len(self.translator.params)} arguments, got {len(args)}")
        conv, types = [], []
        for a in args:
            if isinstance(a, (list, tuple)):
                a = np.asarray(a)
            conv.append(a)
            types.append(self._arg_type(a))
        types = tuple(types)
        if self._runs_on_host(conv, out):
            return self._host_call(conv, types, out)
        ek, decl = self._kernel(types)
        call = []
        for a, d in zip(conv, decl):
            if isinstance(a, (bool, int, float)) and not isinstance(a, np.generic):
                call.append(a)
            elif type(a) is d.type:
                call.append(a)
            elif isinstance(a, np.generic) or (isinstance(a, np.ndarray) and a.ndim == 0):
                call.append(np.asarray(a).astype(d)[()])
            elif a.dtype != d:
                call.append(a.astype(d))
            else:
                call.append(a)
        if out is not None:
            call.append(out)
        self._planned_by = ek
        return ek(*call, stream=stream)

    # ------------------------------------------------------------------------------------------ host path

    def _runs_on_host(self, args, out):
        """Whether this call runs on the host: every npgpu Array argument (and out=) is on the host device,
        or, with no Array, NumPy-input calls of this thread run on the host backend (npgpu.get_backend())."""
        arrays = [a for a in (*args, out) if isinstance(a, Array)]
        if arrays:
            host = [a.device_id < 0 for a in arrays]
            if all(host):
                return True
            if any(host):
                raise ValueError(f"{self.__name__}: arguments are on different devices "
                                 f"({', '.join(sorted({str(a.device) for a in arrays}))}); move them with "
                                 f"x.to_device(...)")
            return False
        return npgpu.get_backend() == _HOST

    def _host_call(self, args, types, out):
        """The call evaluated on the host with npgpu operations (see _HostEval); arguments and out= are
        checked as ElementwiseKernel checks them."""
        decl, out_t, _, _, emitted = self._types(types)
        name = self.__name__
        params = self.translator.params
        on_device = any(isinstance(a, Array) for a in (*args, out))
        for p, a in zip(params, args):
            if on_device and isinstance(a, np.ndarray) and a.ndim > 0:
                raise TypeError(f"{name}: argument '{p}' is a NumPy array while others are npgpu arrays; move it "
                                f"first with npgpu.asarray(x, device='cpu')")
            if not (isinstance(a, (Array, np.ndarray)) or _is_scalar(a)):
                raise TypeError(f"{name}: argument '{p}' has unsupported type {type(a).__name__}")
        if out is not None:
            if not isinstance(out, (Array, np.ndarray)):
                raise TypeError(f"{name}: output 'r_' must be an array, not {type(out).__name__}")
            if isinstance(out, np.ndarray) and out.ndim == 0 and on_device:
                raise TypeError(f"{name}: output 'r_' must be an npgpu array")
        values, shapes = {}, []
        for p, a, d, t in zip(params, args, decl, emitted):
            if isinstance(a, (bool, int, float)) and not isinstance(a, np.generic):
                h = _check_scalar(a, d, f"vec_{_c_ident(name)}: argument 'a_{p}'")
            elif isinstance(a, np.generic) or (isinstance(a, np.ndarray) and a.ndim == 0):
                h = np.asarray(a).astype(d)
            elif isinstance(a, Array):
                shapes.append(a.shape)
                values[p] = _V(a if a.dtype == d else a.astype(d), d, isinstance(t, str))
                continue
            else:
                shapes.append(a.shape)
                h = a.astype(d)
            values[p] = _V(npgpu.asarray(np.asarray(h), device=_HOST), d, isinstance(t, str))
        try:
            shape = np.broadcast_shapes(*shapes)
        except ValueError:
            raise ValueError(f"{name}: input shapes {shapes} do not broadcast together") from None
        if out is not None:
            if not shapes:
                shape = tuple(out.shape)
            if tuple(out.shape) != tuple(shape):
                raise ValueError(f"{name}: output 'r_' has shape {tuple(out.shape)}, the broadcast shape is "
                                 f"{tuple(shape)}")
            if out.dtype != out_t:
                raise TypeError(f"{name}: output 'r_' is {out.dtype}, the result is {out_t}")
            if out.readonly if isinstance(out, Array) else not out.flags.writeable:
                raise ValueError(f"{name}: output 'r_' is read-only")
        r = _HostEval(self.translator).run(values)
        r = _convert(_HostEval._cast(r, r.dtype), out_t)  # the declared result type, as static_cast
        if isinstance(out, Array):
            out[...] = r
            return out
        if on_device:
            res = npgpu.empty(shape, out_t, device=_HOST)
            res[...] = r
            return res
        h = np.asarray(r)
        if out is not None:
            out[...] = h
            return out
        res = np.empty(shape, out_t)
        res[...] = h
        return res[()] if res.ndim == 0 else res


def _c_ident(name):
    s = "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in name)
    return s if s and not s[0].isdigit() else "f_" + s


def vectorize(signatures_or_function=None, *, target="cuda", signatures=None):
    """Make a scalar Python function elementwise on the GPU (Numba's ``@vectorize``, target 'cuda'), and on
    the host backend / host device, where the same translated expression is evaluated with npgpu operations.

    Use as ``@npgpu.vectorize`` (compiled for the dtypes of each call, with NumPy's promotion rules) or
    ``@npgpu.vectorize(['float32(float32, float32)'], target='cuda')`` (inputs cast to the first signature
    they fit safely, the output of the signature's type). The function body must be one ``return`` of an
    expression (see the module documentation for the subset); other constructs raise TypeError at
    decoration. Compiled kernels are cached in memory and on disk.
    """
    if target not in ("cuda", "gpu"):
        raise ValueError(f"npgpu.vectorize compiles for the GPU (target='cuda'), not {target!r}")
    if callable(signatures_or_function) and not isinstance(signatures_or_function, (str, list, tuple)):
        return Vectorized(signatures_or_function, signatures)
    sigs = signatures_or_function if signatures_or_function is not None else signatures

    def decorate(func):
        return Vectorized(func, sigs)

    return decorate
