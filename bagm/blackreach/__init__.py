"""Heroes of Black Reach: exact odds for every dice procedure of the rules summary.

The specification is ``rules/003_c7c41a98842fbd33.txt`` (a rules summary of the board game by
Devil Pig Games). Its counters' values (COMBAT, DEFENCE, save, damage marker sets) are printed on
physical components that are not in the text: the user gives them, as options or in a counter
file (:mod:`bagm.blackreach.counters`); bagm ships none.

Each procedure has an exact ``*_odds`` function (fractions, from :mod:`bagm.chance.dist`) and a
``resolve_*`` function that plays it once with :class:`bagm.chance.dice.Dice`; the tests check the
one against the other. This package knows nothing of Boarding Actions (no ``bagm.engine``,
``bagm.roster`` or ``bagm.data``).
"""
