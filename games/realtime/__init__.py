"""The socket toolkit of the app's two consumers (the table, the teacher's live overview).

- `consumer`: the base consumer: refusals a browser can read (accept, then close with
  `CLOSE_SIGNED_OUT` or `CLOSE_NO_ACCESS`), checked frames, error frames in the socket's
  language;
- `frames`: the checks every client frame passes (rate, kind, size, JSON object);
- `language`: the socket's language, from its handshake;
- `signin`: the socket's user, and whether the session it opened with still signs them in;
- `asyncdb`: database work from async code, on the thread pool.
"""
