"""npgpu.random.Generator's distributions beyond uniform / normal / integers, its permutations, spawn and
the legacy module functions.

Statistics at fixed seeds with fixed thresholds:

- moments: the sample mean within 6 standard errors (sqrt(var / n)) of the analytic mean, the sample
  variance within 6 standard errors (var * sqrt((excess kurtosis + 2) / n), the large-sample standard
  error of a variance) of the analytic variance, both from scipy.stats;
- goodness of fit: scipy.stats.kstest against the distribution's cdf (continuous) or a chi-square test on
  the pmf with tail bins merged to expected counts >= 5 (discrete); p > 1e-4 at the fixed seed.

Backends: every distribution drawn on the host device and on the default device of `array_device` (the
GPU in its 'cuda' variant) from the same seed. Integer results are compared exactly; float results with
rtol 1e-12 (float64) / 1e-6 (float32), because the composed samplers call npgpu's log/exp/sqrt/cos
elementwise, whose GPU and host versions may differ in the last bit.
"""
import math
import pickle

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

import npgpu
from npgpu import random as R

st = pytest.importorskip("scipy.stats")

N = 100_000
SEED = 20240917

# name, args, scipy frozen distribution
CONTINUOUS = [
    ("standard_exponential", (), st.expon()),
    ("exponential", (2.0,), st.expon(scale=2.0)),
    ("standard_gamma", (0.3,), st.gamma(0.3)),
    ("standard_gamma", (1.0,), st.gamma(1.0)),
    ("standard_gamma", (3.5,), st.gamma(3.5)),
    ("gamma", (2.5, 1.5), st.gamma(2.5, scale=1.5)),
    ("gamma", (0.05, 2.0), st.gamma(0.05, scale=2.0)),
    ("beta", (0.5, 2.0), st.beta(0.5, 2.0)),
    ("beta", (2.0, 3.0), st.beta(2.0, 3.0)),
    ("chisquare", (3.0,), st.chi2(3.0)),
    ("standard_t", (7.0,), st.t(7.0)),
    ("f", (5.0, 12.0), st.f(5.0, 12.0)),
    ("lognormal", (0.2, 0.5), st.lognorm(0.5, scale=math.exp(0.2))),
    ("laplace", (1.0, 2.0), st.laplace(1.0, 2.0)),
    ("logistic", (0.5, 1.5), st.logistic(0.5, 1.5)),
    ("gumbel", (1.0, 2.0), st.gumbel_r(1.0, 2.0)),
    ("rayleigh", (2.0,), st.rayleigh(scale=2.0)),
    ("weibull", (1.5,), st.weibull_min(1.5)),
    ("pareto", (5.0,), st.lomax(5.0)),
    ("power", (2.0,), st.powerlaw(2.0)),
    ("triangular", (0.0, 1.0, 3.0), st.triang(1.0 / 3.0, loc=0.0, scale=3.0)),
    ("vonmises", (0.0, 2.0), st.vonmises(2.0)),
    ("vonmises", (0.0, 1e-6), st.vonmises(1e-6)),
    ("normal", (1.0, 3.0), st.norm(1.0, 3.0)),
    ("uniform", (-1.0, 2.0), st.uniform(-1.0, 3.0)),
    ("wald", (1.5, 2.0), st.invgauss(0.75, scale=2.0)),
    ("wald", (3.0, 0.5), st.invgauss(6.0, scale=0.5)),
    ("noncentral_chisquare", (3.0, 2.0), st.ncx2(3.0, 2.0)),
    ("noncentral_chisquare", (0.5, 1.5), st.ncx2(0.5, 1.5)),
    ("noncentral_chisquare", (1.0, 4.0), st.ncx2(1.0, 4.0)),
    ("noncentral_chisquare", (4.0, 0.0), st.chi2(4.0)),
    ("noncentral_f", (3.0, 20.0, 2.0), st.ncf(3.0, 20.0, 2.0)),
    ("noncentral_f", (0.7, 15.0, 1.0), st.ncf(0.7, 15.0, 1.0)),
]

# no finite variance (or kurtosis): goodness of fit only
CONTINUOUS_HEAVY = [
    ("standard_cauchy", (), st.cauchy()),
    ("noncentral_f", (4.0, 3.0, 1.5), st.ncf(4.0, 3.0, 1.5)),
]

DISCRETE = [
    ("poisson", (0.5,), st.poisson(0.5)),
    ("poisson", (3.0,), st.poisson(3.0)),
    ("poisson", (9.99,), st.poisson(9.99)),
    ("poisson", (10.0,), st.poisson(10.0)),
    ("poisson", (40.0,), st.poisson(40.0)),
    ("poisson", (1e4,), st.poisson(1e4)),
    ("binomial", (20, 0.2), st.binom(20, 0.2)),
    ("binomial", (30, 0.9), st.binom(30, 0.9)),
    ("binomial", (50, 0.5), st.binom(50, 0.5)),
    ("binomial", (1000, 0.7), st.binom(1000, 0.7)),
    ("binomial", (100000, 0.001), st.binom(100000, 0.001)),
    ("negative_binomial", (3, 0.4), st.nbinom(3, 0.4)),
    ("negative_binomial", (50.5, 0.2), st.nbinom(50.5, 0.2)),
    ("geometric", (0.3,), st.geom(0.3)),
    ("geometric", (0.001,), st.geom(0.001)),
    ("hypergeometric", (10, 20, 8), st.hypergeom(30, 10, 8)),
    ("hypergeometric", (500, 700, 600), st.hypergeom(1200, 500, 600)),
    ("logseries", (0.3,), st.logser(0.3)),
    ("logseries", (0.9,), st.logser(0.9)),
    ("logseries", (0.99,), st.logser(0.99)),
    ("zipf", (6.0,), st.zipf(6.0)),
]

DISCRETE_HEAVY = [
    ("zipf", (1.5,), st.zipf(1.5)),
    ("zipf", (2.5,), st.zipf(2.5)),
]


def _ids(cases):
    return [f"{name}{args}" for name, args, _ in cases]


