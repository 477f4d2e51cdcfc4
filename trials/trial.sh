#!/usr/bin/env bash
# Usage: GRADCLI_TREE=/work/wt/NAME bash /work/wt/briefs38/trial.sh SNIPDIR
# Runs every SNIPDIR/*.py with PyTorch 2.13 (/work/torchenv) and with `gradcli run` from
# GRADCLI_TREE, compares stdout, prints a line per snippet; details in SNIPDIR/_out/.
set -u
D=$(cd "$1" && pwd); T=${GRADCLI_TREE:?set GRADCLI_TREE}
mkdir -p "$D/_out"
pass=0; total=0
for f in "$D"/*.py; do
  n=$(basename "$f" .py); total=$((total+1))
  tmp=$(mktemp -d); cp "$f" "$tmp/"
  (cd "$tmp" && PYTHONHASHSEED=0 OMP_NUM_THREADS=1 timeout 300 /work/torchenv/bin/python "$n.py" >"$D/_out/$n.torch.out" 2>"$D/_out/$n.torch.err"; echo $? >"$D/_out/$n.torch.rc")
  (cd "$tmp" && OMP_NUM_THREADS=1 PYTHONPATH="$T" timeout 300 /work/main/.venv/bin/python -m gradcli run "$n.py" >"$D/_out/$n.g.out" 2>"$D/_out/$n.g.err"; echo $? >"$D/_out/$n.g.rc")
  rm -rf "$tmp"
  tr=$(cat "$D/_out/$n.torch.rc"); gr=$(cat "$D/_out/$n.g.rc")
  if cmp -s "$D/_out/$n.torch.out" "$D/_out/$n.g.out"; then s=SAME; pass=$((pass+1)); else s=DIFF; fi
  tb=""; grep -q "Traceback" "$D/_out/$n.g.err" && tb=" TRACEBACK"
  [ "$gr" = 70 ] && tb="$tb INTERNAL"
  printf '%-40s %s torch_rc=%s gradcli_rc=%s%s\n' "$n" "$s" "$tr" "$gr" "$tb"
done
echo "stdout identical: $pass/$total"
