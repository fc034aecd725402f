"""Exert (CR 701.43).

"You may exert [this creature] as it attacks": to exert a permanent, you
choose to have it not untap during your next untap step (701.43a).

- The choice is made as attackers are declared (508.1g): a choice of kind
  ``option`` with the key ``"exert:<attacker>"``, options ``"yes"`` and
  ``"no"``; the default is ``"no"`` ("you may"), so a board without an
  answer plays as if exert weren't there.
- Exerting adds the kernel's ``doesnt_untap`` effect on the creature, for
  its controller, with the duration ``next_untap_step``: the kernel's untap
  step keeps it tapped (:func:`~redzone.kernel.hookspecs.redzone_keeps_tapped`)
  and the effect ends as that player's next untap step ends. A permanent
  exerted twice still stays tapped during only that one untap step
  (701.43b); it stays exerted though it loses the ability, or leaves combat.
- An object that isn't on the battlefield can't be exerted (701.43c): an
  attacker that left the battlefield is offered no choice.
"""

from __future__ import annotations

from collections.abc import Mapping

from redzone import AddEffect, Choice, Effect, GameState, KeywordSpec, hookimpl

KIND = "exert"


@hookimpl
def redzone_keywords() -> list[KeywordSpec]:
    return [KeywordSpec(KIND, "701.43",
                        summary="may be exerted as it attacks: it won't untap during its "
                                "controller's next untap step")]


@hookimpl
def redzone_attack_choices(state: GameState, attacks: Mapping[str, str]) -> list[Choice]:
    out = []
    for attacker in attacks:
        perm = state.on_battlefield(attacker)  # 701.43c
        if perm is None or not perm.has(KIND):
            continue
        effect = Effect("doesnt_untap", player=perm.controller, to=attacker, source=attacker,
                        duration="next_untap_step")
        out.append(Choice(attacker, perm.controller, "option", ("no", "yes"), default=("no",),
                          min=1, max=1, rule="701.43a",
                          text=f"exert {perm.name} as it attacks",
                          then={"yes": (AddEffect(effect),)}, key=f"{KIND}:{attacker}"))
    return out
