"""Checks the Kubernetes Indexed Job manifests (scripts/gensfen-k8s-indexed-job.yaml and
scripts/gauntlet-k8s-indexed-job.yaml) as data, since no cluster runs them here: the
fields an Indexed Job needs (completionMode, completions, parallelism), the completion
index used as the shard with the same N as completions, a per-index or shared output on
the mounted volume, and the signal handling that makes pre-emption resumable (exec, a
grace period).

The manifests are read by a small parser of the YAML they use (block mappings and
lists, flow lists, quoted and plain scalars, `>-` folded text), so that the check needs
no YAML package; it refuses anything else, so a manifest that outgrows it fails here
rather than being half read."""

import json
import os
import re
import shlex
import unittest

from nnue_scripts import common


class YamlError(ValueError):
    pass


def scalar(text):
    text = text.strip()
    if text.startswith("[") or text.startswith('"'):
        try:
            return json.loads(text)
        except ValueError:
            raise YamlError(f"unsupported flow value {text!r}") from None
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if text in ("true", "false"):
        return text == "true"
    if any(c in text for c in "{}&*!|>'"):
        raise YamlError(f"unsupported value {text!r}")
    return text


def load_yaml(text):
    """The document of the YAML subset described above."""
    lines = [(len(line) - len(line.lstrip(" ")), line.strip()) for line in text.splitlines()
             if line.strip() and not line.lstrip().startswith("#")]
    value, end = parse_block(lines, 0, lines[0][0])
    if end != len(lines):
        raise YamlError(f"unexpected line {lines[end][1]!r}")
    return value


def parse_block(lines, i, indent):
    if lines[i][1].startswith("- "):
        items = []
        while i < len(lines) and lines[i][0] == indent and lines[i][1].startswith("- "):
            rest = lines[i][1][2:]
            if ":" in rest and not rest.startswith(("[", '"')):
                # A mapping in the list: its first key sits on the dash's line.
                lines[i] = (indent + 2, rest)
                item, i = parse_block(lines, i, indent + 2)
            elif rest == ">-":
                item, i = fold(lines, i + 1, indent)
            else:
                item, i = scalar(rest), i + 1
            items.append(item)
        return items, i
    mapping = {}
    while i < len(lines) and lines[i][0] == indent:
        key, sep, rest = lines[i][1].partition(":")
        if not sep or lines[i][1].startswith("- "):
            raise YamlError(f"not a key: {lines[i][1]!r}")
        rest, i = rest.strip(), i + 1
        if rest == ">-":
            mapping[key], i = fold(lines, i, indent)
        elif rest:
            mapping[key] = scalar(rest)
        elif i < len(lines) and lines[i][0] > indent:
            mapping[key], i = parse_block(lines, i, lines[i][0])
        else:
            raise YamlError(f"{key}: no value")
    if i < len(lines) and lines[i][0] > indent:
        raise YamlError(f"bad indentation at {lines[i][1]!r}")
    return mapping, i


def fold(lines, i, indent):
    """A `>-` folded block: the lines indented deeper than `indent`, joined by spaces."""
    folded = []
    while i < len(lines) and lines[i][0] > indent:
        folded.append(lines[i][1])
        i += 1
    return " ".join(folded), i


def manifest(name):
    with open(os.path.join(common.ROOT, "scripts", name)) as f:
        return load_yaml(f.read())


class ParserTest(unittest.TestCase):
    def test_the_subset(self):
        text = "a: 1\nb:\n  - x: \"q\"\n    y: [1, 2]\n  - plain\n  - >-\n    f g\n    h\nc: >-\n  one\n  two\n# note\nd: true\n"
        self.assertEqual(load_yaml(text), {"a": 1, "b": [{"x": "q", "y": [1, 2]}, "plain", "f g h"], "c": "one two",
                                           "d": True})
        for bad in ("a: &anchor 1\n", "a: |\n  x\n", "a:\n", "a: 1\n   b: 2\n"):
            with self.assertRaises(YamlError, msg=bad):
                load_yaml(bad)


class IndexedJobTest(unittest.TestCase):
    def container(self, job):
        spec = job["spec"]
        self.assertEqual((job["apiVersion"], job["kind"]), ("batch/v1", "Job"))
        self.assertEqual(spec["completionMode"], "Indexed")
        self.assertGreater(spec["completions"], 1)
        self.assertEqual(spec["parallelism"], spec["completions"])
        pod = spec["template"]["spec"]
        self.assertGreaterEqual(pod["terminationGracePeriodSeconds"], 30)
        [container] = pod["containers"]
        self.assertEqual(container["command"], ["/bin/sh", "-c"])
        [script] = container["args"]
        # exec: the pod's SIGTERM reaches the program, which keeps what it finished.
        self.assertTrue(script.startswith("exec "), script)
        words = shlex.split(script.replace("${JOB_COMPLETION_INDEX}", "I"))
        shard = words[words.index("--shard") + 1]
        self.assertEqual(shard, f"I/{spec['completions']}")
        [mount] = container["volumeMounts"]
        [volume] = pod["volumes"]
        self.assertEqual(mount["name"], volume["name"])
        self.assertIn("claimName", volume["persistentVolumeClaim"])
        return spec, pod, container, words, mount["mountPath"]

    def test_the_generator(self):
        spec, pod, container, words, mount = self.container(manifest("gensfen-k8s-indexed-job.yaml"))
        self.assertEqual(words[:3], ["exec", "nnue-gen-sfen", "generate"])
        self.assertEqual(spec["completions"], 16)
        # Each index its own file on the volume; one seed for all.
        self.assertEqual(words[words.index("--output-file-name") + 1], f"{mount}/shard-I.bin")
        self.assertEqual(words[words.index("--seed") + 1], "1")
        self.assertEqual(words[words.index("--threads") + 1], container["resources"]["limits"]["cpu"])
        self.assertEqual(pod["restartPolicy"], "OnFailure")

    def test_the_gauntlet(self):
        spec, pod, container, words, mount = self.container(manifest("gauntlet-k8s-indexed-job.yaml"))
        self.assertEqual(words[:4], ["exec", "python3", "-m", "nnue_scripts.gauntlet"])
        self.assertEqual(spec["completions"], 8)
        # One output folder for all indexes, on the volume.
        self.assertEqual(words[words.index("--out-dir") + 1], f"{mount}/strength")
        self.assertEqual(words[words.index("--concurrency") + 1], container["resources"]["limits"]["cpu"])
        # Pre-emption is not a failure; a usage error fails its index; podFailurePolicy needs Never.
        self.assertEqual(pod["restartPolicy"], "Never")
        rules = spec["podFailurePolicy"]["rules"]
        self.assertEqual(rules[0], {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget"}]})
        self.assertEqual(rules[1], {"action": "FailIndex", "onExitCodes": {"containerName": "gauntlet",
                                                                            "operator": "In", "values": [2]}})
        self.assertEqual(spec["backoffLimitPerIndex"], 2)


if __name__ == "__main__":
    unittest.main()
