"""Battlefleet Gothic, the End Phase: exact odds for its dice procedures.

The rules text (``../shared/rules/004_0ff356f601aa3bc4.txt``) is the specification: boarding
actions between ships (:mod:`bagm.bfg.boarding`) and the grapple that follows a draw
(:mod:`bagm.bfg.grapple`), Hit-and-Run attacks (:mod:`bagm.bfg.hit_and_run`), damage control and
Blast Marker removal (:mod:`bagm.bfg.end_phase`). Ships are described by the user
(:mod:`bagm.bfg.ships`); the Critical Hits table, which the text refers to but does not give, is
the user's data file (:mod:`bagm.bfg.tables`).

Every answer is an exact distribution in fractions (:mod:`bagm.chance.dist`); each procedure also
has a ``roll_*`` twin that plays it with :class:`bagm.chance.dice.Dice`, for the table and for
tests. This package knows nothing of Boarding Actions (no ``bagm.engine``, ``roster``, ``data``).
"""
