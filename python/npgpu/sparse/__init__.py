"""npgpu.sparse: scipy.sparse's CSR, CSC and COO matrices (and the *_array spellings) holding npgpu Arrays on a
GPU or on the host device.

Build them from a SciPy matrix (each of data / indices / indptr uploaded with one copy, a canonical matrix never
re-sorted), from (data, indices, indptr) or (data, (row, col)) NumPy or npgpu arrays, or from a dense array;
``get()`` / ``to_scipy()`` bring them back to SciPy. Products with dense vectors and matrices run the compiled
CSR kernels of ``npgpu._sparse`` (cuSPARSE on a GPU, OpenMP on the host) where the build has them, and npgpu's
gathers and scatter-adds otherwise; everything else (conversions, sums of duplicates, validation) is composed of
npgpu array operations and stays on the matrix's device. SciPy is optional: without it only the SciPy
conversions raise ImportError. See docs/sparse.md.
"""
from . import linalg  # noqa: F401
from ._base import SparseEfficiencyWarning, _spbase
from ._compressed import csc_array, csc_matrix, csr_array, csr_matrix
from ._construct import (
    block_diag,
    bmat,
    diags,
    diags_array,
    eye,
    eye_array,
    hstack,
    identity,
    kron,
    random,
    random_array,
    tril,
    triu,
    vstack,
)
from ._coo import coo_array, coo_matrix

__all__ = ["csr_matrix", "csc_matrix", "coo_matrix", "csr_array", "csc_array", "coo_array", "issparse",
           "isspmatrix", "isspmatrix_csr", "isspmatrix_csc", "isspmatrix_coo", "eye", "eye_array", "identity",
           "diags", "diags_array", "random", "random_array", "linalg", "spmatrix", "sparray", "bmat", "hstack",
           "vstack", "block_diag", "kron", "tril", "triu", "SparseEfficiencyWarning"]

spmatrix = _spbase
sparray = _spbase


def issparse(x):
    """Whether x is an npgpu.sparse matrix or array.

    Parameters
    ----------
    x : object
        Any object.

    Returns
    -------
    bool
        True for a CSR, CSC or COO matrix or array of npgpu.sparse; False for anything else, SciPy's sparse
        matrices included.

    Examples
    --------
    >>> A = npgpu.sparse.eye(3)
    >>> npgpu.sparse.issparse(A), npgpu.sparse.issparse(A.toarray())
    (True, False)
    """
    return isinstance(x, _spbase)


def isspmatrix(x):
    """Whether x is an npgpu.sparse *matrix* (not one of the *_array classes), as SciPy's isspmatrix.

    Parameters
    ----------
    x : object
        Any object.

    Returns
    -------
    bool
        True for a csr_matrix, csc_matrix or coo_matrix; False for anything else, the *_array classes included.

    Examples
    --------
    >>> npgpu.sparse.isspmatrix(npgpu.sparse.eye(2)), npgpu.sparse.isspmatrix(npgpu.sparse.eye_array(2))
    (True, False)
    """
    return isinstance(x, _spbase) and not x._is_array


def isspmatrix_csr(x):
    """Whether x is an npgpu.sparse.csr_matrix, as SciPy's isspmatrix_csr.

    Parameters
    ----------
    x : object
        Any object.

    Returns
    -------
    bool
        True for a csr_matrix; False for anything else, a csr_array included.

    Examples
    --------
    >>> A = npgpu.sparse.eye(2, format="csr")
    >>> npgpu.sparse.isspmatrix_csr(A), npgpu.sparse.isspmatrix_csr(A.tocsc())
    (True, False)
    """
    return isinstance(x, csr_matrix)


def isspmatrix_csc(x):
    """Whether x is an npgpu.sparse.csc_matrix, as SciPy's isspmatrix_csc.

    Parameters
    ----------
    x : object
        Any object.

    Returns
    -------
    bool
        True for a csc_matrix; False for anything else, a csc_array included.

    Examples
    --------
    >>> A = npgpu.sparse.eye(2, format="csc")
    >>> npgpu.sparse.isspmatrix_csc(A), npgpu.sparse.isspmatrix_csc(npgpu.sparse.csc_array(A))
    (True, False)
    """
    return isinstance(x, csc_matrix)


def isspmatrix_coo(x):
    """Whether x is an npgpu.sparse.coo_matrix, as SciPy's isspmatrix_coo.

    Parameters
    ----------
    x : object
        Any object.

    Returns
    -------
    bool
        True for a coo_matrix; False for anything else, a coo_array included.

    Examples
    --------
    >>> A = npgpu.sparse.eye(2, format="coo")
    >>> npgpu.sparse.isspmatrix_coo(A), npgpu.sparse.isspmatrix_coo(A.tocsr())
    (True, False)
    """
    return isinstance(x, coo_matrix)
