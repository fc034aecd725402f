"""The rules editions redzone ships besides today's: ``m10`` and ``sixth``.

Each is an :class:`redzone.Edition` registered in the ``redzone.editions``
entry-point group; their plugins live in this package.
"""
