#!/usr/bin/python3
"""tests/crd_validate.py — validate Kubernetes manifests against vendored CRDs.

usage: crd_validate.py CRD_DIR MANIFEST.yaml…

Every object whose apiVersion group has a CRD under CRD_DIR (Kueue, Volcano)
is checked against that CRD version's OpenAPI v3 schema, strictly (unknown
fields are errors, as `kubectl apply --validate=strict`), plus the
validation rules the CRDs and their admission webhooks document that can be
expressed here:
  - metadata.name: DNS-1123 subdomain (label for Namespaces), ≤ 253/63 bytes;
    label keys/values and annotation keys well formed;
  - Kueue ClusterQueue/Cohort: every flavour lists exactly the covered
    resources in the same order (CEL); a resource in at most one resource
    group; no borrowingLimit without a cohort (CEL); the preemption rule
    (CEL); quantities non-negative;
  - Kueue ResourceFlavor: topologyName needs nodeLabels (CEL);
  - Kueue Topology: levels unique; kubernetes.io/hostname last (CEL);
  - references resolve: LocalQueue → ClusterQueue and Namespace,
    ClusterQueue → ResourceFlavors and Cohort, ResourceFlavor → Topology;
    no two objects of a kind share a name (and namespace);
  - Volcano Queue: guarantee ≤ deserved ≤ capability per resource (the
    capacity plugin's admission rule), weight in 1..65535 (schema);
  - Volcano HyperNode: exactly one selector kind per member (CEL); exactMatch
    members of type HyperNode name an existing HyperNode.
Objects of core kinds (v1 ConfigMap, Namespace; scheduling.k8s.io/v1
PriorityClass) get the metadata checks and a few field checks.  Prints one
line per problem ("FILE: KIND/NAME: message") and exits 1 if there was any.
"""
import copy
import os
import re
import sys

import jsonschema
import yaml

LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
LABEL_VALUE = re.compile(r"^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$")
QUANTITY = re.compile(r"^([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+|[KMGTPE]i|[numkMGTPE])?$")
SUFFIX = {"": 1, "n": 1e-9, "u": 1e-6, "m": 1e-3, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12,
          "P": 1e15, "E": 1e18, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40,
          "Pi": 2**50, "Ei": 2**60}


def quantity(v):
    s = str(v)
    m = QUANTITY.match(s)
    if not m:
        raise ValueError("not a quantity: %r" % s)
    num = float(m.group(1))
    suf = m.group(3) or ""
    if suf and suf[0] in "eE":
        return num * 10 ** int(suf[1:])
    return num * SUFFIX[suf]


def to_jsonschema(s):
    """OpenAPI v3 (structural) → JSON Schema draft 7, strict."""
    if isinstance(s, list):
        return [to_jsonschema(x) for x in s]
    if not isinstance(s, dict):
        return s
    s = {k: to_jsonschema(v) for k, v in s.items()}
    if s.pop("x-kubernetes-int-or-string", False):
        s.pop("type", None)
        s.pop("anyOf", None)
        s["anyOf"] = [{"type": "integer"}, {"type": "string"}]
    if s.pop("x-kubernetes-preserve-unknown-fields", False):
        s["additionalProperties"] = True
    if s.get("nullable"):
        t = s.get("type")
        if t:
            s["type"] = [t, "null"]
    for k in list(s):
        if k.startswith("x-kubernetes-") or k in ("nullable", "format"):
            s.pop(k)
    if s.get("type") == "object" and "properties" in s and "additionalProperties" not in s:
        s["additionalProperties"] = False
    return s


def load_crds(d):
    crds = {}
    for root, _, files in os.walk(d):
        for f in files:
            if not f.endswith(".yaml"):
                continue
            doc = yaml.safe_load(open(os.path.join(root, f)))
            if not doc or doc.get("kind") != "CustomResourceDefinition":
                continue
            g = doc["spec"]["group"]
            kind = doc["spec"]["names"]["kind"]
            for v in doc["spec"]["versions"]:
                sch = copy.deepcopy(v["schema"]["openAPIV3Schema"])
                # metadata is checked by hand (ObjectMeta is not in the CRD)
                sch["properties"]["metadata"] = {"type": "object"}
                crds[(g + "/" + v["name"], kind)] = (to_jsonschema(sch), v.get("served", False), v)
    return crds


