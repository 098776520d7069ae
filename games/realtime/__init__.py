"""The socket toolkit of the app's two consumers (the table, the teacher's live overview).

- `consumer`: the base consumer: refusals a browser can read (accept, then close with
  `CLOSE_SIGNED_OUT` or `CLOSE_NO_ACCESS`), checked frames, error frames in the socket's
  language;
- `frames`: the checks every client frame passes (rate, kind, size, JSON object);
- `language`: the socket's language, from its handshake;
- `signin`: the socket's user, and whether the session it opened with still signs them in;
- `asyncdb`: database work from async code, on the thread pool.
- delivery through the channel layer (only games.outbox sends): `publishing` (publish a
  committed change, never blocking nor raising), `delivery_ledger` (the groups whose publish
  failed, the outage state), `layer_watch` (the layer's health seen from this process, and the
  repairs), `layer_calls` (awaiting a layer call by its progress), `layer_log` (the log filter
  for the layer's connection errors).
"""
