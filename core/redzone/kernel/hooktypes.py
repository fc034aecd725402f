"""The values that travel through hooks: what plugins receive and return.

All are frozen attrs classes. A plugin builds them; the core combines them in
an order that does not depend on which plugin answered first.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cached_property
from typing import Any, ClassVar, Final

from attrs import field, frozen

from redzone.kernel.frozen import EMPTY, Copyable, FrozenMap, as_map, as_tuple, lazy_frozen
from redzone.kernel.model import Action as Action
from redzone.kernel.model import Choice, GameState, Permanent
from redzone.kernel.model import Damage as Damage
from redzone.kernel.references import ObjectId, PlayerId

#: (:class:`Action` and :class:`Damage` are defined with the state that holds
#: them, :mod:`redzone.kernel.model`; they are hook values, and named here too.)


#: The largest number a keyword parameter may be (``toxic 1000000``).
MAX_KEYWORD_NUMBER: Final = 1_000_000
#: The longest printed keyword redzone tries to parse, in characters.
MAX_KEYWORD_TEXT: Final = 200

#: The typed parameters a keyword form may hold, each as the (bounded)
#: regular expression redzone builds for it. Plugins never give regexes.
SLOTS: Final[dict[str, str]] = {
    # ASCII digits only (the value is checked against MAX_KEYWORD_NUMBER as
    # it is parsed, so that a long number gets a clear error).
    "number": r"([0-9]{1,30})",
    "colour": r"(white|blue|black|red|green)",
    # One word: letters, hyphens and apostrophes.
    "word": r"([a-z][a-z'-]{0,39})",
    # One or two words (a land type with its supertype: "snow swamp").
    "words": r"([a-z][a-z'-]{0,39}(?: [a-z][a-z'-]{0,39})?)",
    # Free text (a quality: "white and from blue", "other legends").
    "quality": r"([a-z0-9][a-z0-9',/+ -]{0,79})",
    # A mana cost, mana symbols in braces (107.4, 202.1): "{1}{u}", "{x}{r}{r}",
    # "{w/u}", "{2/b}", "{g/p}", "{c}", "{s}".
    "cost": r"((?:\{(?:[0-9]{1,2}|[wubrgcsx]|[wubrg2]/[wubrgp])\}){1,12})",
}
_LITERAL = re.compile(r"[a-z0-9 '/+,-]+")
_SLOT = re.compile(r"\{([a-z]+)\}")


def form_problem(form: object) -> str | None:
    """Why ``form`` is not a keyword form, or ``None`` when it is one."""
    if type(form) is not str or not form:
        return f"form {form!r} is not a non-empty str"
    if len(form) > 100:
        return f"form {form[:40]!r}... is longer than 100 characters"
    pos = 0
    slots = 0
    literal = ""
    for m in _SLOT.finditer(form):
        literal += form[pos:m.start()]
        if m.group(1) not in SLOTS:
            return (f"form {form!r} has an unknown parameter {{{m.group(1)}}} (known: "
                    f"{', '.join('{' + k + '}' for k in SLOTS)})")
        slots += 1
        pos = m.end()
    literal += form[pos:]
    if slots > 3:
        return f"form {form!r} has more than 3 parameters"
    if sum(form.count("{" + k + "}") for k in ("quality", "words")) > 1:
        return f"form {form!r} has more than one {{quality}} or {{words}} parameter"
    if not literal.strip():
        return f"form {form!r} has no literal text"
    if not _LITERAL.fullmatch(literal) or literal != " ".join(literal.split(" ")) or (
            "  " in form):
        return (f"form {form!r}: literal text must be lower-case letters, digits, single "
                "spaces and ' / + , -")
    return None


def compile_form(form: str) -> re.Pattern[str]:
    """The regular expression redzone builds for a valid keyword form."""
    out = ""
    pos = 0
    for m in _SLOT.finditer(form):
        out += re.escape(form[pos:m.start()]) + SLOTS[m.group(1)]
        pos = m.end()
    out += re.escape(form[pos:])
    return re.compile(out)


@frozen
class KeywordSpec(Copyable):
    """A keyword a plugin provides.

    :param name: the family name instances carry (``"toxic"``, ``"landwalk"``).
    :param rule: its rule number (``"702.164"``).
    :param form: its printed form: literal lower-case text and typed
        parameters in braces, which become :attr:`~redzone.Keyword.args`:
        ``{number}`` (ASCII digits, 0 to :attr:`most`),
        ``{colour}``, ``{word}``, ``{words}`` (one or two words, such as a
        land type with its supertype), ``{quality}`` (free text) and
        ``{cost}`` (a mana cost in mana symbols, 107.4: ``ninjutsu {cost}``
        reads ``ninjutsu {1}{u}``). For
        example ``"toxic {number}"``, ``"{words}walk"``,
        ``"protection from {quality}"``. Defaults to the name itself. redzone
        builds the parser; a plugin never gives a regular expression.
    :param summary: one line for listings; defaults to the module docstring's.
    :param examples: printed forms for documentation and generated tests.
    :param pattern: no longer supported (a regular expression); giving one is
        a load error that says to use ``form``.
    :param most: the largest number each ``{number}`` of the form may be:
        what the keyword can sensibly do (a keyword whose number multiplies
        work, such as a number of tokens to create, declares a bound well
        below the object bound). A printed keyword over it is refused as it
        is parsed (:class:`~redzone.UnknownKeywordError` naming the keyword and
        the bound), in scenario files and through the API alike. At most
        :data:`MAX_KEYWORD_NUMBER`, its default.
    :param asked_always: the declaring plugin's hooks are asked whatever
        keywords the state holds. By default a plugin that declares keywords
        is asked only about states where an object (in any zone, or as last
        known information) has one of them; a plugin whose keyword matters
        where it is no longer present (a mark it left outlives it) or that
        answers about states without it says so here, on one of its keywords
        (it then holds for the whole plugin).

    .. versionadded:: 0.1.0
    """

    name: str
    rule: str
    form: str = field()
    summary: str = ""
    examples: tuple[str, ...] = field(default=(), converter=as_tuple)
    pattern: str = ""
    most: int = MAX_KEYWORD_NUMBER
    asked_always: bool = False

    @form.default
    def _form_default(self) -> str:
        return self.name.lower() if isinstance(self.name, str) else ""

    @cached_property
    def regex(self) -> re.Pattern[str]:
        """The parser redzone builds for :attr:`form` (match it with
        ``fullmatch`` on the normalised text)."""
        return compile_form(self.form)

    def problem(self) -> str | None:
        """Why this declaration can't be loaded (naming the field), or ``None``."""
        for name in ("name", "rule", "summary"):
            value = getattr(self, name)
            if type(value) is not str:
                return f"field {name!r} is {value!r}, where a str was expected"
        if not self.name.strip():
            return "field 'name' is empty"
        if self.pattern:
            return ("field 'pattern' is no longer supported (regular expressions can take "
                    f"exponential time): declare form=..., e.g. form={self.name + ' {number}'!r}")
        problem = form_problem(self.form)
        if problem is not None:
            return f"field 'form': {problem}"
        if not all(type(e) is str for e in self.examples):
            return f"field 'examples' is {self.examples!r}, where strs were expected"
        if type(self.most) is not int or not 0 <= self.most <= MAX_KEYWORD_NUMBER:
            return (f"field 'most' is {self.most!r}, where a whole number from 0 to "
                    f"{MAX_KEYWORD_NUMBER:,} was expected")
        if self.most != MAX_KEYWORD_NUMBER and "{number}" not in self.form:
            return f"field 'most' is {self.most!r}, but the form has no {{number}}"
        if type(self.asked_always) is not bool:
            return f"field 'asked_always' is {self.asked_always!r}, where a bool was expected"
        return None


