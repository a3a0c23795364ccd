"""Print the Smear tournament results (results/smear/*.json) as a Markdown table."""

import json
import sys
from pathlib import Path

rows = []
for path in sorted(Path(__file__).parent.glob("*.json")):
    report = json.loads(path.read_text())
    pair = report["pairs"][0]
    sign = 1 if pair["a"] != "random" else -1
    teams = {t["name"]: t for t in report.get("teams", [])}
    win = next((t["win_rate"] for name, t in teams.items() if "random" not in name), None)
    rows.append(
        f"| `{report['preset']}` | {report['num_players']} | {report['deals']} | "
        f"{pair['a'] if sign == 1 else pair['b']} − {pair['b'] if sign == 1 else pair['a']} | "
        f"{sign * pair['mean_diff']:+.2f} ± {pair['ci95']:.2f} | "
        + (f"{100 * win:.1f}%" if win is not None else "—")
        + " |"
    )
print("| preset | players | deals | pair | points per deal (a − b, 95% CI) | a's side game wins |")
print("|---|---|---|---|---|---|")
print("\n".join(rows))
sys.exit(0)
