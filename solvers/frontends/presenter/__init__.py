"""The one presenter: every answer turned into its sentences and its JSON.

The command line and the workshop both call it, and neither words an answer itself;
one module per family of answers. It returns text and JSON-ready data: printing, exit
codes and HTTP stay with the front end that called it.
"""
