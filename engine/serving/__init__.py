"""Running work for people: job kinds and their rows, the Dask runner, lanes and fair turns, the worker side, background
tasks, the table store, what a solve will cost."""
