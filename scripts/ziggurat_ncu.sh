#!/usr/bin/env bash
# ncu of one standard_normal fill's ziggurat kernel: per-instruction counts of its SASS (probe, not a test).
# Usage, on the GPU machine with npgpu installed: scripts/ziggurat_ncu.sh OUTDIR (writes zig.ncu-rep, zig_details.txt,
# zig_sass.csv: the SASS with each instruction's executed count and stall samples).
set -u
OUTD=$1
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
echo "ncu: $NCU"
"$NCU" --version | tail -1
"$NCU" -k regex:ziggurat -c 1 --section SourceCounters --section InstructionStats --section WarpStateStats \
  --section SchedulerStats --section Occupancy --section LaunchStats --section ComputeWorkloadAnalysis \
  -f -o "$OUTD/zig" python3 -c "
import numpy as np, npgpu
g = npgpu.random.Generator(1)
out = npgpu.empty(1 << 28, dtype=np.float32)
g.standard_normal(out=out)
npgpu.synchronize()
" > "$OUTD/zig_run.txt" 2>&1
tail -5 "$OUTD/zig_run.txt"
"$NCU" -i "$OUTD/zig.ncu-rep" --page details > "$OUTD/zig_details.txt" 2>&1
"$NCU" -i "$OUTD/zig.ncu-rep" --page source --print-source sass --csv > "$OUTD/zig_sass.csv" 2>&1
wc -l "$OUTD"/zig_*
