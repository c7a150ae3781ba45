"""Fleets: nations, ship classes (per rule set), ships."""
