"""The attack sequence: its rules one function each (:mod:`.rules`), playing an attack with dice
(:mod:`.sequence`) and its exact odds (:mod:`.odds`)."""
