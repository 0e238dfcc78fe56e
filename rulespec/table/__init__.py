"""Tools at the table: rules scenarios, replays, a person's seat and narration."""