def check_moments(x, dist):
    n = x.size
    mean, var, kurt = (float(v) for v in dist.stats(moments="mvk"))
    x = np.asarray(x, dtype=np.float64)
    assert abs(x.mean() - mean) <= 6 * math.sqrt(var / n), (x.mean(), mean)
    se_var = var * math.sqrt((kurt + 2.0) / n)
    assert abs(x.var() - var) <= 6 * se_var, (x.var(), var)


def chisquare_pvalue(x, pmf_support, pmf):
    """Chi-square p-value of integer samples x against pmf on pmf_support, merging tails (expected < 5)."""
    n = x.size
    expected = n * pmf
    lo, hi = 0, len(expected) - 1
    while expected[lo] < 5:
        lo += 1
    while expected[hi] < 5:
        hi -= 1
    k0, k1 = pmf_support[lo], pmf_support[hi]
    obs = np.bincount(np.clip(x - k0, -1, k1 - k0 + 1) + 1, minlength=k1 - k0 + 3).astype(np.float64)
    exp = np.concatenate([[expected[:lo].sum()], expected[lo:hi + 1], [expected[hi + 1:].sum()]])
    exp[-1] = n - exp[:-1].sum()  # the upper tail takes the probability beyond the table
    keep = exp > 0
    if obs[~keep].sum():
        return 0.0
    obs, exp = obs[keep], exp[keep]
    # merge small tail bins into their neighbours
    if exp[0] < 5:
        obs[1] += obs[0]
        exp[1] += exp[0]
        obs, exp = obs[1:], exp[1:]
    if exp[-1] < 5:
        obs[-2] += obs[-1]
        exp[-2] += exp[-1]
        obs, exp = obs[:-1], exp[:-1]
    return st.chisquare(obs, exp).pvalue


# ------------------------------------------------------------------------------------------ statistics

@pytest.mark.parametrize("name,args,dist", CONTINUOUS, ids=_ids(CONTINUOUS))
def test_continuous_moments_and_ks(name, args, dist):
    x = getattr(R.Generator(SEED), name)(*args, size=N)
    assert x.shape == (N,) and x.dtype == np.float64
    assert np.all(np.isfinite(x))
    check_moments(x, dist)
    assert st.kstest(x, dist.cdf).pvalue > 1e-4


@pytest.mark.parametrize("name,args,dist", DISCRETE, ids=_ids(DISCRETE))
def test_discrete_moments_and_chisquare(name, args, dist):
    x = getattr(R.Generator(SEED), name)(*args, size=N)
    assert x.shape == (N,) and x.dtype == np.int64
    check_moments(x, dist)
    lo, hi = int(dist.ppf(1e-12)), int(dist.ppf(1 - 1e-12)) + 1
    support = np.arange(max(lo - 1, 0), hi + 1)
    pmf = dist.pmf(support)
    assert x.min() >= dist.support()[0] and x.max() <= dist.support()[1]
    assert chisquare_pvalue(x, support, pmf) > 1e-4


@pytest.mark.parametrize("name,args,dist", CONTINUOUS_HEAVY, ids=_ids(CONTINUOUS_HEAVY))
def test_heavy_tailed_continuous_ks(name, args, dist):
    x = getattr(R.Generator(SEED), name)(*args, size=N)
    assert x.shape == (N,) and x.dtype == np.float64
    assert np.all(np.isfinite(x))
    assert st.kstest(x, dist.cdf).pvalue > 1e-4
    # the quartiles within 6 standard errors (sqrt(q (1 - q) / n) / pdf)
    for q in (0.25, 0.5, 0.75):
        se = math.sqrt(q * (1 - q) / N) / dist.pdf(dist.ppf(q))
        assert abs(np.quantile(x, q) - dist.ppf(q)) <= 6 * se


@pytest.mark.parametrize("name,args,dist", DISCRETE_HEAVY, ids=_ids(DISCRETE_HEAVY))
def test_heavy_tailed_discrete_chisquare(name, args, dist):
    x = getattr(R.Generator(SEED), name)(*args, size=N)
    assert x.shape == (N,) and x.dtype == np.int64
    assert x.min() >= 1
    support = np.arange(0, 5000)
    assert chisquare_pvalue(x, support, dist.pmf(support)) > 1e-4
    # the median is robust to the tail
    assert np.median(x) == dist.median()


def test_zipf_and_logseries_edges():
    g = R.Generator(SEED)
    # a close to 1: huge values, truncated below 2**63 (no int64 overflow)
    x = g.zipf(1.0001, size=20000)
    assert x.min() >= 1 and x.max() > 10**12
    # a >= 1025 (inf included) and p = 0 give 1, as NumPy
    assert_array_equal(g.zipf([1025.0, np.inf], size=(3, 2)), np.ones((3, 2), np.int64))
    assert_array_equal(g.logseries(0.0, size=5), np.ones(5, np.int64))
    assert_array_equal(g.logseries([0.0, 0.5], size=(100, 2))[:, 0], np.ones(100, np.int64))
    # p close to 1: a long tail, finite and positive
    y = g.logseries(1 - 1e-12, size=10000)
    assert y.min() >= 1 and y.max() > 10**6
    # NaN parameters give NaN where NumPy accepts them
    assert np.isnan(g.wald(np.nan, 1.0)) and np.isnan(g.wald(1.0, np.nan))
    assert np.isnan(g.noncentral_chisquare(np.nan, 1.0)) and np.isnan(g.noncentral_chisquare(1.0, np.nan))
    assert np.isnan(g.noncentral_chisquare(0.5, np.nan)) and np.isnan(g.noncentral_f(1.0, 1.0, np.nan))


