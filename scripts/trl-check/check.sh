#!/usr/bin/env bash
# Runs the lab's exported TRL scripts (src/lab/export/trl_script.ts), one per trainer, for 2 steps on the CPU with
# a tiny random GPT-2 and a character tokenizer made here (tiny_model.py), in place of the scripts' MODEL_NAME.
# Needs a Python with torch, transformers, trl, datasets, accelerate, onnxruntime (not installed by the tests or
# CI: torch alone is ~200 MB). Usage:
#   TRL_PYTHON=/path/to/venv/bin/python bash scripts/trl-check/check.sh [workdir]
# Edits per script: MODEL_NAME → the tiny model; use_cpu=True, bf16=False (TRL 1.x defaults bf16 on and refuses
# to start without a GPU); and for the preference trainers (DPO, SimPO, KTO, ORPO) a score() by completion length
# where they build their pairs, since a random model's samples all tie on the gold score and give no pair.
# Prints one line per script: ok or its error.
set -u
PY=${TRL_PYTHON:-python3}
DIR=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$DIR/../.." && pwd)
WORK=${1:-$(mktemp -d)}
mkdir -p "$WORK"
"$PY" -c "import trl, transformers, torch; print('TRL', trl.__version__, 'transformers', transformers.__version__, 'torch', torch.__version__)" || exit 1
(cd "$WORK" && "$PY" "$DIR/tiny_model.py" > /dev/null 2>&1) || { echo "could not build the tiny model"; exit 1; }
ids=$(cd "$ROOT" && node --import tsx --import ./cli/raw-loader.mjs scripts/trl-check/write-scripts.mts "$WORK") || exit 1
fail=0
for id in $ids; do
  sed -e "s#^MODEL_NAME = .*#MODEL_NAME = \"$WORK/tiny\"#" \
      -e 's#^\( *\)report_to="none",#\1report_to="none", use_cpu=True, bf16=False,#' \
      -e 's#^def build_\(preferences\|kto_dataset\)(#score = lambda prompt, completion: len(completion)  \# check only: a random model ties on the gold score\n\n\n&#' \
      "$WORK/$id.py" > "$WORK/run_$id.py"
  (cd "$WORK" && timeout 900 "$PY" "run_$id.py" > "$id.log" 2>&1)
  rc=$?
  if [ $rc -eq 0 ]; then echo "ok   $id"
  elif [ "$id" = ppo ] && grep -q "This TRL has no PPOTrainer" "$WORK/$id.log"; then
    echo "ok   ppo (this TRL has no PPOTrainer: the script stops and names the TRL to install)"
  else
    fail=1
    echo "FAIL $id (rc $rc): $(grep -E '^[A-Za-z]*(Error|Exception)' "$WORK/$id.log" | tail -1)"
  fi
done
exit $fail
