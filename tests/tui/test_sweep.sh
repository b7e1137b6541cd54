#!/bin/sh
# Screen test: stored sweeps drawn in the dashboard (issue 14 item 4).
# `gpuplan sweep` stores three sweeps of frontier-2027 in the test's store
# first — a 7 x 2 grid (tenancy.gpus x site.pue), a 5-point curve
# (site.pue) and a 10,000-sample Monte Carlo —, then the Sweeps tab (7):
#  - the grid is a heat map: both axes named, their tick values the stored
#    inputs, the cells the stored outputs, a scale legend, a cursor cell;
#  - the curve has one labelled bar per input value and a value axis;
#  - the Monte Carlo is a histogram with P10/P50/P90 marked, the P50 that
#    of the stored rows;
#  - reading the 10,000 rows happens off the UI thread: the keys pressed
#    meanwhile are answered (key -> frame is measured and reported);
# at 160x45 in UTF-8 and at 80x24 with GPUPLAN_ASCII=1 NO_COLOR=1, nothing
# on stderr.  Expected values come from `gpuplan sweep export`, never pinned.
. "$(dirname "$0")/lib.sh"
tui_require_tmux
trap tui_cleanup EXIT
tap_plan 30

plan=${GPUPLAN_DATADIR:-data}/examples/frontier-2027.yaml
G="$GPUPLAN_BIN --db $TUI_DB"
$G sweep "$plan" --vary tenancy.gpus=2048..8192/7 --vary site.pue=1.1,1.3 --name grid >/dev/null &&
    $G sweep frontier-2027 --vary site.pue=1.1..1.5/5 --name pue >/dev/null &&
    $G sweep frontier-2027 --vary site.pue=1.1..1.5 --vary site.power_price_kwh=0.05..0.15 \
        --samples 10000 --seed 1 --name mc >/dev/null
ok $? "gpuplan sweep stores a grid, a curve and a 10,000-sample Monte Carlo"
{ $G sweep export frontier-2027 grid --format csv -o "$TUI_TMP/grid.csv" &&
    $G sweep export frontier-2027 pue --format csv -o "$TUI_TMP/pue.csv" &&
    $G sweep export frontier-2027 mc --format csv -o "$TUI_TMP/mc.csv"; } 2>"$TUI_TMP/export.err"
ok $? "the three sweeps export as CSV (the expected values)"

