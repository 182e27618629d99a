"""Running a call on every upstream element in a pool of threads, yielding results in order or as ready.

A runner thread pulls upstream elements and submits ``call(element, index)`` to a
`WorkerPool`; at most ``workers`` elements are in flight or waiting to be consumed. The
consumer (a generator) yields results in input order (``deterministic``) or as soon as any
is done. Errors — from a call or from upstream — reach the consumer unchanged.
"""

from companion.data._runtime import JOIN_TIMEOUT_S, BoundedBuffer, Cancelled, Slots, WorkerPool, start_thread


def parallel_calls(make_upstream, call, workers, deterministic, ctx, name):
    """Generator of ``call(element, index)`` over ``make_upstream(ctx)``'s elements, ``workers`` at a time."""
    child = ctx.child()
    slots = Slots(workers, child)
    done = BoundedBuffer(workers + 4, child)
    pool = WorkerPool(workers, name)
    runner = start_thread(lambda: _run(make_upstream(child), call, pool, slots, done), f"{name}-runner")
    try:
        yield from _consume(done, slots, deterministic)
    finally:
        child.cancel()
        pool.shutdown()
        runner.join(JOIN_TIMEOUT_S)


def _run(upstream, call, pool, slots, done):
    count = 0
    try:
        for element in upstream:
            if not slots.acquire():
                return
            future = pool.submit(call, element, count)
            future.add_done_callback(lambda f, i=count: done.put(("value", i, f)))
            count += 1
        done.put(("end", count, None))
    except Cancelled:
        return
    except Exception as error:
        done.put(("error", count, error))
    finally:
        upstream.close()


def _consume(done, slots, deterministic):
    pending, next_index, total, failure = {}, 0, None, None
    while total is None or next_index < total:
        ready = _pick(pending, next_index, deterministic)
        if ready is not None:
            future = pending.pop(ready)
            next_index += 1
            slots.release()
            yield future.result()
            continue
        kind, index, payload = done.get()
        if kind == "value":
            pending[index] = payload
        else:
            total, failure = index, payload
    if failure is not None:
        raise failure


def _pick(pending, next_index, deterministic):
    if deterministic:
        return next_index if next_index in pending else None
    return next(iter(pending), None)
