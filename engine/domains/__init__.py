"""Problem domains written to the domain contract (``engine.search.domain``): one package each, ``<name>/``.

Nothing here lists them: ``engine.core.registry.load_all`` imports every package in this folder, and a package that
registers a ``DomainKind`` is a kind of the API, the CLI and the step-through with no edit elsewhere (so a new domain
is two files, which a test of the worked example holds true). Each package's docstring says what it is;
``engine.search.domain.domain_kinds()`` gives the registered kinds by name, and ARCHITECTURE.md ("Domains live in
``engine/domains/<name>/``") maps them with the packages that are not kinds.
"""