def test_new_distributions_array_parameters():
    g = R.Generator(SEED)
    mean, scale = np.array([0.5, 1.0, 4.0]), np.array([2.0, 1.0, 8.0])
    x = g.wald(mean, scale, size=(40000, 3))
    for j in range(3):
        check_moments(x[:, j], st.invgauss(mean[j] / scale[j], scale=scale[j]))
    # one array mixes NumPy's three branches: nonc == 0, df > 1 and df <= 1
    df, nonc = np.array([0.5, 3.0, 2.0, 0.8]), np.array([1.0, 2.0, 0.0, 0.0])
    x = g.noncentral_chisquare(df, nonc, size=(40000, 4))
    for j in range(4):
        check_moments(x[:, j], st.ncx2(df[j], nonc[j]) if nonc[j] else st.chi2(df[j]))
    x = g.noncentral_f([2.0, 5.0], 20.0, [0.0, 3.0], size=(40000, 2))
    check_moments(x[:, 0], st.f(2.0, 20.0))
    check_moments(x[:, 1], st.ncf(5.0, 20.0, 3.0))
    p = np.array([0.0, 0.2, 0.95])
    k = g.logseries(p, size=(40000, 3))
    assert np.all(k[:, 0] == 1)
    check_moments(k[:, 1], st.logser(0.2))
    check_moments(k[:, 2], st.logser(0.95))
    a = np.array([7.0, 2000.0, 9.0])
    k = g.zipf(a, size=(40000, 3))
    assert np.all(k[:, 1] == 1)
    check_moments(k[:, 0], st.zipf(7.0))
    check_moments(k[:, 2], st.zipf(9.0))
    assert g.wald([[1.0], [2.0]], 1.0).shape == (2, 1)
    with pytest.raises(ValueError):
        g.zipf(np.full(3, 2.0), size=(2, 2))


def test_array_parameters_broadcast():
    g = R.Generator(SEED)
    lam = np.array([0.0, 1.0, 9.5, 10.0, 100.0])
    x = g.poisson(lam, size=(40000, 5))
    assert x.shape == (40000, 5)
    assert np.all(x[:, 0] == 0)
    for j in range(1, 5):
        check_moments(x[:, j], st.poisson(lam[j]))
    k = np.array([0.0, 0.4, 1.0, 6.0])
    x = g.standard_gamma(k, size=(40000, 4))
    assert np.all(x[:, 0] == 0)
    for j in range(1, 4):
        check_moments(x[:, j], st.gamma(k[j]))
    n = np.array([0, 10, 40, 2000])
    p = np.array([0.5, 0.95, 0.5, 0.3])
    x = g.binomial(n, p, size=(40000, 4))
    assert np.all(x[:, 0] == 0)
    for j in range(1, 4):
        check_moments(x[:, j], st.binom(n[j], p[j]))
    # size=None with array parameters: the parameters' shape
    assert g.exponential([[1.0], [2.0]]).shape == (2, 1)
    assert g.normal(np.zeros(3), 1.0).shape == (3,)
    with pytest.raises(ValueError):
        g.exponential(np.ones(3), size=(2, 2))


def test_multinomial():
    g = R.Generator(SEED)
    p = np.array([0.1, 0.25, 0.05, 0.6])
    x = g.multinomial(30, p, size=50000)
    assert x.shape == (50000, 4) and x.dtype == np.int64
    assert np.all(x.sum(axis=1) == 30) and np.all(x >= 0)
    for j in range(4):
        check_moments(x[:, j], st.binom(30, p[j]))
    cov = np.cov(x[:, 0], x[:, 1])[0, 1]
    assert abs(cov - (-30 * p[0] * p[1])) < 0.05
    big = g.multinomial([5, 10**6], [0.5, 0.5])
    assert big.shape == (2, 2) and list(big.sum(axis=1)) == [5, 10**6]
    assert g.multinomial(7, [1.0, 0.0]).tolist() == [7, 0]


def test_dirichlet():
    g = R.Generator(SEED)
    alpha = np.array([0.5, 1.0, 2.5])
    x = g.dirichlet(alpha, size=50000)
    assert x.shape == (50000, 3)
    assert_allclose(x.sum(axis=1), 1.0, rtol=1e-12)
    for j in range(3):
        check_moments(x[:, j], st.beta(alpha[j], alpha.sum() - alpha[j]))
    tiny = g.dirichlet([1e-3, 1e-3], size=1000)
    assert np.all(np.isfinite(tiny))
    assert_allclose(tiny.sum(axis=1), 1.0, rtol=1e-12)
    z = g.dirichlet([0.0, 1.0, 1.0], size=10)
    assert np.all(z[:, 0] == 0)


@pytest.mark.parametrize("method", ["svd", "eigh", "cholesky"])
def test_multivariate_normal(method):
    g = R.Generator(SEED)
    mean = np.array([1.0, -2.0, 0.5])
    cov = np.array([[2.0, 0.5, 0.3], [0.5, 1.0, -0.2], [0.3, -0.2, 0.7]])
    x = g.multivariate_normal(mean, cov, size=60000, method=method)
    assert x.shape == (60000, 3)
    n = x.shape[0]
    assert np.all(np.abs(x.mean(axis=0) - mean) <= 6 * np.sqrt(np.diag(cov) / n))
    # var of a sample covariance entry: (s_ii s_jj + s_ij^2) / n
    se = np.sqrt((np.outer(np.diag(cov), np.diag(cov)) + cov ** 2) / n)
    assert np.all(np.abs(np.cov(x.T) - cov) <= 6 * se)
    for j in range(3):
        assert st.kstest(x[:, j], st.norm(mean[j], math.sqrt(cov[j, j])).cdf).pvalue > 1e-4
    assert g.multivariate_normal(mean, cov).shape == (3,)
    assert g.multivariate_normal(mean, cov, size=(2, 4)).shape == (2, 4, 3)


def test_multivariate_normal_invalid_covariance():
    g = R.Generator(1)
    bad = [[1.0, 2.0], [2.0, 1.0]]
    with pytest.warns(RuntimeWarning):
        g.multivariate_normal([0, 0], bad)
    with pytest.raises(ValueError):
        g.multivariate_normal([0, 0], bad, check_valid="raise")
    with pytest.raises(ValueError):
        g.multivariate_normal([0, 0, 0], [[1.0, 0.0], [0.0, 1.0]])


MVHG_COLORS = np.array([20, 30, 50, 7])