@lazy_frozen
class Prevention(Copyable):
    """A prevention effect that applies to one damage (615).

    :param effect: a name for the effect, unique per effect (used in the
        account and to order effects deterministically).
    :param rule: the rule that makes it prevent (``"702.16e"``, ``"615.1"``).
    :param amount: how much it prevents; ``None`` prevents all of it.

    .. versionadded:: 0.1.0
    """

    effect: str
    rule: str
    amount: int | None = None


@frozen
class DamageStep(Copyable):
    """A combat damage step a plugin adds to the combat phase (510.4).

    The kernel knows one combat damage step, the regular one (``combat_damage``,
    order 0), which always happens. A declared step happens in a combat when,
    as it would begin, at least one remaining attacking or blocking creature
    deals combat damage in it
    (:func:`~redzone.kernel.hookspecs.redzone_deals_combat_damage`).

    :param name: the step's name, ending in ``_damage`` (``"first_strike_damage"``):
        the state's ``step``, the events' step, the JSON outcome's ``steps``
        and a scenario action's ``after``.
    :param order: where it comes relative to the regular step (0): a negative
        order before it, a positive one after it; no two steps share one.
    :param rule: the rule that makes the step (``"510.4"``).
    :param summary: one line for listings and the account.

    .. versionadded:: 0.1.0
    """

    name: str
    order: int
    rule: str
    summary: str = ""


