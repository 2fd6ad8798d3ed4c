"""The board: geometry in inches with round bases, the battlefield (Zones, Walls, Hatchways,
objective markers, areas), shortest paths, visibility, base sizes and the mission maps."""