class Checker:
    def __init__(self, crds):
        self.crds = crds
        self.errors = []
        self.objs = []

    def err(self, where, obj, msg):
        md = obj.get("metadata") or {} if isinstance(obj, dict) else {}
        self.errors.append("%s: %s/%s: %s" % (where, obj.get("kind", "?") if isinstance(obj, dict)
                                              else "?", md.get("name", "?"), msg))

    def metadata(self, where, o):
        md = o.get("metadata")
        if not isinstance(md, dict) or "name" not in md:
            self.err(where, o, "metadata.name missing")
            return
        name = str(md["name"])
        if o.get("kind") == "Namespace" or (o.get("apiVersion") == "v1" and o.get("kind") != "ConfigMap"):
            if len(name) > 63 or not LABEL.match(name):
                self.err(where, o, "name %r is not an RFC 1123 label" % name)
        elif len(name) > 253 or not SUBDOMAIN.match(name):
            self.err(where, o, "name %r is not a DNS-1123 subdomain" % name)
        if "namespace" in md and (len(str(md["namespace"])) > 63 or not LABEL.match(str(md["namespace"]))):
            self.err(where, o, "namespace %r is not an RFC 1123 label" % md["namespace"])
        for k, v in (md.get("labels") or {}).items():
            self.key(where, o, k)
            if len(str(v)) > 63 or not LABEL_VALUE.match(str(v)):
                self.err(where, o, "label value %r is invalid" % v)
        for k, v in (md.get("annotations") or {}).items():
            self.key(where, o, k)
            if not isinstance(v, str):
                self.err(where, o, "annotation %s is not a string" % k)

    def key(self, where, o, k):
        prefix, _, name = k.rpartition("/")
        if (prefix and (len(prefix) > 253 or not SUBDOMAIN.match(prefix))) or not name or \
                len(name) > 63 or not re.match(r"^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$", name):
            self.err(where, o, "label/annotation key %r is invalid" % k)

    def check(self, where, o):
        if not isinstance(o, dict):
            self.errors.append("%s: a document is not a mapping" % where)
            return
        self.metadata(where, o)
        api, kind = o.get("apiVersion"), o.get("kind")
        key = (api, kind)
        group = api.rsplit("/", 1)[0] if api and "/" in api else ""
        known_groups = {k[0].rsplit("/", 1)[0] for k in self.crds}
        if key in self.crds:
            schema, served, _ = self.crds[key]
            if not served:
                self.err(where, o, "%s is not served" % api)
            v = jsonschema.Draft7Validator(schema)
            for e in sorted(v.iter_errors(o), key=lambda e: list(e.path)):
                self.err(where, o, "schema: %s at %s" % (e.message, "/".join(map(str, e.path))))
        elif group in known_groups:
            self.err(where, o, "no CRD serves %s %s" % (api, kind))
        elif key not in (("v1", "ConfigMap"), ("v1", "Namespace"),
                         ("scheduling.k8s.io/v1", "PriorityClass")):
            self.err(where, o, "unexpected kind %s %s" % (api, kind))
        self.objs.append((where, o))
        fn = getattr(self, "rule_" + kind, None)
        if fn:
            fn(where, o)

    # ---- documented rules (CEL in the CRDs, admission webhooks) ----
    def resource_groups(self, where, o, spec):
        seen = set()
        for rg in spec.get("resourceGroups") or []:
            cov = rg.get("coveredResources") or []
            for r in cov:
                if r in seen:
                    self.err(where, o, "resource %s is in two resource groups" % r)
                seen.add(r)
            for f in rg.get("flavors") or []:
                names = [r.get("name") for r in f.get("resources") or []]
                if names != cov:
                    self.err(where, o, "flavor %s resources %s differ from coveredResources %s"
                             % (f.get("name"), names, cov))
                for r in f.get("resources") or []:
                    for q in ("nominalQuota", "borrowingLimit", "lendingLimit"):
                        if q in r:
                            try:
                                if quantity(r[q]) < 0:
                                    self.err(where, o, "%s of %s is negative" % (q, r.get("name")))
                            except ValueError as e:
                                self.err(where, o, str(e))

    def rule_ClusterQueue(self, where, o):
        spec = o.get("spec") or {}
        self.resource_groups(where, o, spec)
        has_cohort = "cohortName" in spec or "cohort" in spec
        if not has_cohort:
            for rg in spec.get("resourceGroups") or []:
                for f in rg.get("flavors") or []:
                    if any("borrowingLimit" in r for r in f.get("resources") or []):
                        self.err(where, o, "borrowingLimit without a cohort")
        p = spec.get("preemption") or {}
        if p.get("reclaimWithinCohort", "Never") == "Never" and \
                (p.get("borrowWithinCohort") or {}).get("policy", "Never") != "Never":
            self.err(where, o, "borrowWithinCohort needs reclaimWithinCohort other than Never")
        ns = spec.get("namespaceSelector")
        if ns is None or ns == {}:
            self.err(where, o, "namespaceSelector admits every namespace")

    def rule_Cohort(self, where, o):
        self.resource_groups(where, o, o.get("spec") or {})

    def rule_ResourceFlavor(self, where, o):
        spec = o.get("spec") or {}
        if "topologyName" in spec and not spec.get("nodeLabels"):
            self.err(where, o, "topologyName needs at least one nodeLabel")

    def rule_Topology(self, where, o):
        levels = [lv.get("nodeLabel") for lv in (o.get("spec") or {}).get("levels") or []]
        if len(set(levels)) != len(levels):
            self.err(where, o, "topology levels are not unique")
        if "kubernetes.io/hostname" in levels and levels[-1] != "kubernetes.io/hostname":
            self.err(where, o, "kubernetes.io/hostname must be the last level")

    def rule_Queue(self, where, o):
        spec = o.get("spec") or {}
        cap = spec.get("capability") or {}
        des = spec.get("deserved") or {}
        gua = (spec.get("guarantee") or {}).get("resource") or {}
        try:
            for r, v in gua.items():
                if r in des and quantity(v) > quantity(des[r]):
                    self.err(where, o, "guarantee %s %s > deserved %s" % (r, v, des[r]))
            for r, v in des.items():
                if r in cap and quantity(v) > quantity(cap[r]):
                    self.err(where, o, "deserved %s %s > capability %s" % (r, v, cap[r]))
        except ValueError as e:
            self.err(where, o, str(e))

    def rule_HyperNode(self, where, o):
        for m in (o.get("spec") or {}).get("members") or []:
            sel = m.get("selector") or {}
            n = sum(k in sel for k in ("exactMatch", "regexMatch", "labelMatch"))
            if n != 1:
                self.err(where, o, "a member needs exactly one selector, has %d" % n)

    def rule_PriorityClass(self, where, o):
        v = o.get("value")
        if not isinstance(v, int) or v > 1000000000:
            self.err(where, o, "value must be an integer <= 1e9")

    def cross(self):
        by = {}
        for where, o in self.objs:
            md = o.get("metadata") or {}
            k = (o.get("kind"), md.get("namespace"), md.get("name"))
            if k in by:
                self.err(where, o, "two %s objects named %s" % (k[0], k[2]))
            by[k] = o
        names = lambda kind: {k[2] for k in by if k[0] == kind}
        flavors, cohorts, cqs = names("ResourceFlavor"), names("Cohort"), names("ClusterQueue")
        topos, nss, hns = names("Topology"), names("Namespace"), names("HyperNode")
        for where, o in self.objs:
            spec = o.get("spec") or {}
            kind = o.get("kind")
            if kind == "ClusterQueue":
                for rg in spec.get("resourceGroups") or []:
                    for f in rg.get("flavors") or []:
                        if f.get("name") not in flavors:
                            self.err(where, o, "flavor %s is not defined" % f.get("name"))
                c = spec.get("cohortName", spec.get("cohort"))
                if c is not None and c not in cohorts:
                    self.err(where, o, "cohort %s is not defined" % c)
            elif kind == "LocalQueue":
                if spec.get("clusterQueue") not in cqs:
                    self.err(where, o, "clusterQueue %s is not defined" % spec.get("clusterQueue"))
                if (o.get("metadata") or {}).get("namespace") not in nss:
                    self.err(where, o, "namespace %s is not defined" % o["metadata"].get("namespace"))
            elif kind == "ResourceFlavor":
                t = spec.get("topologyName")
                if t is not None and t not in topos:
                    self.err(where, o, "topology %s is not defined" % t)
            elif kind == "HyperNode":
                for m in spec.get("members") or []:
                    em = (m.get("selector") or {}).get("exactMatch")
                    if m.get("type") == "HyperNode" and em and em.get("name") not in hns:
                        self.err(where, o, "member HyperNode %s is not defined" % em.get("name"))


def main(argv):
    if len(argv) < 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    c = Checker(load_crds(argv[1]))
    n = 0
    for path in argv[2:]:
        c.objs = []
        try:
            docs = [d for d in yaml.safe_load_all(open(path)) if d is not None]
        except (OSError, yaml.YAMLError) as e:
            c.errors.append("%s: cannot read: %s" % (path, e))
            continue
        if not docs:
            c.errors.append("%s: no objects" % path)
        for d in docs:
            c.check(path, d)
            n += 1
        c.cross()
    for e in c.errors:
        print(e)
    print("%d objects in %d files, %d problems" % (n, len(argv) - 2, len(c.errors)), file=sys.stderr)
    return 1 if c.errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
