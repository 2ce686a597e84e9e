"""Benchmark campaigns: every run of a comparison kept in a SQLite file as it ends,
resumed where it stopped, ranked as solver competitions rank (PAR-2, the virtual best,
unique decisions, disagreements), and run on a Dask cluster if asked.

* :mod:`~trailkit.solvers.campaigns.store`: the file (table ``runs``, CONTRACT 1.2 §5);
* :mod:`~trailkit.solvers.campaigns.plan`: run keys, spec hashes, the machine's facts;
* :mod:`~trailkit.solvers.campaigns.campaign`: running what the file lacks;
* :mod:`~trailkit.solvers.campaigns.scores`: the ranking ``trailkit report`` prints;
* :mod:`~trailkit.solvers.campaigns.cluster`: the runs on Dask workers (the ``cluster``
  extra).

The runs themselves are :mod:`trailkit.solvers.campaigns.isolation`'s workers, with their limits.
"""
