"""Points: Field Manual entries, the half-of-double rule, brackets, and the 500 limit."""

from bagm.roster.points import POINTS_LIMIT, half_up, legal_sizes, points_for


def test_exact_entry() -> None:
    assert points_for({5: 95, 10: 185}, 5) == 95
    assert points_for({5: 95, 10: 185}, 10) == 185


def test_half_of_double_rounds_up() -> None:
    # Mustering step 4: a size only costed at twice that size costs half, rounding up
    assert points_for({10: 375}, 5) == 188
    assert points_for({10: 240}, 5) == 120


def test_between_brackets_pays_next_entry() -> None:
    assert points_for({3: 60, 6: 120}, 4) == 120
    assert points_for({3: 60, 6: 120}, 5) == 120


def test_uncosted_sizes() -> None:
    assert points_for({5: 95, 10: 185}, 11) is None
    assert points_for({5: 95}, 2) is None
    assert points_for({3: 60, 6: 120}, 1) is None


def test_half_up() -> None:
    assert [half_up(n) for n in (0, 1, 2, 185, 186)] == [0, 1, 1, 93, 93]


def test_legal_sizes_precedence() -> None:
    assert legal_sizes({5: 1, 10: 2}, None, None) == [5, 10]
    assert legal_sizes({10: 2}, [10, 5], None) == [5, 10]
    assert legal_sizes({5: 1, 10: 2}, [5, 10], [5]) == [5]


def test_limit_is_500() -> None:
    assert POINTS_LIMIT == 500