# column number of a CSV header name
col() { head -n 1 "$1" | tr ',' '\n' | grep -nx -- "$2" | cut -d: -f1; }
# 20312 -> 20,312 (what the dashboard prints for a count)
commas() { echo "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta'; }

cg=$(col "$TUI_TMP/grid.csv" gpus); cx=$(col "$TUI_TMP/grid.csv" tenancy.gpus)
cp=$(col "$TUI_TMP/grid.csv" site.pue)
# the grid's x ticks (the stored tenancy.gpus values, ascending)
xticks=$(tail -n +2 "$TUI_TMP/grid.csv" | cut -d, -f"$cx" | sort -n -u | tr '\n' ' ' | sed 's/ $//')
xtick_re=$(echo "$xticks" | sed 's/ / +/g')
# the pue = 1.3 row of the heat map in GPUs: the stored values by tenancy.gpus
row13=""
for x in $xticks; do
    g=$(awk -F, -v x="$x" -v cx="$cx" -v cp="$cp" -v cg="$cg" \
        'NR > 1 && $cx == x && $cp == 1.3 { print $cg }' "$TUI_TMP/grid.csv")
    row13="$row13 *SH +$(commas "$g")"
done
gmin=$(commas "$(tail -n +2 "$TUI_TMP/grid.csv" | cut -d, -f"$cg" | sort -n | head -n 1)")
gmax=$(commas "$(tail -n +2 "$TUI_TMP/grid.csv" | cut -d, -f"$cg" | sort -n | tail -n 1)")
# the cell two right, one up from the first: tenancy.gpus 4096 (3rd), pue 1.3
x3=$(echo "$xticks" | cut -d' ' -f3)
cell=$(commas "$(awk -F, -v x="$x3" -v cx="$cx" -v cp="$cp" -v cg="$cg" \
    'NR > 1 && $cx == x && $cp == 1.3 { print $cg }' "$TUI_TMP/grid.csv")")
# the curve in MW: each pue value and its facility MW (%.3g, as drawn)
cm=$(col "$TUI_TMP/pue.csv" facility_mw); cq=$(col "$TUI_TMP/pue.csv" site.pue)
curve=$(awk -F, -v cm="$cm" -v cq="$cq" 'NR > 1 { printf "%.6g %.3g\n", $cq, $cm }' "$TUI_TMP/pue.csv")
# the Monte Carlo's P50 of facility MW (linear between order statistics,
# as mc_quantile), printed to 1/100 of the range as the pane does
cmm=$(col "$TUI_TMP/mc.csv" facility_mw)
p50=$(tail -n +2 "$TUI_TMP/mc.csv" | cut -d, -f"$cmm" | sort -g | awk '
    { v[NR - 1] = $1 } END {
        n = NR; h = (n - 1) * 0.5; i = int(h); q = v[i] + (h - i) * (v[i + 1] - v[i])
        res = (v[n - 1] - v[0]) / 100; d = -log(res) / log(10); dec = int(d); if (dec < d) dec++
        if (dec < 0) dec = 0; if (dec > 6) dec = 6
        printf "%.*f", dec, q }')

for size in "160 45" "80 24"; do
    # shellcheck disable=SC2086
    set -- $size
    tag="${1}x${2}"
    # term_put logs every text it cuts at a pane edge here
    CLIP="$TUI_TMP/clip-$tag.log"
    TUI_ENV="GPUPLAN_TUI_CLIPLOG='$CLIP'"
    if [ "$1" = 80 ]; then TUI_ENV="$TUI_ENV NO_COLOR=1 GPUPLAN_ASCII=1"; sh='[.:+#@]'; bar='#'; v='\|'; mark='>'
    else sh='[·░▒▓█]'; bar='█'; v='│'; mark='▶'; fi
    tui_start "$1" "$2"
    tui_open_plan frontier-2027
    tui_keys 7
    tui_wait "Sweep .* of frontier-2027@v[0-9]+"; ok $? "$tag: 7 shows the Sweeps tab, on the newest sweep"
    tui_keys z
    # s lists the sweeps; typing filters the list, Enter picks
    tui_keys s; tui_wait 'grid +\(14 points' && tui_type grid && tui_keys Enter
    tui_wait "Sweep 'grid' of frontier-2027@v[0-9]+: grid, 14 of 14 points" && \
        tui_wait 'site\.pue \(rows\) by tenancy\.gpus \(columns\)'
    ok $? "$tag: the grid is a heat map of site.pue by tenancy.gpus"
    tui_keys m
    row=$(printf '%s' "$row13" | sed "s/SH/$sh/g")
    tui_wait "m: GPUs " && tui_wait "^ +1\\.3 $v$row" && tui_wait "^ +1\\.1 $v"
    ok $? "$tag: its rows are the stored site.pue values, its cells the stored GPUs"
    tui_wait "^ +$xtick_re *\$" && tui_wait "tenancy\\.gpus *\$"
    ok $? "$tag: the x axis ticks are the stored tenancy.gpus values ($xticks)"
    tui_wait "scale of GPUs: +$sh $gmin\\.\\." && tui_wait "$sh [0-9,]+\\.\\.$gmax( |\$)"
    ok $? "$tag: a scale legend from the smallest ($gmin) to the largest ($gmax) value"
    tui_keys Right Right Up
    tui_wait "cell: tenancy\\.gpus = $x3, site\\.pue = 1\\.3: GPUs $cell"
    ok $? "$tag: the cursor cell names its inputs and value"

    # the curve: one bar per pue value against facility MW, with an axis
    tui_keys s; tui_wait 'pue +\(5 points' && tui_type pue && tui_keys Enter
    tui_wait "Sweep 'pue' of frontier-2027@v[0-9]+: grid, 5 of 5 points"
    tui_keys m m
    tui_wait "m: Facility power \\(MW\\)"
    good=0
    echo "$curve" | while read -r x mw; do
        tui_wait "^ +$x $bar+ +$mw\$" || exit 1
    done || good=1
    ok $good "$tag: the curve has a labelled bar per stored site.pue with its facility MW"
    tui_wait '[┬+][─-]+[┬+][─-]+[┬+] *$' && tui_wait ' MW *$'
    ok $? "$tag: a value axis with ticks, named MW"

    # the Monte Carlo: a histogram with P10/P50/P90 marked
    tui_keys s; tui_wait 'mc +\(10000 points' && tui_type mc && tui_keys Enter
    tui_wait "Sweep 'mc' of frontier-2027@v[0-9]+: Monte Carlo, 10000 of 10000 points"
    ok $? "$tag: the 10,000-sample Monte Carlo loads"
    tui_wait "P10 [0-9.]+ +P50 $p50 +P90 [0-9.]+"
    ok $? "$tag: its P50 is that of the stored rows ($p50 MW)"
    tui_wait "$mark P10" && tui_wait "$mark P50" && tui_wait "$mark P90" && tui_wait ' samples *$'
    ok $? "$tag: the histogram marks P10, P50 and P90 over a samples axis"

    if [ "$1" = 160 ]; then
        # keys while the 10,000 rows are read again (r) are answered: the
        # frames of m presses are logged with their key -> frame time
        : > "$TUI_TMP/latency.log"
        tui_keys r; tui_keys m; tui_keys m; tui_keys m; tui_keys m
        tui_wait 'm: Cheapest TCO'
        deadline=$(( $(date +%s) + TUI_TIMEOUT ))
        while ! grep -q 'sweep load rows=10000' "$TUI_TMP/latency.log" && [ "$(date +%s)" -le "$deadline" ]; do
            sleep 0.1
        done
        load=$(sed -n 's/.*sweep load rows=10000 load_ms=\([0-9.]*\).*/\1/p' "$TUI_TMP/latency.log" | tail -n 1)
        keys=$(sed -n 's/^frame key_to_frame_ms=\([0-9.]*\).*/\1/p' "$TUI_TMP/latency.log" | sort -g | tr '\n' ' ')
        echo "# 10,000 rows read in ${load:-?} ms on the loader thread; key -> frame meanwhile (ms): $keys"
        [ -n "$load" ] && [ -n "$keys" ]
        ok $? "$tag: reading 10,000 rows happens off the UI thread (measured above)"
    else
        ok 0 "$tag: (the load is measured at 160x45)"
    fi

    tui_keys z
    tui_keys ':'; tui_type 'q!'; tui_keys Enter
    tui_wait_exit 30 >/dev/null
    tui_check_stderr
    [ -f "$CLIP" ] && ! [ -s "$CLIP" ]
    ok $? "$tag: nothing drawn was cut at the pane's edge"
    if [ -s "$CLIP" ]; then sort -u "$CLIP" | head -n 20 | sed 's/^/# /'; fi
done
exit $tap_failed
