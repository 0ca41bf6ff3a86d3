#!/usr/bin/env python3
"""Validates Kubernetes manifests against the JSON schemas shipped in the kubernetes-validate
wheel (no network). Used by test/deploy/manifests.spec.ts.

    PYTHONPATH=.cache/kubernetes-validate/site-packages \
      python3 test/deploy/validate_manifests.py --k8s-version 1.30 --k8s-version 1.37 FILE...

Prints one JSON object: {"validator": "kubernetes-validate <version>", "results": [...]}, one
result per (document, Kubernetes version): status "valid", "invalid" (with the failing path and
message) or "no-schema" (a kind the package has no schema for, e.g. a custom resource).
Validation is strict: unknown fields are errors, so a misspelt key cannot pass unnoticed.
Exits 0 when it could check everything (the caller judges the results), 2 on a usage or parse error.
"""
import argparse
import json
import sys

import yaml
import kubernetes_validate
from kubernetes_validate import utils


def load_documents(path):
    with open(path, encoding="utf-8") as handle:
        return [doc for doc in yaml.safe_load_all(handle) if doc is not None]


def check(doc, version):
    base = {
        "apiVersion": doc.get("apiVersion") if isinstance(doc, dict) else None,
        "kind": doc.get("kind") if isinstance(doc, dict) else None,
        "name": (doc.get("metadata") or {}).get("name") if isinstance(doc, dict) else None,
        "k8sVersion": version,
    }
    if not isinstance(doc, dict) or not base["apiVersion"] or not base["kind"]:
        return {**base, "status": "invalid", "path": "", "message": "not a Kubernetes object (apiVersion and kind are required)"}
    try:
        validated = utils.validate(doc, version, strict=True)
        return {**base, "status": "valid", "schemaVersion": validated}
    except utils.ValidationError as error:
        return {**base, "status": "invalid", "schemaVersion": error.version,
                "path": ".".join(str(p) for p in error.path), "message": error.message}
    except utils.SchemaNotFoundError as error:
        return {**base, "status": "no-schema", "message": error.message}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k8s-version", action="append", required=True, help="Kubernetes minor version, repeatable")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()

    supported = utils.all_versions()
    for version in args.k8s_version:
        if not any(utils.major_minor(v) == version for v in supported):
            print(f"kubernetes-validate {kubernetes_validate.__version__} has no schemas for Kubernetes {version} "
                  f"(it has {', '.join(utils.major_minor(v) for v in supported)})", file=sys.stderr)
            return 2

    results = []
    for path in args.files:
        try:
            documents = load_documents(path)
        except (OSError, yaml.YAMLError) as error:
            print(f"{path}: {error}", file=sys.stderr)
            return 2
        for index, doc in enumerate(documents):
            for version in args.k8s_version:
                results.append({"file": path, "document": index, **check(doc, version)})

    json.dump({"validator": f"kubernetes-validate {kubernetes_validate.__version__}", "results": results}, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
