#!/usr/bin/env bash
# Create one virtual environment per producer of the drift corpus, under
# target/drift-venvs/<name> (ignored by git), with exact pins.
#
#   bash checker/tests/drift/setup-venvs.sh            # every venv
#   bash checker/tests/drift/setup-venvs.sh jax-0.4.13 tf-2.21.0
#
# Idempotent: a venv whose pins are already installed (stamp file equal to its
# pin line) is skipped. A venv whose install fails is reported with pip's last
# lines and left out; generate.py then prints that it skipped it and why
# (the failure log stays in target/drift-venvs/<name>.log).
set -u
REPO="$(cd "$(dirname "$0")/../../.." && pwd)"
PY="${DRIFT_PYTHON:-/root/.pyenv/versions/3.11.7/bin/python}"
ROOT="$REPO/target/drift-venvs"
mkdir -p "$ROOT"

# name | pip requirements (exact pins; numpy/ml_dtypes/scipy as each jaxlib needs)
SPECS=$(cat <<'PINS'
jax-0.4.13|jax==0.4.13 jaxlib==0.4.13 numpy==1.26.4 ml_dtypes==0.2.0 scipy==1.11.4
jax-0.4.20|jax==0.4.20 jaxlib==0.4.20 numpy==1.26.4 ml_dtypes==0.3.1 scipy==1.11.4
jax-0.4.26|jax==0.4.26 jaxlib==0.4.26 numpy==1.26.4 ml_dtypes==0.4.0 scipy==1.12.0
jax-0.4.30|jax==0.4.30 jaxlib==0.4.30 numpy==1.26.4 ml_dtypes==0.4.0 scipy==1.13.1
jax-0.4.35|jax==0.4.35 jaxlib==0.4.35 numpy==2.1.3 ml_dtypes==0.5.0 scipy==1.14.1
jax-0.5.3|jax[tpu]==0.5.3 jaxlib==0.5.3 numpy==2.2.4 ml_dtypes==0.5.1 scipy==1.15.2
jax-0.6.2|jax[tpu]==0.6.2 jaxlib==0.6.2 numpy==2.2.6 ml_dtypes==0.5.1 scipy==1.15.3
jax-0.7.2|jax[tpu]==0.7.2 jaxlib==0.7.2 numpy==2.3.3 ml_dtypes==0.5.3 scipy==1.16.2
jax-0.10.2|jax==0.10.2 jaxlib==0.10.2 numpy==2.4.6 ml_dtypes==0.6.0 opt_einsum==3.4.0 scipy==1.17.1 libtpu==0.0.42.1
tf-2.21.0|tensorflow-cpu==2.21.0
torch-xla-2.9.0|torch==2.9.0 torch_xla==2.9.0
PINS
)

want=("$@")
status=0
while IFS='|' read -r name pins; do
  [ -n "$name" ] || continue
  if [ ${#want[@]} -gt 0 ] && [[ ! " ${want[*]} " == *" $name "* ]]; then continue; fi
  dir="$ROOT/$name"
  if [ -f "$dir/.pins" ] && [ "$(cat "$dir/.pins")" = "$pins" ]; then
    echo "ok      $name (already installed)"
    continue
  fi
  rm -rf "$dir"
  "$PY" -m venv "$dir"
  # shellcheck disable=SC2086
  if "$dir/bin/pip" install --quiet $pins >"$ROOT/$name.log" 2>&1; then
    echo "$pins" >"$dir/.pins"
    echo "ok      $name"
  else
    echo "FAILED  $name: pip install $pins (log: target/drift-venvs/$name.log)"
    tail -5 "$ROOT/$name.log" | sed 's/^/        /'
    status=1
  fi
done <<<"$SPECS"
exit $status
