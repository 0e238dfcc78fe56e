"""Analysis over the IR and the runtime: the graph, lint, exploration, coverage, diff, simulation."""
