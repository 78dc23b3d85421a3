# The table in docs/lesson-runs/README.md ("Visible-mistake probe"): python3 summary.py (from this folder).
import json, math, os

here = os.path.dirname(os.path.abspath(__file__))


def load(name):
    return [json.loads(line) for line in open(os.path.join(here, name))]


def wmean(rows, k, wk=None):
    v = [(r[k], r[wk] if wk else 1) for r in rows if r.get(k) is not None and not math.isnan(r[k])]
    w = sum(x[1] for x in v)
    return sum(x[0] * x[1] for x in v) / w if w else float("nan")


print("seed loss | len steps 1-30 / last 100 | short share end | short len start / end | 3-digit right / wrong end")
for s in range(6):
    for loss in ["grpo", "dr_grpo"]:
        R = load(f"d8_{loss}_seed{s}.jsonl")
        a, b = R[:30], R[-100:]
        print(
            s, loss.ljust(7),
            "| %.2f / %.2f | %.3f | %.2f / %.2f | %.2f / %.2f" % (
                wmean(a, "len"), wmean(b, "len"), wmean(b, "frac_short"),
                wmean(a, "len_short", "frac_short"), wmean(b, "len_short", "frac_short"),
                wmean(b, "len_long_right"), wmean(b, "len_long_wrong")))
