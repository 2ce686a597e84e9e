"""How answers are *found*: backends, their formulations, the registry, the pipeline, the CLI."""
