"""The vocabulary every layer shares: results and statuses, errors, parameters read from requests, recorded figures, the
machine's description, the registry that loads every subject."""
