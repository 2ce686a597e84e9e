"""How answers are *found*: backends, the registry, the pipeline, the tools, campaigns
and the front ends."""
