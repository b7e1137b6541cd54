#!/usr/bin/env python3
"""tests/k8s/check_manifest.py — check a `gpuplan sweep --emit k8s` manifest.

    check_manifest.py MANIFEST.yaml [--schema job-batch-v1.schema.json] [--completions N]

Every Job document is validated against the Kubernetes Job schema vendored
beside this file (job-batch-v1.schema.json: kubernetes/kubernetes
api/openapi-spec/v3, Apache-2.0), strictly: a property the schema does not
name is an error (as the API server's strict field validation makes it), a
value of the wrong type or an int32 out of range is an error, and so is a
field whose schema was not vendored.  Then the rules the JobSpec documents
for an Indexed Job: completionMode Indexed, completions set, parallelism
from 1 to 10^5, restartPolicy Never or OnFailure (the only ones a Job
allows), a job name that leaves room for the index in pod hostnames
(RFC 1123 label, `$(job-name)-$(index)` <= 63 characters), and the
manifest's own wiring: every volume mount names a volume, every ConfigMap and
claim it mounts is defined in the manifest (or passed with --external NAME),
and gpuplan's `--shard auto/N` agrees with completions.

ConfigMap and PersistentVolumeClaim documents get a structural check (the
claim's spec against the vendored PersistentVolumeClaimSpec).  Exit 0 when
the manifest passes, 1 with one line per problem, 2 on usage errors.
Needs python3 and python3-yaml (Debian packages).
"""
import json
import os
import re
import sys

try:
    import yaml
except ImportError:  # the caller (tests/sweep.sh) skips with this message
    print("check_manifest.py: python3-yaml is not installed", file=sys.stderr)
    sys.exit(77)

DNS1123_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
INT32 = (-(2 ** 31), 2 ** 31 - 1)
INT64 = (-(2 ** 63), 2 ** 63 - 1)
PREFIX = "#/components/schemas/"


class Checker:
    def __init__(self, schemas):
        self.schemas = schemas
        self.errors = []

    def err(self, where, msg):
        self.errors.append("%s: %s" % (where, msg))

    def ref(self, where, name, value):
        if not name.startswith(PREFIX):
            self.err(where, "unsupported $ref %s" % name)
            return
        key = name[len(PREFIX):]
        if key not in self.schemas:
            self.err(where, "uses %s, whose schema is not vendored "
                     "(add it to job-batch-v1.schema.json from the same commit)" % key)
            return
        self.check(where, self.schemas[key], value)

    def check(self, where, schema, value):
        if "$ref" in schema:
            self.ref(where, schema["$ref"], value)
            return
        for sub in schema.get("allOf", []):
            self.check(where, sub, value)
        if "oneOf" in schema:
            ok = 0
            for sub in schema["oneOf"]:
                trial = Checker(self.schemas)
                trial.check(where, sub, value)
                ok += not trial.errors
            if ok != 1:
                self.err(where, "matches %d of the oneOf alternatives, not exactly one" % ok)
        t = schema.get("type")
        if t is None:
            return
        if t == "object":
            if not isinstance(value, dict):
                self.err(where, "expected an object, got %r" % (value,))
                return
            props = schema.get("properties")
            addl = schema.get("additionalProperties")
            for req in schema.get("required", []):
                if req not in value:
                    self.err(where, "missing required property %r" % req)
            for k, v in value.items():
                w = "%s.%s" % (where, k)
                if props is not None and k in props:
                    self.check(w, props[k], v)
                elif isinstance(addl, dict):
                    self.check(w, addl, v)
                else:
                    self.err(w, "unknown property %r (not in the schema)" % k)
        elif t == "array":
            if not isinstance(value, list):
                self.err(where, "expected an array, got %r" % (value,))
                return
            for i, v in enumerate(value):
                self.check("%s[%d]" % (where, i), schema.get("items", {}), v)
        elif t == "string":
            if not isinstance(value, str):
                self.err(where, "expected a string, got %r" % (value,))
        elif t == "boolean":
            if not isinstance(value, bool):
                self.err(where, "expected a boolean, got %r" % (value,))
        elif t == "integer":
            if isinstance(value, bool) or not isinstance(value, int):
                self.err(where, "expected an integer, got %r" % (value,))
                return
            lo, hi = INT32 if schema.get("format") == "int32" else INT64
            if not lo <= value <= hi:
                self.err(where, "%d is out of range for %s" % (value, schema.get("format")))
        elif t == "number":
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                self.err(where, "expected a number, got %r" % (value,))


def name_of(doc):
    md = doc.get("metadata") if isinstance(doc, dict) else None
    return md.get("name") if isinstance(md, dict) else None


