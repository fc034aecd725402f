"""Generate the reference pages of the docs from the code (an mkdocs hook).

Everything here is deterministic: the same code gives the same pages, byte
for byte. The pages are made in memory at build time, never written to the
docs folder, so they can't go stale:

- ``keywords/index.md`` and one ``keywords/<plugin>.md`` per built-in keyword
  plugin, from its module docstring, its ``KeywordSpec`` and its source;
- ``hooks.md``, from the docstrings of ``redzone.kernel.hookspecs`` (signature,
  rules, parameters, how answers combine), with an example implementation
  taken from a built-in plugin where one exists;
- markers in hand-written pages (``<!-- generated: NAME -->``) replaced by
  generated text: the plugin discovery order, the rules editions.

The functions are plain Python (mkdocs is imported only by the hook
functions), so the docs meta-test imports this module to check that every
hook and every keyword has its entry.
"""

from __future__ import annotations

import ast
import importlib.metadata
import inspect
import json
import re
import textwrap
import types
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import attrs

ROOT = Path(__file__).resolve().parents[2]


def _sibling(name: str) -> types.ModuleType:
    """A module beside this one (mkdocs loads hooks by path, not as a package)."""
    import importlib.util
    import sys

    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(f"{name}.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module



KEYWORD_DIR = "keywords"
MARKER = re.compile(r"<!--\s*generated:\s*([a-z-]+)\s*-->")
TITLE = re.compile(r"^(?P<name>.+?) \((?P<rules>CR [^)]*)\)\.$")


# ---------------------------------------------------------------------------
# reStructuredText fragments (the docstrings) to Markdown
# ---------------------------------------------------------------------------


def rst_to_md(text: str) -> str:
    """The small part of reStructuredText the docstrings use, as Markdown."""
    text = re.sub(r":(?:func|class|meth|data|attr|mod|exc):`~?([^`]+)`",
                  lambda m: f"`{m.group(1).split('.')[-1] if '~' in m.group(0) else m.group(1)}`",
                  text)
    text = text.replace("``", "`")
    return text


@dataclass
class Docstring:
    """A docstring split into its Sphinx parts."""

    summary: str = ""
    rules: str = ""
    body: list[str] = field(default_factory=list)
    params: dict[str, str] = field(default_factory=dict)
    returns: str = ""
    combined: str = ""
    #: The version of its ``.. versionadded::`` line ("" without one).
    added: str = ""


def parse_docstring(doc: str) -> Docstring:
    """Split a hookspec docstring: summary, ``Rules:``, paragraphs, ``:param:``
    fields, ``:returns:``, ``Combined:``."""
    out = Docstring()
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", inspect.cleandoc(doc)) if p.strip()]
    if paragraphs:
        out.summary = " ".join(paragraphs.pop(0).split())
    for para in paragraphs:
        if para.startswith("Rules:"):
            out.rules = " ".join(para[len("Rules:"):].split())
        elif para.startswith("Combined:"):
            out.combined = " ".join(para[len("Combined:"):].split())
        elif para.startswith(".. versionadded::"):
            out.added = para[len(".. versionadded::"):].strip()
        elif para.startswith(":"):
            for m in re.finditer(r":(param (\w+)|returns):\s*(.*?)(?=\n:(?:param|returns)|\Z)",
                                 para, re.S):
                value = " ".join(m.group(3).split())
                if m.group(2):
                    out.params[m.group(2)] = value
                else:
                    out.returns = value
        else:
            out.body.append(para)
    return out


# ---------------------------------------------------------------------------
# Hooks
# ---------------------------------------------------------------------------


@dataclass
class Hook:
    """One hookspec, ready to document."""

    name: str
    group: str
    signature: str
    params: tuple[str, ...]
    doc: Docstring


def hook_groups(source: str) -> dict[str, str]:
    """Hook name -> the banner comment it sits under in hookspecs.py."""
    groups: dict[str, str] = {}
    current = ""
    lines = source.splitlines()
    for i, line in enumerate(lines):
        if (line.startswith("# ") and i > 0 and lines[i - 1].startswith("# ---")
                and i + 1 < len(lines) and lines[i + 1].startswith("# ---")):
            current = line[2:].strip()
        m = re.match(r"def (redzone_\w+)\(", line)
        if m:
            groups[m.group(1)] = current
    return groups


def hooks() -> list[Hook]:
    """Every hookspec, in source order."""
    from redzone.kernel import hookspecs

    source = inspect.getsource(hookspecs)
    groups = hook_groups(source)
    tree = ast.parse(source)
    out = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("redzone_"):
            args = ", ".join(
                f"{a.arg}: {ast.unparse(a.annotation)}" if a.annotation else a.arg
                for a in node.args.args)
            ret = f" -> {ast.unparse(node.returns)}" if node.returns else ""
            fn = getattr(hookspecs, node.name)
            out.append(Hook(node.name, groups.get(node.name, ""),
                            f"def {node.name}({args}){ret}",
                            tuple(a.arg for a in node.args.args),
                            parse_docstring(fn.__doc__ or "")))
    return out


# ---------------------------------------------------------------------------
# Built-in keyword plugins
# ---------------------------------------------------------------------------


@dataclass
class KeywordPlugin:
    """A built-in keyword plugin, ready to document."""

    name: str
    module: types.ModuleType
    title: str
    rules: str
    body: str
    specs: list[Any]
    hooks: list[str]

    @property
    def page(self) -> str:
        return f"{KEYWORD_DIR}/{self.name}.md"


def builtin_plugins() -> list[KeywordPlugin]:
    """The plugins of the ``redzone`` entry-point group that the redzone
    distribution itself ships, by name."""
    eps = {ep.name: ep for ep in importlib.metadata.entry_points(group="redzone")
           if ep.dist is not None and ep.dist.name == "redzone"}
    out = []
    for name in sorted(eps):
        module = eps[name].load()
        doc = inspect.getdoc(module) or ""
        first, _, rest = doc.partition("\n")
        m = TITLE.match(first.strip())
        title, rules = (m.group("name"), m.group("rules")) if m else (first.strip(), "")
        keywords_fn = getattr(module, "redzone_keywords", None)
        specs = list(keywords_fn()) if keywords_fn is not None else []
        impls = sorted(a for a in dir(module)
                       if a.startswith("redzone_") and a != "redzone_keywords"
                       and getattr(getattr(module, a), "redzone_impl", None) is not None)
        out.append(KeywordPlugin(name, module, title, rules, rest.strip(), specs, impls))
    return out


def _implementations(plugins: Iterable[KeywordPlugin]) -> dict[str, list[KeywordPlugin]]:
    found: dict[str, list[KeywordPlugin]] = {}
    for p in plugins:
        for hook in p.hooks:
            found.setdefault(hook, []).append(p)
    return found


def _function_source(module: types.ModuleType, name: str) -> str:
    fn = getattr(module, name)
    return textwrap.dedent(inspect.getsource(fn)).rstrip()


# ---------------------------------------------------------------------------
# Pages
# ---------------------------------------------------------------------------


def keyword_page(p: KeywordPlugin) -> str:
    """The page of one built-in keyword plugin."""
    lines = [f"# {p.title}", ""]
    meta = [p.rules] if p.rules else []
    meta += [f"plugin `{p.name}`", f"module `{p.module.__name__}`"]
    lines += [" · ".join(meta), ""]
    for spec in p.specs:
        if spec.summary:
            lines += [f"> **{spec.name}**: {spec.summary}", ""]
    if p.body:
        lines += [rst_to_md(p.body), ""]
    lines += ["## Printed forms", "", "| keyword | rule | form | examples |",
              "| --- | --- | --- | --- |"]
    for spec in p.specs:
        examples = ", ".join(f"`{e}`" for e in spec.examples) or f"`{spec.name}`"
        pattern = spec.form.replace("|", "\\|")
        lines.append(f"| {spec.name} | {spec.rule} | `{pattern}` | {examples} |")
    lines += ["", "## Hooks it implements", ""]
    if p.hooks:
        lines += [f"- [`{h}`](../hooks.md#{h})" for h in p.hooks]
    else:
        lines.append("None beyond declaring its keyword: the core's rules need no change "
                     "for it.")
    example = keyword_example(p)
    if example is not None:
        title, toml, account = example
        lines += ["", "## An example", "", title, "", "```toml", toml.rstrip(), "```", "",
                  "`redzone run` prints:", "", "```text", account.rstrip(), "```"]
    path = "/".join(p.module.__name__.split("."))
    lines += ["", f"The plugin's source is `plugins/{path}.py` in the repository.", ""]
    return "\n".join(lines)


#: The scenarios tried for a keyword without a bundled example, in order: the
#: keyword's creature attacks and is blocked, blocks, attacks unblocked.
_EXAMPLE = """\
active_player = "alice"
[players.alice]
[players.bob]
[[permanents]]
id = "hero"
name = "Example Hero"
controller = "{hero_side}"
power = 3
toughness = 3
keywords = [{keyword}]
[[permanents]]
id = "bears"
name = "Grizzly Bears"
controller = "{bears_side}"
power = 2
toughness = 2
[combat]
{combat}
"""


def _account(text: str, file: str) -> tuple[str, bool] | None:
    import io

    from redzone.formats.outcome import resolve
    from redzone.formats.scenario import ScenarioProblems, loads
    from redzone.frontends.account import render_resolution
    from rich.console import Console

    try:
        res = resolve(loads(text, file=file))
    except ScenarioProblems:
        return None
    out = io.StringIO()
    render_resolution(Console(file=out, width=96, color_system=None, highlight=False,
                              emoji=False), res)
    return out.getvalue(), res.error is None


def _bundled_examples() -> dict[str, list[str]]:
    """Bundled example name -> the keyword names its permanents have."""
    import redzone.examples as examples
    from redzone.formats.scenario import load

    found: dict[str, list[str]] = {}
    for name in examples.names():
        scenario = load(examples.path(name))
        found[name] = sorted({k.name for perm in scenario.state.objects.values()
                              for k in perm.keywords})
    return found


_BUNDLED: dict[str, list[str]] | None = None


def keyword_example(p: KeywordPlugin) -> tuple[str, str, str] | None:
    """One example scenario for a keyword plugin and its account: a bundled
    example using the keyword if there is one, else a small generated board
    on which the keyword's creature attacks, blocks, or attacks unblocked,
    whichever is legal first."""
    import redzone.examples as examples

    global _BUNDLED
    if _BUNDLED is None:
        _BUNDLED = _bundled_examples()
    names = {spec.name for spec in p.specs}

    def bundled(name: str) -> tuple[str, str, str] | None:
        text = examples.path(name).read_text(encoding="utf-8")
        done = _account(text, f"{name}.toml")
        if done is None:
            return None
        return (f"The bundled example `{name}` (`redzone demo {name}`): "
                f"{examples.title(name)}.", text, done[0])

    for name, used in _BUNDLED.items():
        # A bundled example about the keyword: it uses it and its title names it.
        if names & set(used) and any(n in examples.title(name).lower() for n in names):
            found = bundled(name)
            if found is not None:
                return found
    for spec in p.specs:
        printed = (spec.examples or (spec.name,))[0]
        for hero, bears, combat in (
                ("alice", "bob", 'attacks = { hero = "bob" }\nblocks = { bears = "hero" }'),
                ("bob", "alice", 'attacks = { bears = "bob" }\nblocks = { hero = "bears" }'),
                ("alice", "bob", 'attacks = { hero = "bob" }')):
            text = _EXAMPLE.format(hero_side=hero, bears_side=bears, combat=combat,
                                   keyword=json.dumps(printed))
            done = _account(text, "example.toml")
            if done is not None and done[1]:
                role = ("attacks and is blocked" if "blocks = { bears" in combat else
                        "blocks" if "blocks" in combat else "attacks unblocked")
                return (f"A 3/3 with {printed} {role} (a generated board).", text, done[0])
    for name, used in _BUNDLED.items():
        if names & set(used):
            found = bundled(name)
            if found is not None:
                return found
    return None


def keywords_index(plugins: list[KeywordPlugin]) -> str:
    """The keyword index page."""
    lines = ["# Keywords", "",
             "Every built-in keyword is an ordinary plugin in the `redzone` entry-point "
             "group, one module each, exactly like a third-party keyword. These pages are "
             "generated from each module's docstring, its `KeywordSpec` and its source.",
             "", "| keyword | rules | summary |", "| --- | --- | --- |"]
    for p in plugins:
        summary = "; ".join(s.summary for s in p.specs if s.summary)
        lines.append(f"| [{p.title}]({p.name}.md) | {p.rules} | {summary} |")
    lines.append("")
    return "\n".join(lines)


def hooks_page() -> str:
    """The hook reference: every hook, grouped by the step it serves."""
    from redzone.kernel import hookspecs

    all_hooks = hooks()
    plugins = builtin_plugins()
    impls = _implementations(plugins)
    lines = ["# Hook reference", "",
             rst_to_md(inspect.getdoc(hookspecs) or ""), "",
             "Each entry gives the hook's exact signature, the rules it serves, its "
             "parameters, how the answers of several plugins are combined, and an "
             "example. It is generated from `redzone/hookspecs.py`.", "",
             "Where each hook is asked in the combat phase:", "", diagram_combat(), ""]
    group = None
    for hook in all_hooks:
        if hook.group != group:
            group = hook.group
            lines += [f"## {group}", ""]
        d = hook.doc
        lines += [f"### `{hook.name}`", "", "```python", hook.signature, "```", "",
                  rst_to_md(d.summary), "", f"**Rules:** {d.rules}", ""]
        for para in d.body:
            lines += [rst_to_md(" ".join(para.split())), ""]
        lines += ["**Parameters**", ""]
        if hook.params:
            lines += [f"- `{name}`: {rst_to_md(d.params.get(name, ''))}" for name in hook.params]
        else:
            lines.append("None.")
        lines.append("")
        if d.returns:
            lines += [f"**Returns:** {rst_to_md(d.returns)}", ""]
        lines += [f"**Combined:** {rst_to_md(d.combined)}", ""]
        if d.added:
            lines += [f"**Added in** redzone {d.added}.", ""]
        users = impls.get(hook.name, [])
        if hook.name == "redzone_keywords":
            users = [p for p in plugins if "redzone_keywords" in vars(p.module)]
            with_examples = [p for p in users if "examples=" in _function_source(
                p.module, hook.name)]
            lines += ["**Implemented by:** every keyword plugin.", ""]
            example = (with_examples or users)[0] if users else None
        elif users:
            lines += ["**Implemented by:** " + ", ".join(
                f"[{p.title}]({KEYWORD_DIR}/{p.name}.md)" for p in users), ""]
            example = users[0]
        else:
            example = None
        if example is not None:
            lines += [f"**Example** (from the {example.title} plugin, "
                      f"`{example.module.__name__}`):", "", "```python",
                      "@hookimpl", _strip_decorator(_function_source(example.module, hook.name)),
                      "```", ""]
        else:
            lines += ["**Example** (no built-in keyword implements it; a skeleton):", "",
                      "```python", "from redzone import hookimpl", "", "@hookimpl",
                      hook.signature + ":", "    ...", "```", ""]
    return "\n".join(lines)


def _strip_decorator(source: str) -> str:
    return "\n".join(line for line in source.splitlines() if not line.startswith("@"))


def discovery_order() -> str:
    """The numbered list of ``redzone.kernel.plugins``' docstring."""
    from redzone.kernel import plugins

    doc = inspect.getdoc(plugins) or ""
    items = re.findall(r"^(\d+)\. (.*?)(?=^\d+\. |\n\n|\Z)", doc, re.S | re.M)
    return "\n".join(f"{n}. {rst_to_md(' '.join(text.split()))}" for n, text in items)


def editions_list() -> str:
    """Every known rules edition, from ``redzone.kernel.editions``."""
    from redzone.kernel.editions import editions

    lines = []
    for e in editions().values():
        lines += [f"## `{e.name}`", "", f"**{e.title}**", "", rst_to_md(e.summary), ""]
        lines += [f"- Rules: {', '.join(e.rules)}"]
        # (the settings it changes from today's rules: the booleans' defaults)
        flags = [f"`{f.name}`" if f.default is False else f"`{f.name} = {getattr(e, f.name)}`"
                 for f in attrs.fields(type(e))
                 if isinstance(f.default, bool) and getattr(e, f.name) != f.default]
        if flags:
            lines.append(f"- Settings: {', '.join(flags)}")
        plugins = [getattr(p, "__name__", str(p)) for p in e.plugins]
        if plugins:
            lines.append(f"- Plugins it adds: {', '.join(f'`{p}`' for p in plugins)}")
        if e.replaces:
            lines.append(f"- Built-in plugins it replaces: "
                         f"{', '.join(f'`{p}`' for p in e.replaces)}")
        lines.append("")
    return "\n".join(lines)


def invariants_list() -> str:
    """The conformance kit's invariants, read from its source (so building the
    docs doesn't need hypothesis)."""
    path = ROOT / "core" / "redzone" / "testing" / "conformance.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                and node.target.id == "INVARIANTS" and node.value is not None):
            table = ast.literal_eval(node.value)
            return "\n".join(f"- `{name}`: {text}" for name, text in table.items())
    raise LookupError("INVARIANTS not found in redzone/testing/conformance.py")


def event_kinds_list() -> str:
    """Every event kind the kernel and the built-in plugins declare, from the
    vocabulary itself (``redzone.kernel.events``)."""
    from redzone import Engine
    from redzone.kernel import events

    Engine()  # the built-in plugins declare their kinds as they load
    lines = ["| kind | rule | fields | declared by | properties |", "|---|---|---|---|---|"]
    for kind in sorted(events.kinds().values(), key=lambda k: k.name):
        props = [kind.tone] if kind.tone != "plain" else []
        if kind.leaves_battlefield:
            props.append("leaves the battlefield")
        fields = ", ".join(f"`{f}`" for f in kind.fields) or "none"
        by = events.declared_by(kind.name) or ""
        lines.append(f"| `{kind.name}` | {kind.rule} | {fields} | {by} | {', '.join(props)} |")
    return "\n".join(lines)


def _hook_groups() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for hook in hooks():
        out.setdefault(hook.group, []).append(hook.name)
    return out


def diagram_combat() -> str:
    """The combat phase, its priority windows and the hooks asked in each step."""
    return f'<div class="rz-figure">{_sibling("diagrams").combat_phase(_hook_groups())}</div>'


def diagram_pipeline() -> str:
    """The 120.4 damage pipeline."""
    d = _sibling("diagrams")
    return f'<div class="rz-figure">{d.damage_pipeline([h.name for h in hooks()])}</div>'


def diagram_flow() -> str:
    """The data flow of a command."""
    return f'<div class="rz-figure">{_sibling("diagrams").data_flow()}</div>'


GENERATORS = {"discovery-order": discovery_order, "editions": editions_list,
              "invariants": invariants_list, "diagram-combat": diagram_combat,
              "diagram-pipeline": diagram_pipeline, "diagram-flow": diagram_flow,
              "event-kinds": event_kinds_list}


def substitute(markdown: str) -> str:
    """Replace every ``<!-- generated: NAME -->`` marker with its text.

    :raises KeyError: for an unknown marker.
    """
    return MARKER.sub(lambda m: GENERATORS[m.group(1)](), markdown)


def pages() -> dict[str, str]:
    """Every generated page: path under docs/ -> Markdown."""
    plugins = builtin_plugins()
    out = {f"{KEYWORD_DIR}/index.md": keywords_index(plugins), "hooks.md": hooks_page()}
    for p in plugins:
        out[p.page] = keyword_page(p)
    return out


def keyword_nav() -> list[Any]:
    """The Keywords section of the navigation."""
    return [{"Overview": f"{KEYWORD_DIR}/index.md"}] + [
        {p.title: p.page} for p in builtin_plugins()]


# ---------------------------------------------------------------------------
# mkdocs hook functions
# ---------------------------------------------------------------------------


def on_config(config: Any) -> Any:
    """Fill the Keywords section of the nav; anchor snippets at the repository."""
    nav = config.get("nav") or []
    for i, entry in enumerate(nav):
        if isinstance(entry, dict) and "Keywords" in entry:
            nav[i] = {"Keywords": keyword_nav()}
    snippets = config["mdx_configs"].setdefault("pymdownx.snippets", {})
    snippets["base_path"] = [str(ROOT)]
    # The version is written once, in redzone/_version.py.
    from redzone._version import __version__

    config["copyright"] = f"redzone {__version__} · MIT licence"
    config["extra"]["version_label"] = __version__
    return config


def on_files(files: Any, config: Any) -> Any:
    """Add the generated pages."""
    from mkdocs.structure.files import File

    for path, content in pages().items():
        files.append(File.generated(config, path, content=content))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Replace the generated-text markers of hand-written pages."""
    return substitute(markdown)
