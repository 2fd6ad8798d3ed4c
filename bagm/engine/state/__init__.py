"""The game's vocabulary and state: players' armies, units and models, actions, decisions,
and the rule-named constants. Rules entries (:mod:`bagm.engine.rules`) build on it; the mission
sequence and phases (:mod:`bagm.engine.game`) act on it."""