def test_multivariate_hypergeometric_statistics():
    g = R.Generator(SEED)
    n = 40
    x = g.multivariate_hypergeometric(MVHG_COLORS, n, size=50000)
    total = MVHG_COLORS.sum()
    assert x.shape == (50000, 4) and x.dtype == np.int64
    assert np.all(x.sum(axis=1) == n) and np.all((x >= 0) & (x <= MVHG_COLORS))
    # every color's count (the last one is the remainder) is Hypergeometric(total, colors[j], n)
    for j, c in enumerate(MVHG_COLORS):
        dist = st.hypergeom(total, c, n)
        check_moments(x[:, j], dist)
        support = np.arange(0, c + 1)
        assert chisquare_pvalue(x[:, j], support, dist.pmf(support)) > 1e-4
    # cov(x_i, x_j) = -n p_i p_j (T - n) / (T - 1), within 6 standard errors
    pi = MVHG_COLORS / total
    for i, j in ((0, 1), (1, 2), (2, 3)):
        cov = -n * pi[i] * pi[j] * (total - n) / (total - 1)
        sd_i, sd_j = np.std(x[:, i]), np.std(x[:, j])
        assert abs(np.cov(x[:, i], x[:, j])[0, 1] - cov) <= 6 * sd_i * sd_j / math.sqrt(x.shape[0]), (i, j)
    # the first color is one hypergeometric draw: the same numbers as hypergeometric from the same stream
    first = R.Generator(7).multivariate_hypergeometric(MVHG_COLORS, n, size=1000)[:, 0]
    assert_array_equal(first, R.Generator(7).hypergeometric(20, total - 20, n, size=1000))
    # large populations: the table route copes with wide supports
    big = g.multivariate_hypergeometric([10**8, 3 * 10**8, 5], 10**5, size=2000)
    assert np.all(big.sum(axis=1) == 10**5)
    check_moments(big[:, 0], st.hypergeom(4 * 10**8 + 5, 10**8, 10**5))


def test_multivariate_hypergeometric_shapes_and_methods():
    g = R.Generator(1)
    f = g.multivariate_hypergeometric
    one = f([3, 4, 5], 6)
    assert one.shape == (3,) and one.dtype == np.int64 and one.sum() == 6
    assert f([3, 4, 5], 6, size=7).shape == (7, 3)
    assert f([3, 4, 5], 6, size=(2, 5)).shape == (2, 5, 3)
    assert f([3, 4, 5], 6, size=0).shape == (0, 3)
    assert f([], 0).shape == (0,) and f([], 0, size=3).shape == (3, 0)
    assert_array_equal(f([3, 4, 5], 0, size=2), np.zeros((2, 3), np.int64))
    assert_array_equal(f([3, 0, 5], 8, size=2), [[3, 0, 5], [3, 0, 5]])
    assert_array_equal(f([9], 4), [4])
    assert_array_equal(f(np.array([2, 2], np.uint8), np.int64(1), size=50).sum(axis=1), np.ones(50))
    # 'count' takes the marginals route: the same numbers
    assert_array_equal(R.Generator(3).multivariate_hypergeometric([5, 6, 7], 9, size=100, method="count"),
                       R.Generator(3).multivariate_hypergeometric([5, 6, 7], 9, size=100))
    # out= (its leading dimensions are the draws), device=
    o = np.empty((4, 3), np.int32)
    assert f([3, 4, 5], 6, out=o) is o and np.all(o.sum(axis=1) == 6)
    oa = npgpu.empty((2, 3), np.int64, device="cpu")
    assert f([3, 4, 5], 6, out=oa) is oa and np.all(oa.get().sum(axis=1) == 6)
    d = f([3, 4, 5], 6, size=5, device="cpu")
    assert isinstance(d, npgpu.Array) and d.shape == (5, 3)
    assert_array_equal(R.Generator(2).multivariate_hypergeometric([3, 4, 5], 6, size=5, device="cpu").get(),
                       R.Generator(2).multivariate_hypergeometric([3, 4, 5], 6, size=5))
    with pytest.raises(ValueError):
        f([3, 4, 5], 6, out=np.empty((4, 2), np.int64))
    with pytest.raises(ValueError):
        f([3, 4, 5], 6, size=3, out=np.empty((4, 3), np.int64))
    with pytest.raises(TypeError):
        f([3, 4, 5], 6, out=np.empty((4, 3)))


def test_new_distributions_out_and_float32():
    o = np.empty(50)
    assert R.Generator(5).wald(1.0, 2.0, out=o) is o
    assert_array_equal(o, R.Generator(5).wald(1.0, 2.0, size=50))
    o32 = np.empty(50, np.float32)
    R.Generator(5).noncentral_chisquare(0.5, 2.0, out=o32)
    assert_array_equal(o32, R.Generator(5).noncentral_chisquare(0.5, 2.0, size=50).astype(np.float32))
    oi = np.empty((5, 4), np.int32)
    R.Generator(5).zipf(2.0, out=oi)
    assert_array_equal(oi, R.Generator(5).zipf(2.0, size=(5, 4)))
    with pytest.raises(TypeError):
        R.Generator(5).logseries(0.5, out=np.empty(3))
    with pytest.raises(TypeError):
        R.Generator(5).standard_cauchy(out=np.empty(3, np.int64))


# ------------------------------------------------------------------------------------ choice, permutations

def test_choice_with_replacement():
    g = R.Generator(SEED)
    x = g.choice(7, size=70000)
    assert x.dtype == np.int64 and x.min() >= 0 and x.max() <= 6
    assert st.chisquare(np.bincount(x, minlength=7)).pvalue > 1e-4
    p = np.array([0.1, 0.0, 0.3, 0.6])
    x = g.choice(4, size=60000, p=p)
    counts = np.bincount(x, minlength=4)
    assert counts[1] == 0
    assert st.chisquare(counts[[0, 2, 3]], 60000 * p[[0, 2, 3]]).pvalue > 1e-4
    words = g.choice(["a", "b", "c"], size=5)
    assert words.shape == (5,) and set(words) <= {"a", "b", "c"}
    s = g.choice(5)
    assert np.isscalar(s) and 0 <= s < 5
    a = np.arange(12).reshape(3, 4)
    assert g.choice(a, size=2, axis=1).shape == (3, 2)
    assert g.choice(a).shape == (4,)


