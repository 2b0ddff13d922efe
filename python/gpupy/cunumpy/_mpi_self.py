"""Point-to-point messages of the serial MPI stand-in: a rank can only talk to itself, so sends
to rank 0 are queued (as MPI's buffered eager sends are) and receives take the first queued
message whose tag matches. A receive that nothing matches raises RuntimeError where a real MPI
would wait forever. Host only."""

import copy

from gpupy.cunumpy._mpi_buffers import (
    _ANY_TAG,
    _PROC_NULL,
    _array_of,
    _as_array,
    _check_rank,
    _copy,
)


class SerialRequest:
    """A request of the stand-in: complete at once, or (a receive) when a queued message matches
    at Wait/Test."""

    def __init__(self, result=None, match=None):
        self._result, self._match = result, match

    def Test(self, status=None):
        if self._match is not None:
            found, result = self._match()
            if found:
                self._result, self._match = result, None
        return self._match is None

    def Wait(self, status=None):
        if not self.Test():
            raise RuntimeError(
                "[Wait] the receive has no matching send on a serial communicator: a real MPI "
                "would wait forever"
            )
        return True

    def wait(self, status=None):
        self.Wait()
        return self._result

    def test(self, status=None):
        done = self.Test()
        return done, (self._result if done else None)

    def Free(self):
        pass

    @staticmethod
    def Waitall(requests, statuses=None):
        for r in requests:
            r.Wait()
        return True

    @staticmethod
    def waitall(requests, statuses=None):
        return [r.wait() for r in requests]

    @staticmethod
    def Testall(requests, statuses=None):
        return all([r.Test() for r in requests])  # a list: every request is tested


class SelfMessages:
    """Send/Recv, Isend/Irecv and their object forms, to and from rank 0 itself or PROC_NULL."""

    def _queue(self, kind):
        queues = self.__dict__.setdefault("_queues", {"buffer": [], "object": []})
        return queues[kind]

    def _take(self, kind, tag):
        """(True, payload) of the first queued message matching tag, else (False, None)."""
        queue = self._queue(kind)
        for i, (t, payload) in enumerate(queue):
            if tag in (_ANY_TAG, t):
                del queue[i]
                return True, payload
        return False, None

    def _post(self, op, kind, payload, dest, tag):
        """Queues a copy of payload (a buffer's array or an object) for rank 0."""
        _check_rank(op, dest, "dest")
        if dest != _PROC_NULL:
            if kind == "buffer":
                item = _as_array(op, _array_of(payload), "send").copy()
            else:
                item = copy.deepcopy(payload)
            self._queue(kind).append((tag, item))

    def _receive(self, op, kind, source, tag, into=None):
        """A request that takes the matching message (copied into `into` for buffers)."""
        _check_rank(op, source, "source")
        if source == _PROC_NULL:
            return SerialRequest()

        def match():
            found, payload = self._take(kind, tag)
            if found and into is not None:
                _copy(op, payload, into)
            return found, (payload if into is None else None)

        return SerialRequest(match=match)

    def Send(self, buf, dest, tag=0):
        self._post("Send", "buffer", buf, dest, tag)

    def Isend(self, buf, dest, tag=0):
        self._post("Isend", "buffer", buf, dest, tag)
        return SerialRequest()

    def Irecv(self, buf, source=-1, tag=_ANY_TAG):
        return self._receive("Irecv", "buffer", source, tag, into=buf)

    def Recv(self, buf, source=-1, tag=_ANY_TAG, status=None):
        self._receive("Recv", "buffer", source, tag, into=buf).Wait()

    def send(self, obj, dest, tag=0):
        self._post("send", "object", obj, dest, tag)

    def isend(self, obj, dest, tag=0):
        self._post("isend", "object", obj, dest, tag)
        return SerialRequest()

    def irecv(self, buf=None, source=-1, tag=_ANY_TAG):
        return self._receive("irecv", "object", source, tag)

    def recv(self, buf=None, source=-1, tag=_ANY_TAG, status=None):
        return self._receive("recv", "object", source, tag).wait()
