"""Admin for dungeon cards: editing with validation and a map preview (comes with the models)."""
