"""The rules kernel: the model, the steps, the damage pipeline, state-based
actions, the hook specifications and facade, and the actions.

The kernel does no I/O: it reads no file, writes no stream and imports no
format or front end. Everything above it (scenario files, the JSON outcome,
the command line, the account) imports it, never the other way round.
"""
