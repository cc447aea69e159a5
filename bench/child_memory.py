"""The peak memory of a bench's child process, as source text the child runs (``python -c``): the
benches measure old code checked out elsewhere, so the child cannot import it from the code it runs.

    CHILD = PEAK_MB_SOURCE + "...; print(peak_mb())"
"""

PEAK_MB_SOURCE = r'''
import resource


def peak_mb():
    # The peak of this process's own memory after exec (VmHWM). ru_maxrss also counts what the parent
    # held when it forked this child: a bench that has read a long game itself inflates the figure.
    try:
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")) / 1024
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
'''