def test_choice_without_replacement():
    g = R.Generator(SEED)
    for _ in range(3):
        x = g.choice(50, size=20, replace=False)
        assert len(set(x.tolist())) == 20
    full = g.choice(30, size=30, replace=False)
    assert sorted(full.tolist()) == list(range(30))
    assert g.choice(10, size=(2, 3), replace=False).shape == (2, 3)
    srt = g.choice(100, size=10, replace=False, shuffle=False)
    assert np.all(np.diff(srt) > 0)
    # first draws are uniform: position 0 of many samples
    firsts = R.Generator(SEED).permuted(np.tile(np.arange(6), (30000, 1)), axis=1)[:, 0]
    assert st.chisquare(np.bincount(firsts, minlength=6)).pvalue > 1e-4
    # weighted without replacement: the first pick is proportional to p, the pair frequencies follow
    # successive sampling
    p = np.array([0.5, 0.3, 0.2])
    pairs = np.array([g.choice(3, size=2, replace=False, p=p) for _ in range(3000)])
    assert st.chisquare(np.bincount(pairs[:, 0], minlength=3), 3000 * p).pvalue > 1e-4
    exp = [p[i] * p[j] / (1 - p[i]) for i in range(3) for j in range(3) if i != j]
    obs = [np.sum((pairs[:, 0] == i) & (pairs[:, 1] == j)) for i in range(3) for j in range(3) if i != j]
    assert st.chisquare(obs, 3000 * np.array(exp)).pvalue > 1e-4
    zero = g.choice(4, size=3, replace=False, p=[0.2, 0.0, 0.3, 0.5])
    assert 1 not in zero.tolist()


def test_permutations():
    g = R.Generator(SEED)
    perm = g.permutation(10)
    assert sorted(perm.tolist()) == list(range(10)) and perm.dtype == np.int64
    a = np.arange(20).reshape(5, 4)
    pa = g.permutation(a)
    assert sorted(pa[:, 0].tolist()) == a[:, 0].tolist() and np.all(pa[:, 1] == pa[:, 0] + 1)
    pa1 = g.permutation(a, axis=1)
    assert np.all(np.sort(pa1, axis=1) == a)
    # all 24 orders of 4 equally likely
    rows = g.permuted(np.tile(np.arange(4), (24000, 1)), axis=1)
    codes = rows @ np.array([64, 16, 4, 1])
    assert len(np.unique(codes)) == 24
    assert st.chisquare(np.unique(codes, return_counts=True)[1]).pvalue > 1e-4
    # permuted: each row independently; axis=None over all elements; out= (also x itself)
    b = np.arange(12).reshape(3, 4)
    pb = g.permuted(b, axis=1)
    assert np.all(np.sort(pb, axis=1) == b)
    pn = g.permuted(b)
    assert sorted(pn.ravel().tolist()) == list(range(12))
    c = b.copy()
    assert g.permuted(c, axis=0, out=c) is c and np.all(np.sort(c, axis=0) == b)


def test_shuffle_in_place(array_device):
    g = R.Generator(SEED)
    x = np.arange(10)
    assert g.shuffle(x) is None and sorted(x.tolist()) == list(range(10)) and x.tolist() != list(range(10))
    m = np.arange(12).reshape(4, 3)
    g.shuffle(m)
    assert np.all(m[:, 1] == m[:, 0] + 1)
    lst = list(range(8))
    g.shuffle(lst)
    assert sorted(lst) == list(range(8))
    d = npgpu.asarray(np.arange(10.0), device=array_device)
    R.Generator(3).shuffle(d)
    h = np.arange(10.0)
    R.Generator(3).shuffle(h)
    assert_array_equal(d.get(), h)
    d2 = npgpu.asarray(np.arange(12.0).reshape(3, 4), device=array_device)
    R.Generator(4).shuffle(d2, axis=1)
    assert np.all(np.sort(d2.get(), axis=1) == np.arange(12.0).reshape(3, 4))


# ------------------------------------------------------------------- shapes, dtypes, scalars, out=, device=

ALL = [(n, a) for n, a, _ in CONTINUOUS + CONTINUOUS_HEAVY + DISCRETE + DISCRETE_HEAVY]
INTEGER_VALUED = [(n, a) for n, a, _ in DISCRETE + DISCRETE_HEAVY]


@pytest.mark.parametrize("name,args", ALL, ids=[f"{n}{a}" for n, a in ALL])
def test_shapes_and_scalars(name, args):
    g = R.Generator(1)
    f = getattr(g, name)
    s = f(*args)
    assert isinstance(s, np.generic) and np.ndim(s) == 0
    assert f(*args, size=(2, 3)).shape == (2, 3)
    assert f(*args, size=0).shape == (0,)
    d = f(*args, size=4, device="cpu")
    assert isinstance(d, npgpu.Array) and d.shape == (4,)
    assert isinstance(f(*args, device="cpu"), npgpu.Array) and f(*args, device="cpu").shape == ()
    kind = "i" if (name, args) in INTEGER_VALUED else "f"
    o = np.empty((3, 2), np.int64 if kind == "i" else np.float64)
    assert f(*args, out=o) is o
    oa = npgpu.empty((5,), o.dtype, device="cpu")
    assert f(*args, out=oa) is oa


def test_float32_dtypes():
    g = R.Generator(2)
    assert g.standard_exponential(size=3, dtype=np.float32).dtype == np.float32
    assert g.standard_gamma(2.0, size=3, dtype=np.float32).dtype == np.float32
    with pytest.raises(TypeError):
        g.standard_gamma(2.0, size=3, dtype=np.int32)
    x64 = R.Generator(9).standard_gamma(0.7, size=1000)
    x32 = R.Generator(9).standard_gamma(0.7, size=1000, dtype=np.float32)
    assert_array_equal(x32, x64.astype(np.float32))


