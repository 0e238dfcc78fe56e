"""The language front end: YAML with positions -> schema -> expressions -> IR -> semantic checks. Imports no runtime."""
