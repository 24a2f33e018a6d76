"""numba's default threading layer (workqueue) must not run two parallel kernels at once from different threads.

Every ``parallel=True`` kernel is therefore called under this lock: two jobs that both want both cores take turns,
chunk by chunk, instead of crashing the process.
"""

import threading

PARALLEL_LOCK = threading.Lock()