def test_out_matches_fresh_result():
    o = np.empty(100)
    R.Generator(5).gamma(2.0, out=o)
    assert_array_equal(o, R.Generator(5).gamma(2.0, size=100))
    oi = np.empty((4, 5), np.int64)
    R.Generator(5).poisson(30.0, out=oi)
    assert_array_equal(oi, R.Generator(5).poisson(30.0, size=(4, 5)))
    with pytest.raises(ValueError):
        R.Generator(5).gamma(2.0, size=3, out=o)


# ------------------------------------------------------------------------ reproducibility and backends

def test_reproducible_and_seed_dependent():
    for name, args in ALL:
        a = getattr(R.Generator(11), name)(*args, size=200)
        b = getattr(R.Generator(11), name)(*args, size=200)
        c = getattr(R.Generator(12), name)(*args, size=200)
        assert_array_equal(a, b)
        if name != "vonmises" or args[1] > 1e-3:
            assert not np.array_equal(a, c), name
    g = R.Generator(11)
    before = g.counter
    g.gamma(3.0, size=10)
    assert g.counter > before
    # the second of two draws equals a fresh generator started at the counter the first one ended at
    g = R.Generator(11)
    first = g.poisson(50.0, size=10)
    mid = g.counter
    second = g.poisson(50.0, size=10)
    assert not np.array_equal(first, second)
    assert_array_equal(R.Generator(11, counter=mid).poisson(50.0, size=10), second)


def _same(x, y, integer):
    if integer:
        assert_array_equal(x, y)
    else:
        assert_allclose(x, y, rtol=1e-12 if x.dtype == np.float64 else 1e-6, atol=0)


@pytest.mark.parametrize("name,args", ALL, ids=[f"{n}{a}" for n, a in ALL])
def test_identical_streams_across_devices(name, args, array_device):
    host = getattr(R.Generator(SEED), name)(*args, size=3000, device="cpu")
    dev = getattr(R.Generator(SEED), name)(*args, size=3000, device=True)
    assert str(dev.device).startswith(array_device)
    as_numpy = getattr(R.Generator(SEED), name)(*args, size=3000)
    integer = host.dtype.kind == "i"
    _same(dev.get(), host.get(), integer)
    _same(as_numpy, host.get(), integer)


def test_identical_streams_composites(array_device):
    cases = [
        ("multinomial", (40, [0.2, 0.3, 0.5]), {"size": 500}),
        ("dirichlet", ([0.4, 2.0],), {"size": 500}),
        ("multivariate_normal", ([0.0, 1.0], [[1.0, 0.3], [0.3, 2.0]]), {"size": 500}),
        ("poisson", ([1.0, 30.0],), {"size": (500, 2)}),
        ("binomial", ([5, 500], [0.3, 0.6]), {"size": (500, 2)}),
        ("choice", (100,), {"size": 50, "replace": False}),
        ("choice", (5,), {"size": 200, "p": [0.1, 0.2, 0.3, 0.2, 0.2]}),
        ("permutation", (200,), {}),
        ("multivariate_hypergeometric", ([20, 30, 50, 7], 40), {"size": 500}),
        ("noncentral_chisquare", ([0.5, 3.0, 2.0], [1.0, 2.0, 0.0]), {"size": (500, 3)}),
        ("logseries", ([0.0, 0.5, 0.99],), {"size": (500, 3)}),
        ("zipf", ([1.5, 3.0, 2000.0],), {"size": (500, 3)}),
        ("wald", ([1.0, 3.0], 2.0), {"size": (500, 2)}),
    ]
    for name, args, kw in cases:
        host = getattr(R.Generator(SEED), name)(*args, device="cpu", **kw)
        dev = getattr(R.Generator(SEED), name)(*args, device=True, **kw)
        _same(dev.get(), host.get(), host.dtype.kind == "i")
    x = npgpu.asarray(np.arange(30.0).reshape(5, 6), device=array_device)
    y = npgpu.asarray(np.arange(30.0).reshape(5, 6), device="cpu")
    assert_array_equal(R.Generator(3).permuted(x, axis=1).get(), R.Generator(3).permuted(y, axis=1).get())


# ------------------------------------------------------------------------------------------------ errors

