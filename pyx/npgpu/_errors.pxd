cdef int raise_py_error() except *