def check_indexed_job(c, where, job, defined, expect_completions):
    spec = job.get("spec") or {}
    name = name_of(job) or ""
    if not DNS1123_LABEL.match(name) or len(name) > 63:
        c.err(where + ".metadata.name", "%r is not an RFC 1123 label" % name)
    completions = spec.get("completions")
    if spec.get("completionMode") != "Indexed":
        c.err(where + ".spec.completionMode", "must be Indexed, got %r" % spec.get("completionMode"))
    if not isinstance(completions, int) or completions < 1:
        c.err(where + ".spec.completions", "an Indexed Job needs completions >= 1")
        return
    if len("%s-%d" % (name, completions - 1)) > 63:
        c.err(where + ".metadata.name", "pod hostnames %s-INDEX exceed 63 characters" % name)
    par = spec.get("parallelism")
    if not isinstance(par, int) or not 1 <= par <= 10 ** 5:
        c.err(where + ".spec.parallelism", "must be from 1 to 10^5 for an Indexed Job, got %r" % par)
    if expect_completions is not None and completions != expect_completions:
        c.err(where + ".spec.completions", "%d, expected %d" % (completions, expect_completions))
    pod = (spec.get("template") or {}).get("spec") or {}
    if pod.get("restartPolicy") not in ("Never", "OnFailure"):
        c.err(where + ".spec.template.spec.restartPolicy",
              "a Job allows Never or OnFailure, got %r" % pod.get("restartPolicy"))
    volumes = {v.get("name"): v for v in pod.get("volumes") or [] if isinstance(v, dict)}
    for v in volumes.values():
        cm = (v.get("configMap") or {}).get("name")
        if cm is not None and ("ConfigMap", cm) not in defined:
            c.err(where, "volume %r mounts ConfigMap %r, which is not defined" % (v.get("name"), cm))
        pvc = (v.get("persistentVolumeClaim") or {}).get("claimName")
        if pvc is not None and ("PersistentVolumeClaim", pvc) not in defined:
            c.err(where, "volume %r mounts claim %r, which is not defined" % (v.get("name"), pvc))
    for i, ctr in enumerate(pod.get("containers") or []):
        w = "%s.spec.template.spec.containers[%d]" % (where, i)
        for m in ctr.get("volumeMounts") or []:
            if m.get("name") not in volumes:
                c.err(w, "mounts volume %r, which the pod does not define" % m.get("name"))
        cmd = list(ctr.get("command") or []) + list(ctr.get("args") or [])
        if "--shard" in cmd:
            shard = cmd[cmd.index("--shard") + 1] if cmd.index("--shard") + 1 < len(cmd) else ""
            m = re.match(r"^auto/(\d+)$", str(shard))
            if not m or int(m.group(1)) != completions:
                c.err(w, "--shard %r does not match completions %d (expected auto/%d)"
                      % (shard, completions, completions))


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    schema_path = os.path.join(here, "job-batch-v1.schema.json")
    expect = None
    external = set()
    files = []
    it = iter(argv[1:])
    for a in it:
        if a == "--schema":
            schema_path = next(it, None)
        elif a == "--completions":
            expect = int(next(it, "0"))
        elif a == "--external":
            n = next(it, "")
            external.add(("ConfigMap", n))
            external.add(("PersistentVolumeClaim", n))
        elif a.startswith("-"):
            print("usage: check_manifest.py MANIFEST [--schema F] [--completions N] "
                  "[--external NAME]", file=sys.stderr)
            return 2
        else:
            files.append(a)
    if len(files) != 1 or not schema_path:
        print("usage: check_manifest.py MANIFEST [--schema F] [--completions N]", file=sys.stderr)
        return 2
    with open(schema_path) as f:
        schemas = json.load(f)["components"]["schemas"]
    with open(files[0]) as f:
        try:
            docs = [d for d in yaml.safe_load_all(f) if d is not None]
        except yaml.YAMLError as e:
            print("%s: not YAML: %s" % (files[0], e))
            return 1
    c = Checker(schemas)
    defined = set(external)
    for d in docs:
        if isinstance(d, dict):
            defined.add((d.get("kind"), name_of(d)))
    jobs = 0
    for i, d in enumerate(docs):
        where = "%s: document %d" % (files[0], i + 1)
        if not isinstance(d, dict):
            c.err(where, "not a mapping")
            continue
        kind, api = d.get("kind"), d.get("apiVersion")
        if kind == "Job":
            jobs += 1
            if api != "batch/v1":
                c.err(where, "a Job is batch/v1, got %r" % api)
            c.check(where, schemas["io.k8s.api.batch.v1.Job"], d)
            check_indexed_job(c, where, d, defined, expect)
        elif kind in ("ConfigMap", "PersistentVolumeClaim"):
            if api != "v1":
                c.err(where, "a %s is v1, got %r" % (kind, api))
            if not DNS1123_LABEL.match(name_of(d) or ""):
                c.err(where + ".metadata.name", "%r is not an RFC 1123 name" % name_of(d))
            c.check(where + ".metadata", schemas["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"],
                    d.get("metadata"))
            if kind == "ConfigMap":
                extra = set(d) - {"apiVersion", "kind", "metadata", "data", "binaryData", "immutable"}
                data = d.get("data", {})
                if extra:
                    c.err(where, "unknown ConfigMap properties %s" % sorted(extra))
                if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
                    c.err(where + ".data", "must map keys to strings")
            else:
                extra = set(d) - {"apiVersion", "kind", "metadata", "spec", "status"}
                if extra:
                    c.err(where, "unknown PersistentVolumeClaim properties %s" % sorted(extra))
                c.check(where + ".spec", schemas["io.k8s.api.core.v1.PersistentVolumeClaimSpec"],
                        d.get("spec"))
        else:
            c.err(where, "unexpected kind %r" % kind)
    if jobs != 1:
        c.err(files[0], "expected exactly one Job, found %d" % jobs)
    for e in c.errors:
        print(e)
    return 1 if c.errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
