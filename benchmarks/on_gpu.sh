#!/usr/bin/env bash
# The GPU check, run on a lent GPU machine (no network there): the core's tests, the step benchmarks,
# and the Week 2-4 solution notebooks as plain scripts (the machine has no Jupyter kernel packages).
# Usage (in the repository root): bash benchmarks/on_gpu.sh OUTDIR
# Python packages the GPU image lacks travel as wheels in .whl/ (see README, "Checking on a GPU").
set -u
out=${1:-/tmp/gpu-out}; mkdir -p "$out"
if ls .whl/*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
    && export PYTHONPATH=/tmp/site:$PWD || exit 1
fi
export XLA_PYTHON_CLIENT_PREALLOCATE=false PYTHONUNBUFFERED=1 PYTHONPATH=${PYTHONPATH:-$PWD}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/env.txt"
python3 -c "import jax, numpy, optax; print('jax', jax.__version__, 'numpy', numpy.__version__, 'optax', optax.__version__, jax.devices())" 2>&1 | tee -a "$out/env.txt"
skip_steps=${SKIP_STEPS:-0}
if [ "$skip_steps" = 0 ]; then
  for b in eager_step keras_step function_step; do
    timeout 80 python3 benchmarks/$b.py --repeats 3 --steps 100 > "$out/$b.txt" 2>&1; echo "$b rc=$?" >> "$out/env.txt"
  done
  # First calls, cold, in fresh processes (the Conv2D rows run under MirroredStrategy on the GPU).
  timeout 200 python3 benchmarks/first_call.py --repeats 2 > "$out/first_call.txt" 2>&1
  echo "first_call rc=$?" >> "$out/env.txt"
fi
# NOTEBOOKS, TESTS and NB_TIMEOUT narrow a rerun to what failed.
notebooks=${NOTEBOOKS:-solutions/week[234]/*.ipynb}
tests=${TESTS:-tests/test_gradient_tape.py tests/test_function.py tests/test_tensor.py tests/test_variable.py \
  tests/test_custom_gradient.py tests/test_random.py tests/test_sparse_gradients.py tests/config tests/ops \
  tests/keras tests/distribute tests/data}
timeout 300 python3 benchmarks/notebook_cells.py --jobs 4 --timeout "${NB_TIMEOUT:-240}" $notebooks \
  > "$out/notebooks.txt" 2>&1 &
timeout 300 python3 -m pytest -q -n 8 -p no:cacheprovider -m "not notebook and not e2e and not slow" $tests \
  > "$out/pytest.txt" 2>&1; echo "pytest rc=$?" >> "$out/env.txt"
wait
tail -30 "$out/pytest.txt"; cat "$out/notebooks.txt" "$out/env.txt"
