"""The PyCUDA add_kernel program of reference page 003, run on npgpu: only the import lines differ.

PyCUDA's version imports
    import pycuda.autoinit
    import pycuda.driver as drv
    import numpy
    from pycuda.compiler import SourceModule
npgpu needs no autoinit (CUDA starts on first use); npgpu.In / npgpu.Out are PyCUDA's drv.In / drv.Out.
(The page's kernel text lost its '*' and '__' to Markdown; this is the kernel it shows.)

    python examples/pycuda_add.py
"""
import numpy

import npgpu as drv
from npgpu import SourceModule

mod = SourceModule("""
__global__ void add_kernel(float *d_a, float *d_b, float *d_result, int N)
{
    int idx = threadIdx.x + blockDim.x * blockIdx.x;
    if (idx < N)
        d_result[idx] = d_a[idx] + d_b[idx];
}
""")

add_kernel = mod.get_function("add_kernel")

N = 1024 * 1024  # 设定数组大小
a = numpy.random.randn(N).astype(numpy.float32)
b = numpy.random.randn(N).astype(numpy.float32)
result = numpy.zeros_like(a)

threads_per_block = 256
blocks_per_grid = (N + threads_per_block - 1) // threads_per_block
add_kernel(
    drv.In(a), drv.In(b), drv.Out(result), numpy.int32(N),
    block=(threads_per_block, 1, 1), grid=(blocks_per_grid, 1))

print(result[:10])  # 打印前 10 个结果
# 检查 GPU 计算的结果是否正确
if numpy.allclose(result, a + b):
    print("Results are correct!")
else:
    print("Results are incorrect!")
