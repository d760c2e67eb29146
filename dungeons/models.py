"""Dungeon cards as data: DungeonCard, Room, RoomExit (+ room abilities as structured effect steps).

The models arrive with the dungeon editor; dungeons/data holds the four official dungeons.
"""