#: The regular combat damage step: the kernel's own, which always happens (510).
REGULAR_DAMAGE_STEP = DamageStep("combat_damage", 0, "510", "Combat damage step")


@lazy_frozen
class Redirection(Copyable):
    """A redirection effect: damage that would be dealt to one recipient is
    dealt to another instead (614.9).

    :param effect: a unique name (among several that apply, the affected
        player chooses which applies first, by default the first by this
        name; each applies at most once: 614.5, 616.1).
    :param rule: the rule or card it follows.
    :param to: the id of the new recipient: a player, or a creature,
        planeswalker or battle on the battlefield; otherwise the effect does
        nothing (614.9).

    .. versionadded:: 0.1.0
    """

    effect: str
    rule: str
    to: str


@lazy_frozen
class DamageModifier(Copyable):
    """A replacement effect that changes how much damage is dealt (614.1a).

    The new amount is ``amount * multiply + add``. When prevention applies
    to the damage too and the order changes what happens, the affected
    player chooses the order (616.1: a choice
    ``damage_order@<source>:<target>`` of kind ``order``, the effects named
    by their ``effect``, a shield by its id); by default modifiers apply
    after prevention, usually the order that player would
    pick (a shield of N prevents N of the undoubled damage), but not always:
    a shield that also gains its controller life gains more if the doubling
    applies first.

    :param effect: a name for the effect, unique per effect.
    :param rule: the rule it follows.
    :param multiply: factor (Furnace of Rath: 2).
    :param add: amount added (may be negative).

    .. versionadded:: 0.1.0
    """

    effect: str
    rule: str
    multiply: int = 1
    add: int = 0


#: Result kinds the core applies (120.3), and the JSON event each writes.
RESULT_KINDS = frozenset(
    {"life_loss", "life_gain", "poison", "counters", "marked", "loyalty", "defense", "mark",
     "create"}
)


@frozen(slots=False)  # built by the thousand: dict-based builds are faster
class Result(Copyable):
    """One result of dealt damage (120.3, 120.4c).

    :param kind: ``life_loss`` (120.3a), ``poison`` (120.3b, 120.3g),
        ``loyalty`` (loyalty counters removed, 120.3c), ``counters`` (120.3d),
        ``marked`` (damage marked, 120.3e), ``life_gain`` (120.3f),
        ``defense`` (defense counters removed, 120.3h), ``mark`` (a fact for
        state-based actions, such as 704.5h's "dealt damage by a source with
        deathtouch"; no event), or ``create`` (``amount`` tokens that are
        copies of ``token`` enter the battlefield under ``player``'s control,
        or the source's controller's when ``player`` is ``None``; 111.2,
        701.7a; one ``create`` event per token).
    :param rule: the rule that produces it.
    :param source: the damage's source.
    :param amount: how much (life, counters, damage).
    :param player: the player affected (life and poison results).
    :param target: the object affected (counters, marked damage, marks).
    :param counter: the counter kind for ``counters``.
    :param mark: the mark's name for ``mark``.
    :param token: for ``create``: the token's characteristics, as a
        :class:`~redzone.Permanent` whose ``id`` names the keyword that
        creates them: the new tokens' ids are ``<source>.<id>.<n>`` (a
        source ``earl`` and ``"squirrellink"`` give ``earl.squirrellink.1``,
        ``earl.squirrellink.2`` ..., skipping ids in use), the form of every
        keyword's tokens (:func:`~redzone.kernel.tokens.token_ids`).
    :param replaces: the default result kind this one replaces for the same
        damage (infect and wither replace ``marked``; infect replaces
        ``life_loss``); identical replacements from several plugins count once.

    .. versionadded:: 0.1.0
    """

    kind: str
    rule: str
    source: str
    amount: int = 0
    player: str | None = None
    target: str | None = None
    counter: str | None = None
    mark: str | None = None
    replaces: str | None = None
    token: Permanent | None = None


@lazy_frozen
class ResultReplacement(Copyable):
    """A replacement effect on a result of damage (120.4c, 614).

    :param effect: a unique name; replacements apply each at most once to a
        result (614.5), by default in order of this name (616.1 lets the
        affected player choose the order where it matters).
    :param rule: the rule or card it follows.
    :param replace: given the state as it stands when the result is applied
        and the result, returns the result that happens instead, or ``None``
        when nothing happens.

    .. versionadded:: 0.1.0
    """

    effect: str
    rule: str
    replace: Callable[[GameState, Result], Result | None] = field(eq=False)