@pytest.mark.parametrize("call", [
    lambda g: g.exponential(-1.0),
    lambda g: g.exponential([1.0, -1.0]),
    lambda g: g.gamma(-1.0),
    lambda g: g.gamma(1.0, -2.0),
    lambda g: g.standard_gamma(-0.5),
    lambda g: g.beta(0.0, 1.0),
    lambda g: g.chisquare(0.0),
    lambda g: g.standard_t(-1.0),
    lambda g: g.f(1.0, 0.0),
    lambda g: g.lognormal(0.0, -1.0),
    lambda g: g.laplace(0.0, -1.0),
    lambda g: g.logistic(0.0, -1.0),
    lambda g: g.gumbel(0.0, -1.0),
    lambda g: g.rayleigh(-1.0),
    lambda g: g.weibull(-1.0),
    lambda g: g.pareto(0.0),
    lambda g: g.power(0.0),
    lambda g: g.triangular(1.0, 0.0, 2.0),
    lambda g: g.triangular(0.0, 3.0, 2.0),
    lambda g: g.triangular(1.0, 1.0, 1.0),
    lambda g: g.vonmises(0.0, -1.0),
    lambda g: g.poisson(-1.0),
    lambda g: g.poisson(float("nan")),
    lambda g: g.poisson(1e20),
    lambda g: g.binomial(-1, 0.5),
    lambda g: g.binomial(10, 1.5),
    lambda g: g.negative_binomial(0, 0.5),
    lambda g: g.negative_binomial(1, 0.0),
    lambda g: g.geometric(0.0),
    lambda g: g.geometric(1.5),
    lambda g: g.hypergeometric(5, 5, 11),
    lambda g: g.hypergeometric(-1, 5, 1),
    lambda g: g.multinomial(10, [0.7, 0.7, 0.1]),
    lambda g: g.multinomial(10, [-0.1, 1.1]),
    lambda g: g.multinomial(-1, [0.5, 0.5]),
    lambda g: g.dirichlet([-1.0, 1.0]),
    lambda g: g.wald(0.0, 1.0),
    lambda g: g.wald(1.0, 0.0),
    lambda g: g.wald([1.0, -1.0], 1.0),
    lambda g: g.noncentral_chisquare(0.0, 1.0),
    lambda g: g.noncentral_chisquare(1.0, -1.0),
    lambda g: g.noncentral_f(0.0, 1.0, 1.0),
    lambda g: g.noncentral_f(1.0, 0.0, 1.0),
    lambda g: g.noncentral_f(1.0, 1.0, -1.0),
    lambda g: g.logseries(1.0),
    lambda g: g.logseries(-0.1),
    lambda g: g.logseries(float("nan")),
    lambda g: g.logseries([0.5, 1.0]),
    lambda g: g.zipf(1.0),
    lambda g: g.zipf(float("nan")),
    lambda g: g.zipf([2.0, 0.5]),
    lambda g: g.multivariate_hypergeometric([3, 4], 8),
    lambda g: g.multivariate_hypergeometric([3, -4], 1),
    lambda g: g.multivariate_hypergeometric([3, 4], -1),
    lambda g: g.multivariate_hypergeometric([3, 4], 1, method="bogus"),
    lambda g: g.choice(3, p=[0.5, 0.6, 0.1]),
    lambda g: g.choice(3, p=[0.5, 0.5]),
    lambda g: g.choice(3, p=[-0.5, 1.0, 0.5]),
    lambda g: g.choice(3, size=5, replace=False),
    lambda g: g.choice(3, size=3, replace=False, p=[0.5, 0.5, 0.0]),
    lambda g: g.choice(0, size=2),
    lambda g: g.choice(-2),
    lambda g: g.permutation(-1),
    lambda g: g.spawn(-1),
    lambda g: g.bytes(-1),
])
def test_errors(call):
    g = R.Generator(1)
    before = g.counter
    with pytest.raises(ValueError):
        call(g)
    assert g.counter == before


# (method, args, kwargs): bad parameters, and edge values NumPy accepts
NUMPY_PARITY = [
    ("wald", (0.0, 1.0), {}), ("wald", (-1.0, 1.0), {}), ("wald", (1.0, 0.0), {}), ("wald", (None, 1.0), {}),
    ("wald", (np.nan, 1.0), {}), ("wald", ([1.0, 0.0], 1.0), {}),
    ("noncentral_chisquare", (0.0, 1.0), {}), ("noncentral_chisquare", (1.0, -1.0), {}),
    ("noncentral_chisquare", (1.0, 0.0), {}), ("noncentral_chisquare", (np.nan, 1.0), {}),
    ("noncentral_f", (0.0, 1.0, 1.0), {}), ("noncentral_f", (1.0, 0.0, 1.0), {}),
    ("noncentral_f", (1.0, 1.0, -1.0), {}), ("noncentral_f", (1.0, 1.0, 0.0), {}),
    ("logseries", (0.0,), {}), ("logseries", (1.0,), {}), ("logseries", (-0.1,), {}), ("logseries", (np.nan,), {}),
    ("logseries", ([0.0, 0.5],), {}),
    ("zipf", (1.0,), {}), ("zipf", (0.5,), {}), ("zipf", (np.nan,), {}), ("zipf", (np.inf,), {}),
    ("zipf", (1.0001,), {}),
    ("standard_cauchy", (), {"size": -1}), ("standard_cauchy", (), {"size": 2.5}),
    ("multivariate_hypergeometric", ([3, 4, 5], 6), {}),
    ("multivariate_hypergeometric", ([3, 4, 5], 13), {}),
    ("multivariate_hypergeometric", ([3, 4, 5], -1), {}),
    ("multivariate_hypergeometric", ([3, 4, 5], 2.0), {}),
    ("multivariate_hypergeometric", ([3, 4, 5], [1, 2]), {}),
    ("multivariate_hypergeometric", ([3, -4, 5], 6), {}),
    ("multivariate_hypergeometric", ([3.0, 4.0], 2), {}),
    ("multivariate_hypergeometric", ([[3, 4], [5, 6]], 2), {}),
    ("multivariate_hypergeometric", (3, 2), {}),
    ("multivariate_hypergeometric", ([True, False], 1), {}),
    ("multivariate_hypergeometric", (["a"], 1), {}),
    ("multivariate_hypergeometric", (None, 1), {}),
    ("multivariate_hypergeometric", ([3, 4, 5], 6), {"method": "foo"}),
    ("multivariate_hypergeometric", ([3, 4, 5], 6), {"method": "count"}),
    ("multivariate_hypergeometric", ([10**9, 4], 6), {}),
    ("multivariate_hypergeometric", ([2**62, 2**62], 6), {}),
    ("multivariate_hypergeometric", ([2**62, 2**62], 6), {"method": "count"}),
    ("multivariate_hypergeometric", ([2**61, 2**61], 6), {"method": "count"}),
    ("multivariate_hypergeometric", ([3, 4], 2**63), {}),
]


