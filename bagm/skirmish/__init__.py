"""Skirmish Battles (rules text 002): a squad-level campaign game for 40k.

Its own rules system beside Boarding Actions: the data of the text with its lost values marked
(:mod:`.data`), the rules tables and their formulas (:mod:`.tables`), exact attack odds
(:mod:`.odds`), scenarios (:mod:`.scenario`), the squad roster and its validator
(:mod:`.roster`, :mod:`.validate`) and the campaign tracker (:mod:`.campaign`). It shares bagm's
neutral pieces (safe YAML, atomic writes, renderers, :mod:`bagm.chance`, :mod:`bagm.errors`) and
never imports Boarding Actions rules (``bagm.engine``, ``bagm.roster``, ``bagm.data``).
"""
