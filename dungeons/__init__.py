"""Dungeon cards as data: rooms, exits and room abilities that an admin can edit or invent."""
