"""Command line: ``python -m npgpu info | grid GRID BLOCK | demo [NAME] | bench [NAMES] | --cmakedir``."""
import argparse
import sys


def _cmd_info(args):
    import npgpu

    npgpu.show_config()
    print()
    npgpu.show_runtime()
    return 0


def _cmd_grid(args):
    import npgpu

    def dims(s):
        parts = [int(p) for p in s.replace("x", ",").split(",") if p]
        return tuple(parts)

    try:
        r = npgpu.launch_indices(dims(args.grid), dims(args.block))
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    where = "GPU" if npgpu.get_backend() == "cuda" else "host emulation (no GPU)"
    print(f"launch [grid={args.grid}, block={args.block}] on {where}: {len(r.thread_idx)} threads")
    print(f"{'thread':>8} {'threadIdx':>14} {'blockIdx':>14} {'blockDim':>14} {'gridDim':>14}")

    def fmt(row):
        return "(" + ",".join(str(int(v)) for v in row) + ")"

    n = len(r.thread_idx)
    rows = range(n) if n <= args.limit else list(range(args.limit // 2)) + list(range(n - args.limit // 2, n))
    last = -1
    for i in rows:
        if i != last + 1:
            print(f"{'...':>8}")
        print(f"{i:>8} {fmt(r.thread_idx[i]):>14} {fmt(r.block_idx[i]):>14} {fmt(r.block_dim[i]):>14} "
              f"{fmt(r.grid_dim[i]):>14}")
        last = i
    return 0


def _cmd_demo(args):
    if args.name == "diffusion" and args.dask:
        from npgpu import _demo_dask

        return _demo_dask.run(args)
    if args.name == "diffusion":
        from npgpu import _demo_diffusion

        return _demo_diffusion.run(args)
    if args.size is None:
        args.size = 1 << 24
    from npgpu import _demo

    return _demo.run(args)


def _cmd_bench(args):
    try:
        from npgpu.benchmarks import main as bench_main
    except ImportError as e:  # an install without the benchmarks folder
        print(f"benchmarks are not installed with this copy of npgpu: {e}", file=sys.stderr)
        return 2
    if args.list:
        from npgpu.benchmarks import registry

        print("\n".join(registry()))
        return 0
    return bench_main(args.names, as_json=args.json, repeat=args.repeat, isolate=args.isolate)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m npgpu", description=__doc__)
    p.add_argument("--cmakedir", action="store_true", help="print the directory of npgpuConfig.cmake")
    p.add_argument("--includedir", action="store_true", help="print the C++ include directory")
    sub = p.add_subparsers(dest="cmd")
    sub.add_parser("info", help="versions, backend and each GPU's properties")
    g = sub.add_parser("grid", help="the thread/block table of a launch: threadIdx, blockIdx, blockDim, gridDim")
    g.add_argument("grid", help="grid dimensions: 2 or 2,3 or 2x3x4")
    g.add_argument("block", help="block dimensions: 4 or 4,2")
    g.add_argument("--limit", type=int, default=64, help="rows to print at most")
    d = sub.add_parser("demo", help="the main job on real data (default: 2-D heat diffusion; vectoradd: c = a + b)")
    d.add_argument("name", nargs="?", default="diffusion", choices=["diffusion", "vectoradd"])
    d.add_argument("--size", type=int, default=1 << 24, help="elements (vectoradd)")
    d.add_argument("--repeat", type=int, default=5)
    d.set_defaults(size=None)  # per demo: vectoradd 2^24 elements, diffusion 2000 (a 2000x2000 field)
    d.add_argument("--steps", type=int, default=10000, help="diffusion steps (diffusion)")
    d.add_argument("--plot", metavar="FIG.png", help="write the 3-panel figure (diffusion; needs matplotlib)")
    d.add_argument("--boundary", default="zero", choices=["zero", "periodic", "reflect"], help="(diffusion)")
    d.add_argument("--dask", action="store_true",
                   help="(diffusion) split the field over every GPU through Dask (dask_cuda), else host workers")
    d.add_argument("--steps-per-exchange", type=int, default=100, help="(diffusion --dask) steps between halo "
                   "exchanges (the halo depth)")
    d.add_argument("--workers", type=int, default=None, help="(diffusion --dask) host workers without GPUs")
    d.add_argument("--check", action="store_true", help="(diffusion --dask) compare with one npgpu.diffusion call")
    b = sub.add_parser("bench", help="benchmarks against the copy ceiling, NumPy and CuPy/PyTorch/Numba")
    b.add_argument("names", nargs="*", help="benchmarks to run (default: all; without a GPU, the host backend's "
                   "host_reduce, host_overhead, host_device and diffusion_host)")
    b.add_argument("--json", action="store_true", help="print JSON instead of a table")
    b.add_argument("--repeat", type=int, default=20)
    b.add_argument("--isolate", action="store_true", help="run each benchmark in its own process")
    b.add_argument("--list", action="store_true", help="list the benchmarks' names")
    args = p.parse_args(argv)
    if args.cmakedir or args.includedir:
        import npgpu

        print(npgpu.get_cmake_dir() if args.cmakedir else npgpu.get_include())
        return 0
    handlers = {"info": _cmd_info, "grid": _cmd_grid, "demo": _cmd_demo, "bench": _cmd_bench}
    if args.cmd is None:
        p.print_help()
        return 0
    return handlers[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