@frozen(slots=False)  # built by the thousand: dict-based builds are faster
class StateBasedAction(Copyable):
    """A state-based action to perform (704).

    :param kind: ``destroy`` (may be stopped by indestructible or
        regeneration), ``graveyard`` (put into its owner's graveyard: 704.5f,
        704.5i), ``lose`` (a player loses the game), or ``protector``
        (``player`` becomes the protector of the battle ``object``, 704.5x-y;
        with ``keep``, the one its controller chooses of its options does).
    :param rule: the rule, e.g. ``"704.5h"``.
    :param object: the permanent, for ``destroy`` and ``graveyard``.
    :param player: the player, for ``lose``.
    :param keep: a choice among permanents that its player makes as the
        action is performed (704.5j: which legendary permanent they keep):
        ``kind`` is then performed on each option not chosen, and
        ``object`` is ``None``. Its key is the choice's ``key``, else
        ``"<name>@<player>"``; ``#2`` follows it for a second one in the
        same command.

    .. versionadded:: 0.1.0
    """

    kind: str
    rule: str
    object: str | None = None
    player: str | None = None
    keep: Choice | None = None


@lazy_frozen  # built by the thousand: dict-based builds are faster
class SourceAssignment(Copyable):
    """One creature's proposed combat damage assignment, as validation hooks
    see it (510.1).

    :param source: the assigning creature.
    :param step: the combat damage step's name (``combat_damage``, or a step
        a plugin declares, such as ``first_strike_damage``).
    :param power: how much it assigns in all (its power, 510.1a).
    :param amounts: recipient id -> amount (amounts given as 0 included).
    :param blockers: the creatures it may assign to: those blocking it, or
        those it blocks, in declaration (or damage assignment) order.
    :param attacked: what it attacks (``None`` for blockers and for an attacker
        attacking nothing).
    :param lethal: for each creature in ``blockers``, the lethal damage from
        this source counting damage already marked and damage other creatures
        assign to it in this step (702.19b, 510.1c-d).
    :param is_attacker: whether the source is an attacking creature.
    :param order: the damage assignment order under editions that have one.
    :param additional: the further legal recipients plugins added for it
        (:func:`~redzone.kernel.hookspecs.redzone_additional_recipients`), in id order.
    :param others: for each of its legal recipients, the damage the other
        creatures assign to that recipient in this step (702.19c counts it
        toward a planeswalker's loyalty).

    .. versionadded:: 0.1.0
    """

    source: str
    step: str
    power: int
    amounts: FrozenMap[str, int] = field(converter=as_map)
    blockers: tuple[str, ...] = field(converter=as_tuple)
    attacked: str | None
    lethal: FrozenMap[str, int] = field(default=EMPTY, converter=as_map)
    is_attacker: bool = True
    order: tuple[str, ...] = field(default=(), converter=as_tuple)
    additional: tuple[str, ...] = field(default=(), converter=as_tuple)
    others: FrozenMap[str, int] = field(default=EMPTY, converter=as_map)

    def to(self, recipient: str) -> int:
        """The amount assigned to ``recipient`` (0 when none)."""
        return self.amounts.get(recipient, 0)


# ---------------------------------------------------------------------------
# Actions: an open vocabulary, like keywords
# ---------------------------------------------------------------------------


@frozen
class ActionSpec(Copyable):
    """An action kind a plugin (or the kernel) declares.

    :param cls: the action's class (a subclass of :class:`Action` whose ``do``
        is set).
    :param apply: performs one action on a command's working copy
        (:class:`~redzone.kernel.tx.Tx`, typed ``Any`` here: the working copy
        is made above the hook values), with the same tools the kernel's own
        actions use; it raises :class:`~redzone.IllegalActionError` for an
        action that names what isn't there, before changing anything.
    :param rule: the rule it follows (``"701.8"``).
    :param summary: one line for listings.

    .. versionadded:: 0.1.0
    """

    cls: type[Action]
    apply: Callable[[Any, Action], None] = field(eq=False)
    rule: str
    summary: str = ""


@lazy_frozen
class Activate(Action):
    """Activate an activated ability a keyword plugin declares (602.2).

    It is what :class:`ActivatedAbility`'s ``perform`` and ``restrictions``
    are given, so it is defined with it (and is
    :class:`redzone.kernel.abilities.Activate` too).

    :param source: the object with the ability.
    :param ability: the ability's name (its keyword's: ``"ninjutsu"``).
    :param cost: the cost's choices, by the keys the ability documents
        (``{"return": "rogue"}``).
    :param player: who activates it (default: the source's controller, its
        owner off the battlefield, 602.2).

    .. versionadded:: 0.1.0
    """

    do: ClassVar[str] = "activate"
    source: ObjectId
    ability: str
    cost: FrozenMap[str, Any] = field(default=EMPTY, converter=as_map)
    player: PlayerId | None = None


