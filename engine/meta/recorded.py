"""Measurements recorded for issue 17 (seed 001), shown on the Swarm & GA page until a full-size experiment
runs on the server. Written from the outputs of the commands named here; do not edit by hand."""

CLAMP = {'caption': None,
 'rows': [],
 'command': 'python bench/meta.py --no-speed --clamp --selection',
 'measured': '2-core AMD EPYC shared with other work, ?'}

SELECTION = {'caption': None, 'rows': []}

EXPERIMENT = {'claims': [], 'command': '', 'measured': 'not measured yet'}
