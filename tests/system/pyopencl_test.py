#!/usr/bin/python3
"""PyOpenCL (Debian's python3-pyopencl) on the amcl platform: arrays, elementwise kernels,
reductions, scans, random numbers, clmath, fills, maps, sub-buffers, rect copies and
profiling, each checked against numpy. Exits non-zero on the first failure."""
import sys

import numpy as np
import pyopencl as cl
import pyopencl.array as cla
import pyopencl.clmath as clm
import pyopencl.clrandom as clr
from pyopencl.elementwise import ElementwiseKernel
from pyopencl.scan import GenericScanKernel

platform = next(p for p in cl.get_platforms() if p.name == "amcl")
ctx = cl.Context([platform.get_devices()[0]])
q = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)
failed = []


def check(name, ok):
    print(f"{name}: {'ok' if ok else 'FAILED'}")
    if not ok:
        failed.append(name)


x = np.linspace(-3, 3, 100000).astype(np.float32)
a = cla.to_device(q, x)
check("elementwise arithmetic", np.allclose((a * 2 + 1).get(), x * 2 + 1))
lin = ElementwiseKernel(ctx, "float a, float *x, float b, float *y, float *z", "z[i] = a*x[i] + b*y[i]")
z = cla.empty_like(a)
lin(2.0, a, 3.0, a, z)
check("ElementwiseKernel", np.allclose(z.get(), 5 * x))
check("clmath.sin", np.allclose(clm.sin(a).get(), np.sin(x), atol=1e-5))
check("clmath.exp", np.allclose(clm.exp(a).get(), np.exp(x), rtol=1e-5))
check("clmath.log", np.allclose(clm.log(abs(a) + 1).get(), np.log(np.abs(x) + 1), rtol=1e-5))
check("sum float32", np.isclose(cla.sum(a).get(), x.sum(dtype=np.float64), atol=1e-1))
check("dot", np.isclose(cla.dot(a, a).get(), np.dot(x.astype(np.float64), x), rtol=1e-4))
check("max", cla.max(a).get() == x.max())
check("sum int64", cla.sum(cla.to_device(q, np.arange(100000, dtype=np.int64))).get() == 4999950000)
check("sum float64", np.isclose(cla.sum(cla.to_device(q, np.linspace(0, 1, 1000))).get(), 500.0))
check("cumsum", (cla.cumsum(cla.to_device(q, np.ones(10000, np.int32))).get() == np.arange(1, 10001)).all())
scan = GenericScanKernel(ctx, np.int32, arguments="__global int *ary", input_expr="ary[i]",
                         scan_expr="a+b", neutral="0", output_statement="ary[i] = item;")
d = cla.to_device(q, np.ones(20000, np.int32))
scan(d)
check("GenericScanKernel", (d.get() == np.arange(1, 20001)).all())
r = clr.PhiloxGenerator(ctx, seed=12345).uniform(q, 200000, np.float32).get()
check("random uniform", abs(r.mean() - 0.5) < 0.01 and r.min() >= 0 and r.max() <= 1)
check("fill", (cla.zeros(q, 1000, np.int32).fill(7).get() == 7).all())

buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4096)
m, _ = cl.enqueue_map_buffer(q, buf, cl.map_flags.WRITE, 0, (1024,), np.int32)
m[:] = np.arange(1024)
m.base.release(q)
out = np.empty(1024, np.int32)
cl.enqueue_copy(q, out, buf)
check("map/unmap", (out == np.arange(1024)).all())

parent = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=np.arange(1024, dtype=np.int32))
sub = parent.get_sub_region(256 * 4, 256 * 4)
out = np.empty(256, np.int32)
cl.enqueue_copy(q, out, sub)
check("sub-buffer", (out == np.arange(256, 512)).all())

src = np.arange(64, dtype=np.uint8).reshape(8, 8)
rect = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 64)
cl.enqueue_copy(q, rect, src)
out = np.zeros((4, 4), np.uint8)
cl.enqueue_copy(q, out, rect, buffer_origin=(2, 2), host_origin=(0, 0), region=(4, 4),
                buffer_pitches=(8,), host_pitches=(4,))
check("rect copy", (out == src[2:6, 2:6]).all())

ev = cl.enqueue_copy(q, a.data, x)
ev.wait()
p = ev.profile
check("profiling order", p.queued <= p.submit <= p.start <= p.end)

if failed:
    print("FAILED:", ", ".join(failed))
    sys.exit(1)
print("all PyOpenCL checks passed")
