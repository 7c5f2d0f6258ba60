"""layering_test: fails when a target of a lower layer reaches a target of a higher one.

An aspect walks each root's dependencies (deps, srcs, data, hdrs, a test's binary, a suite's
tests) and collects every target whose package is under one of the forbidden layers; the test
lists them, root by root, with the dependency chain that leads there. It runs at analysis
time: no nested Bazel, nothing to fetch.
"""

load("//platforms:aarch64_binary.bzl", "to_aarch64")

_FollowedAttrs = ["binary", "data", "deps", "hdrs", "srcs", "tests"]

LayerReachInfo = provider(
    doc = "Chains (lists of labels, root first) from a target to forbidden-layer targets.",
    fields = {"chains": "depset of strings 'a -> b -> c'"},
)

def _in_layer(label, layers):
    if label.workspace_name:
        return False
    for layer in layers:
        if label.package == layer or label.package.startswith(layer + "/"):
            return True
    return False

def _reach_aspect_impl(target, ctx):
    layers = ctx.attr._layers
    if _in_layer(target.label, layers):
        return [LayerReachInfo(chains = depset([str(target.label)]))]
    below = []
    for attr in _FollowedAttrs:
        value = getattr(ctx.rule.attr, attr, None)
        if value == None:
            continue
        deps = value if type(value) == "list" else [value]
        for dep in deps:
            if type(dep) == "Target" and LayerReachInfo in dep:
                below.append(dep[LayerReachInfo].chains)
    # One chain per reached target is enough to point at the edge to cut.
    chains = {}
    for chain in depset(transitive = below).to_list():
        end = chain.split(" -> ")[-1]
        if end not in chains:
            chains[end] = str(target.label) + " -> " + chain
    return [LayerReachInfo(chains = depset(chains.values()))]

def _make_reach_aspect(layers):
    return aspect(
        implementation = _reach_aspect_impl,
        attr_aspects = _FollowedAttrs,
        attrs = {"_layers": attr.string_list(default = layers)},
    )

# The layers nothing below them may use. One aspect per forbidden set (aspect attributes are
# fixed when the aspect is defined).
engine_reach_aspect = _make_reach_aspect(["engine"])

def _layering_test_impl(ctx):
    violations = []
    for root in ctx.attr.roots:
        violations += root[LayerReachInfo].chains.to_list()
    violations = sorted(violations)
    if ctx.attr.expect_violation:
        ok = len(violations) > 0
        message = ("expected a dependency on the engine from %s, found none" %
                   [str(r.label) for r in ctx.attr.roots])
    else:
        ok = not violations
        message = "\n".join(
            ["targets below the engine depend on it (cut one edge of each chain):"] + violations,
        )
    script = ctx.actions.declare_file(ctx.label.name + ".sh")
    if ok:
        content = "#!/bin/sh\necho 'layering: %d roots checked'\n" % len(ctx.attr.roots)
    else:
        content = "#!/bin/sh\ncat >&2 <<'EOF'\n%s\nEOF\nexit 1\n" % message
    ctx.actions.write(script, content, is_executable = True)
    return [DefaultInfo(executable = script)]

engine_layering_test = rule(
    implementation = _layering_test_impl,
    test = True,
    attrs = {
        # Walked as built for the board, where every root is compatible (the kernels' ISA
        # variants and the benchmarks' support are aarch64 code).
        "roots": attr.label_list(
            mandatory = True,
            aspects = [engine_reach_aspect],
            cfg = to_aarch64,
            doc = "Targets of the layers below the engine (kernels, runtime).",
        ),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
        "expect_violation": attr.bool(
            doc = "The checker's own test: the roots must reach the engine.",
        ),
    },
)
