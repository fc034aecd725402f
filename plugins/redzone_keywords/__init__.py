"""The built-in combat keywords of redzone, one plugin module per keyword.

Each module is registered through the ``redzone`` entry-point group exactly
like a third-party plugin; nothing here is imported by the core.
"""