#: The timing an activated ability declares for "activate only as a
#: sorcery" (602.5d): its controller's main phase, with an empty stack.
SORCERY: Final = "sorcery"


def as_timing(value: str | Iterable[str]) -> tuple[str, ...]:
    """attrs converter: :attr:`ActivatedAbility.timing` from one name or
    several (``"sorcery"`` is ``("sorcery",)``, not its letters).

    :param value: a timing name, or an iterable of them.
    """
    return (value,) if isinstance(value, str) else as_tuple(value)


@frozen
class ActivatedAbility(Copyable):
    """An activated ability a keyword plugin declares (602.1), written
    ``[Cost]: [Effect.] [Activation instructions.]``.

    The ability belongs to every object with the keyword ``name``; the
    object's controller (its owner, off the battlefield) activates it
    (602.2) with :meth:`redzone.Engine.activate` or a scenario file's
    ``do = "activate"``. The kernel refuses an activation, changing nothing,
    when its source isn't in one of ``zones`` (113.6), it is not one of
    ``timing``'s steps, a cost's choice is missing, unknown or of the wrong
    type or names what isn't there, or ``restrictions`` says why it can't
    be (602.5); then ``perform`` pays the cost (602.2h) and does what the
    ability does as it resolves (608.2), both players passing priority in
    between (the one command is the activation and the resolution).

    :param name: the keyword whose ability it is (``"ninjutsu"``).
    :param rule: the keyword's rule (``"702.49a"``).
    :param perform: pays the cost and does the effect on the command's
        working copy (a :class:`~redzone.kernel.tx.Tx`, typed ``Any`` here:
        the working copy is made above the hook values; a function typed
        ``(tx: Tx, action: Activate) -> None`` fits), given the
        :class:`Activate` action; it raises
        :class:`~redzone.IllegalActionError` for a cost it can't pay.
    :param cost: the cost's choices the player makes (602.2b), by key, each
        with its annotation as an action's field has one (``ObjectId``,
        ``int``, ``tuple[ObjectId, ...]``): ``{"return": ObjectId}``. Every
        key must be given.
    :param timing: when it may be activated (602.5), one name or several
        (any of them will do): ``"sorcery"`` ("activate only as a sorcery",
        602.5d: its controller's main phase, with an empty stack), or a step
        it may be activated in: ``"upkeep"``, ``"draw"``,
        ``"precombat_main"`` (the first main phase; the state's step is
        ``"main"`` then, a name that works too), ``"beginning_of_combat"``,
        ``"declare_attackers"``, ``"declare_blockers"``, ``"combat_damage"``
        or a plugin's combat damage step (``"first_strike_damage"``: a name
        ending in ``_damage``), ``"end_of_combat"``, ``"postcombat_main"``,
        ``"end_step"`` (and ``"untap"`` and ``"cleanup"``, where no player
        normally gets priority). Empty: any time its controller has
        priority (602.2). Never in the untap step, nor in a cleanup step
        with nothing on the stack (502.4, 514.3). Another name is refused
        as the plugin loads.
    :param zones: the zones its source functions from (113.6: the
        battlefield, unless the ability says otherwise: ninjutsu's is the hand).
    :param restrictions: why the activation can't be, or ``None`` when it
        can: given the state and the :class:`Activate` action, before
        anything is paid
        (602.5: "activate only while that creature is unblocked"). Its reason
        is refused with ``rule``.
    :param summary: one line for listings.

    .. versionadded:: 0.1.0
    """

    name: str
    rule: str
    perform: Callable[[Any, Activate], None] = field(eq=False)
    cost: FrozenMap[str, Any] = field(default=EMPTY, converter=as_map, eq=False)
    timing: tuple[str, ...] = field(default=(), converter=as_timing)
    zones: tuple[str, ...] = field(default=("battlefield",), converter=as_tuple)
    restrictions: Callable[[GameState, Activate], str | None] | None = field(default=None,
                                                                             eq=False)
    summary: str = ""


@lazy_frozen
class DestructionReplacement(Copyable):
    """An effect that replaces a permanent's destruction (614.8, 701.19).

    :param effect: a unique name (the default choice among several is the
        first by this name; 616.1 lets the controller choose).
    :param rule: the rule it follows (``"701.19"`` for regeneration).
    :param actions: what happens instead, in order.
    :param regeneration: whether it is a regeneration ("can't be regenerated"
        turns it off, 701.19c).

    .. versionadded:: 0.1.0
    """

    effect: str
    rule: str
    actions: tuple[Action, ...] = field(converter=as_tuple)
    regeneration: bool = False
