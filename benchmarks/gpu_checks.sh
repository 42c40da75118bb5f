#!/usr/bin/env bash
# The device checks, as one run on a CUDA machine (figures in the README, "Speed"): the
# tests marked gpu, then the GPU benchmarks. Run from the repository root, with the package
# importable (installed, or PYTHONPATH=.); logs go to $OUT (default /tmp/solvable-gpu).
# Each step has its own time limit so that one slow step cannot take the others' time.
set -uo pipefail
export PYTHONUNBUFFERED=1 PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
OUT="${OUT:-/tmp/solvable-gpu}"
mkdir -p "$OUT"
{
  nvidia-smi -L
  python3 -c "import torch, sympy, scipy, numpy; print('torch', torch.__version__,
torch.cuda.get_device_name(0), 'sympy', sympy.__version__, 'scipy', scipy.__version__,
'numpy', numpy.__version__, 'cpus', __import__('os').cpu_count())"
} 2>&1 | tee "$OUT/env.txt"
# the gpu tests (the plugin named explicitly: with PYTHONPATH alone no entry point is read)
timeout 180 python3 -m pytest -m gpu -o addopts="" -p solvable.verification.pytest_plugin \
  -p no:cacheprovider -q tests/test_torch_flow.py tests/test_alpha_scaling.py 2>&1 |
  tee "$OUT/gpu_tests.txt"
# the batched flow against a loop of scipy solve_ivp (README, speed item 2)
timeout 150 python3 benchmarks/bench_torch.py --device cuda --only gf --workers 1 \
  --repeat 3 2>&1 | tee "$OUT/bench_gf.txt"
# seed 003 Part III's curve, trained on the GPU (the registered claim's grid)
timeout 120 python3 benchmarks/alpha_scaling.py --device cuda \
  --json "$OUT/alpha_scaling.json" 2>&1 | tee "$OUT/alpha_scaling.txt"
