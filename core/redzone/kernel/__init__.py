"""The rules kernel: the model, the steps, the damage pipeline, state-based
actions, the hook specifications and facade, and the actions.

The kernel does no I/O: it reads no file, writes no stream and imports no
format or front end. Everything above it (scenario files, the JSON outcome,
the command line, the account) imports it, never the other way round.

Inside, imports point down too, counting those made for types and inside
functions (the way pluggy layers ``_hooks``, ``_manager`` and ``_callers``
under its ``__init__``). From the bottom:

1. ``frozen``, ``entrypoints``, ``fingerprint``: frozen containers, entry
   points, fingerprints; no kernel import.
2. ``events`` (an event and its one-line phrase), ``display`` (how values
   show themselves; it reads the model's values through protocols), then
   ``model`` (the frozen state, with the actions and damage it holds) and
   ``working`` (a command's private changes over a frozen state).
3. ``errors`` and ``requirements``, then ``results`` (``Outcome``,
   ``CombatResult``), ``hooktypes`` (the values hooks pass), ``hookspecs``,
   ``answers`` (the answer checks, the bounds and a command's
   :class:`~redzone.kernel.answers.Spent`) and ``validate`` (checks of what a
   caller hands the engine).
4. The facade's private modules ``_loading``, ``_calling``, ``_checks``,
   ``_verify``, ``_gates``, and the facade itself, ``plugins`` (``Hooks``,
   ``hookimpl``).
5. The rules that ask the hooks: ``combat``, ``damage``, ``enumerate``,
   ``editions``, ``sba``.
6. ``context``: the frozen :class:`~redzone.kernel.context.Context` (hooks,
   edition, policy, ``auto_triggers``) that the engine hands down in its place.
7. ``tx`` (a command's working copy), ``settle``, the kernel's own plugins
   (``actions``, ``effects``, ``restrictions``), ``steps``, ``turn``,
   ``resume`` (where a combat stands, for a run from its middle).
8. ``engine``: the public command and query surface; nothing imports it but
   what stands above the kernel.
"""
