"""Which packages ship; everything else is in pyproject.toml.

Every package under bagm/ is found, never listed (a new one ships without a list to update), and
the bundled data packs, kept at the top of the repository in datasheets/, ship as bagm.datasheets
(pyproject's find table cannot add a package mapped from another folder).
"""

from setuptools import find_packages, setup

setup(packages=[*find_packages(include=["bagm", "bagm.*"]), "bagm.datasheets"])