def _outcome(f, args, kwargs):
    try:
        f(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - the exception's type is what is compared
        return type(e)
    return None


@pytest.mark.parametrize("name,args,kwargs", NUMPY_PARITY, ids=[f"{n}{a}{k or ''}" for n, a, k in NUMPY_PARITY])
def test_exceptions_match_numpy(name, args, kwargs):
    expected = _outcome(getattr(np.random.default_rng(0), name), args, kwargs)
    g = R.Generator(1)
    assert _outcome(getattr(g, name), args, kwargs) is expected
    if expected is not None:
        assert g.counter == 0


def test_error_types():
    g = R.Generator(1)
    with pytest.raises(TypeError):
        g.exponential(size=2.5)
    with pytest.raises(ValueError):
        g.exponential(size=-1)
    with pytest.raises(ValueError):
        g.exponential(out=np.empty(3), device=True)
    with pytest.raises(np.exceptions.AxisError):
        g.permutation(np.arange(3), axis=1)
    with pytest.raises(NotImplementedError):
        g.hypergeometric([5, 6], 5, 3)


# ---------------------------------------------------------------------------------- bytes, spawn, legacy

def test_bytes():
    g = R.Generator(8)
    b = g.bytes(1000)
    assert isinstance(b, bytes) and len(b) == 1000
    assert R.Generator(8).bytes(1000) == b and g.bytes(1000) != b
    assert st.chisquare(np.bincount(np.frombuffer(g.bytes(50000), np.uint8), minlength=256)).pvalue > 1e-4


def test_spawn():
    g = R.Generator(123)
    kids = g.spawn(4)
    seeds = [k.seed for k in kids]
    assert len(set(seeds)) == 4 and g.seed not in seeds
    assert all(k.counter == 0 for k in kids)
    assert [k.seed for k in R.Generator(123).spawn(4)] == seeds
    more = g.spawn(2)
    assert not set(k.seed for k in more) & set(seeds)
    assert [k.seed for k in R.Generator(123).spawn(6)[4:]] == [k.seed for k in more]
    # spawning does not move the parent's counter; pickling keeps the spawn count
    assert g.counter == 0
    h = pickle.loads(pickle.dumps(g))
    assert [k.seed for k in h.spawn(1)] == [k.seed for k in g.spawn(1)]
    streams = [k.random(size=1000) for k in kids]
    assert abs(np.corrcoef(streams[0], streams[1])[0, 1]) < 0.15
    assert kids[0].spawn(1)[0].seed not in seeds


def test_legacy_module_functions():
    R.seed(42)
    a = (R.rand(3), R.randn(2, 2), R.random(4), R.random_sample((2,)), R.randint(5, 10, size=6),
         R.choice(7, size=3), R.permutation(5), R.exponential(size=2), R.poisson(4.0, size=3))
    R.seed(42)
    b = (R.rand(3), R.randn(2, 2), R.random(4), R.random_sample((2,)), R.randint(5, 10, size=6),
         R.choice(7, size=3), R.permutation(5), R.exponential(size=2), R.poisson(4.0, size=3))
    for x, y in zip(a, b):
        assert_array_equal(x, y)
    assert a[0].shape == (3,) and a[1].shape == (2, 2)
    assert np.all((a[4] >= 5) & (a[4] < 10))
    assert np.ndim(R.rand()) == 0 and np.ndim(R.randn()) == 0
    x = np.arange(6)
    R.shuffle(x)
    assert sorted(x.tolist()) == list(range(6))
    assert isinstance(R.get_global_generator(), R.Generator)
    R.seed(43)
    assert not np.array_equal(R.rand(3), a[0])


def test_legacy_new_distributions():
    calls = [("standard_cauchy", ()), ("wald", (1.0, 2.0)), ("noncentral_chisquare", (3.0, 2.0)),
             ("noncentral_f", (3.0, 20.0, 2.0)), ("logseries", (0.5,)), ("zipf", (2.0,))]
    for name, args in calls:
        assert name in R.__all__
        R.seed(42)
        a = getattr(R, name)(*args, size=20)
        R.seed(42)
        assert_array_equal(a, getattr(R, name)(*args, size=20))
        assert_array_equal(a, getattr(R.Generator(42), name)(*args, size=20))
    # NumPy has no module-level multivariate_hypergeometric
    assert not hasattr(np.random, "multivariate_hypergeometric")
    assert not hasattr(R, "multivariate_hypergeometric")


def test_random_state_is_numpys_legacy_interface_on_its_own_generator():
    R.seed(1)
    rs = R.RandomState(42)
    a = (rs.rand(3), rs.randn(2, 2), rs.random(4), rs.ranf(2), rs.sample(2), rs.random_sample((2,)),
         rs.randint(5, 10, size=6), rs.choice(7, size=3), rs.permutation(5), rs.normal(2.0, 0.5, size=3),
         rs.poisson(4.0, size=3), rs.bytes(5))
    b = R.RandomState(R.Generator(42))  # the same stream through a Generator
    want = (b.rand(3), b.randn(2, 2), b.random(4), b.ranf(2), b.sample(2), b.random_sample((2,)),
            b.randint(5, 10, size=6), b.choice(7, size=3), b.permutation(5), b.normal(2.0, 0.5, size=3),
            b.poisson(4.0, size=3), b.bytes(5))
    for x, y in zip(a, want):
        assert_array_equal(x, y)
    assert_array_equal(a[0], R.Generator(42).random(3))  # its own generator, not the module's
    R.seed(1)
    assert not np.array_equal(R.rand(3), a[0])
    assert np.all((a[6] >= 5) & (a[6] < 10)) and sorted(a[8].tolist()) == list(range(5))
    for name in R._LEGACY_DISTRIBUTIONS:
        assert callable(getattr(rs, name)) and name in getattr(rs, name).__doc__
    # state round trip, reseeding, pickling
    s = rs.get_state()
    x = rs.standard_normal(8)
    rs.set_state(s)
    assert_array_equal(x, rs.standard_normal(8))
    rs.seed(42)
    assert_array_equal(rs.rand(3), a[0])
    c = pickle.loads(pickle.dumps(rs))
    assert_array_equal(c.randn(4), rs.randn(4))
    with pytest.raises(ValueError, match="MT19937"):
        rs.set_state(np.random.RandomState(0).get_state())
    with pytest.raises(ValueError):
        rs.set_state({"bit_generator": "Philox4x32-10", "state": {"seed": 1}})
    with pytest.raises(TypeError):
        R.RandomState("seed")
    with pytest.warns(DeprecationWarning):
        k = rs.random_integers(3, 6, size=200)
    assert k.min() >= 3 and k.max() <= 6 and set(k.tolist()) == {3, 4, 5, 6}  # inclusive
    with pytest.warns(DeprecationWarning):
        assert set(rs.random_integers(2, size=100).tolist()) == {1, 2}
    # the module-level state functions act on the global generator
    R.seed(8)
    s = R.get_state()
    x = R.rand(5)
    R.set_state(s)
    assert_array_equal(x, R.rand(5))
    assert R.get_global_generator().seed == 8
