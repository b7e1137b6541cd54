#!/bin/sh
# Kueue and Volcano exports of every demo plan and of the hostile-name plans
# (tests/data/hostile) validate against the vendored CRDs (tests/data/crds:
# Kueue and Volcano OpenAPI v3 schemas + documented rules, tests/crd_validate.py);
# and the validator rejects the defects issue 16 lists, so it can fail.  TAP.
set -u
src=${GPUPLAN_SRCDIR:-$(dirname "$0")/..}
bin=${GPUPLAN_BUILDDIR:-.}/gpuplan
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3 || echo python3)
if ! "$py" -c 'import jsonschema, yaml' 2>/dev/null; then
    echo "1..0 # SKIP python3 with jsonschema and yaml not found (Debian: python3-jsonschema python3-yaml)"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-crd.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
n=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi; }
validate() { "$py" "$src/tests/crd_validate.py" "$src/tests/data/crds" "$@" >"$tmp/why" 2>&1; }

plans="$src/data/examples/*.yaml $src/tests/data/hostile/*.yaml $src/tests/data/k8s-plans/*.yaml"
for p in $plans; do
    b=$(basename "$p" .yaml)
    for v in v1beta2 v1beta1; do
        "$bin" --catalog "$src/data/catalog" export "$p" --format kueue --kueue-version $v \
            -o "$tmp/$b.kueue-$v.yaml" 2>/dev/null
        validate "$tmp/$b.kueue-$v.yaml"
        r=$?; [ $r -eq 0 ] || sed 's/^/# /' "$tmp/why"
        ok $r "$b: Kueue $v objects pass the Kueue CRDs"
    done
    "$bin" --catalog "$src/data/catalog" export "$p" --format volcano -o "$tmp/$b.volcano.yaml" 2>/dev/null
    validate "$tmp/$b.volcano.yaml"
    r=$?; [ $r -eq 0 ] || sed 's/^/# /' "$tmp/why"
    ok $r "$b: Volcano objects pass the Volcano CRDs"
done

# a TPU pool: its flavour selects the label GKE puts on its TPU node pools
k=$tmp/tpu7x-teams.kueue-v1beta2.yaml
grep -q '^    cloud.google.com/gke-tpu-accelerator: tpu7x$' "$k" && ! grep -q 'gpuplan.io/accelerator' "$k"
ok $? "tpu7x-teams: the TPU7x flavour selects cloud.google.com/gke-tpu-accelerator: tpu7x"

# the hostile plans: colliding names stay apart and say so
k=$tmp/hostile-case.kueue-v1beta2.yaml
[ "$(grep -A2 '^kind: ClusterQueue' "$k" | grep '^  name: ' | sort -u | wc -l)" -eq 4 ]
ok $? "teams differing only in case or after 63 bytes keep four distinct ClusterQueues"
grep -q '^# teams "ML" and "ml" both map to the Kubernetes name "ml"' "$k"
ok $? "the collision note names both teams"
grep -q '^  name: team-kube-system$' "$tmp/hostile-shell.kueue-v1beta2.yaml"
ok $? "a team named kube-system does not land in the kube-system namespace"

# the validator catches what issue 16 found
f=$tmp/frontier-2027.kueue-v1beta2.yaml
sed 's#^apiVersion: kueue.x-k8s.io/v1beta2$#apiVersion: kueue.x-k8s.io/v1alpha1#' "$f" >"$tmp/bad1.yaml"
! validate "$tmp/bad1.yaml" && grep -q 'no CRD serves kueue.x-k8s.io/v1alpha1' "$tmp/why"
ok $? "a kueue.x-k8s.io/v1alpha1 Cohort is rejected"
awk '/^  namespaceSelector:/{print "  namespaceSelector: {}"; skip=2; next} skip>0{skip--; next} {print}' \
    "$f" >"$tmp/bad2.yaml"
! validate "$tmp/bad2.yaml" && grep -q 'admits every namespace' "$tmp/why"
ok $? "namespaceSelector: {} is rejected"
awk 'BEGIN{d=0} /^      - name: "memory"/ && !d {d=1; getline; getline; next} {print}' "$f" >"$tmp/bad3.yaml"
! validate "$tmp/bad3.yaml" && grep -q 'differ from coveredResources' "$tmp/why"
ok $? "a flavour missing a covered resource is rejected (CEL rule)"
v=$tmp/frontier-2027.volcano.yaml
sed '0,/^  weight: [0-9]*$/s//  weight: 1000000/' "$v" >"$tmp/bad4.yaml"
! validate "$tmp/bad4.yaml" && grep -q 'weight' "$tmp/why"
ok $? "a Volcano Queue weight above 65535 is rejected"
awk '/^  deserved:/{d=1} d && /nvidia.com\/gpu:/{sub(/"[0-9]+"/, "\"999999\""); d=0} {print}' "$v" >"$tmp/bad5.yaml"
! validate "$tmp/bad5.yaml" && grep -q 'deserved .* > capability' "$tmp/why"
ok $? "deserved above capability is rejected (capacity plugin rule)"
sed 's/^  cohortName: .*$/  cohortName: nowhere/' "$f" >"$tmp/bad6.yaml"
! validate "$tmp/bad6.yaml" && grep -q 'cohort nowhere is not defined' "$tmp/why"
ok $? "a ClusterQueue naming a missing Cohort is rejected"
echo "1..$n"
