"""Sequence-view specs for the tests, the bench and the screenshots: generated ones of any size, and an OAuth 2.0
authorization-code flow with PKCE (five participants), as an author would write it."""

from __future__ import annotations

#: Participant names of the generated specs, short and long, so that heads and labels wrap.
NAMES = ("Browser", "App server", "Identity provider", "Resource API", "Token cache", "Audit log",
         "Message queue", "Worker")
#: Message labels of the generated specs, from a word to a sentence.
LABELS = ("GET /", "302 redirect to the login page", "code", "POST /token with code and verifier",
          "access token", "read", "ok", "retry after the token expires", "log", "")


#: Short participant names: words of at most seven letters, as a phone's five columns hold them.
SHORT_NAMES = ("Browser", "App", "IdP", "API", "Cache", "Audit", "Queue", "Worker")


def sequence_spec(participants: int, steps: int, *, replies: bool = True, names: tuple[str, ...] = NAMES) -> dict:
    """A valid sequence spec with ``participants`` nodes (named from ``names``) and one scenario of ``steps``
    steps: each step sends one to three messages between participants near and far (some to themselves, some
    replies, one path sent again in several steps), in a fixed pattern, so the same arguments give the same spec."""
    nodes = {f"p{i}": {"id": f"node-{i}", "kind": "node", "label": names[i % len(names)]} for i in range(participants)}
    paths: dict[str, dict] = {}
    scenario_steps = []
    for k in range(steps):
        listed = []
        for m in range(1 + (k * 7 + 3) % 3):
            a = (k + m) % participants
            b = (k * 3 + m * 5 + 1) % participants
            if (k + m) % 9 == 4:
                b = a  # a message to itself
            key = f"m{a}_{b}_{(k + m) % 4}"
            if key not in paths:
                label = LABELS[(k * 5 + m) % len(LABELS)]
                paths[key] = {"id": f"msg-{len(paths)}", "kind": "path", "from": f"p{a}", "to": f"p{b}",
                              **({"label": label} if label else {}),
                              **({"style": "reply"} if replies and (k + m) % 4 == 1 else {})}
            listed.append(key)
        scenario_steps.append({"title": f"Step {k + 1}", "description": f"Messages of step {k + 1}.",
                               "duration": 1000, "active": [f"p{k % participants}"], "paths": listed,
                               "state": {"sent": str(len(listed))}})
    return {
        "version": 1, "language": "en", "title": f"A sequence of {participants} participants",
        "description": "Generated for the tests.", "caption": "Messages between participants, step by step.",
        "alt": "Participants as columns with lifelines; messages as arrows between them, one row per step.",
        "sources": [], "limitations": ["Made for tests."], "layout": {"view": "sequence"},
        "targets": {**nodes, **paths}, "stateLabels": {"sent": "Messages sent"},
        "scenarios": [{"id": "main", "title": "Main", "description": "The only scenario.",
                       "initial": {"sent": "none"}, "unselected": [], "steps": scenario_steps}],
    }


def _path(key: str, source: str, dest: str, label: str, reply: bool = False) -> tuple[str, dict]:
    return key, {"id": key, "kind": "path", "from": source, "to": dest, "label": label,
                 **({"style": "reply"} if reply else {})}


def oauth_spec() -> dict:
    """An OAuth 2.0 authorization-code flow with PKCE (RFC 6749 section 4.1, RFC 7636) as a sequence: five
    participants, eleven messages, a self-message, replies, two scenarios (the second dims the resource server)."""
    paths = dict([
        _path("login", "user", "browser", "click Sign in"),
        _path("authorize", "browser", "auth", "GET /authorize with code_challenge"),
        _path("consent", "auth", "user", "login and consent page", reply=True),
        _path("approve", "user", "auth", "approve"),
        _path("redirect", "auth", "browser", "302 to redirect_uri with code", reply=True),
        _path("callback", "browser", "app", "GET /callback?code"),
        _path("verifier", "app", "app", "look up code_verifier"),
        _path("token", "app", "auth", "POST /token with code and code_verifier"),
        _path("tokens", "auth", "app", "access and refresh tokens", reply=True),
        _path("call", "app", "api", "GET /me with the access token"),
        _path("data", "api", "app", "profile", reply=True),
    ])
    nodes = {
        "user": {"id": "user", "kind": "node", "label": "User"},
        "browser": {"id": "browser", "kind": "node", "label": "Browser"},
        "app": {"id": "app", "kind": "node", "label": "Client app (server)"},
        "auth": {"id": "auth", "kind": "node", "label": "Auth server"},
        "api": {"id": "api", "kind": "node", "label": "Resource server"},
    }

    def step(title: str, active: list[str], listed: list[str], state: dict[str, str]) -> dict:
        return {"title": title, "description": f"{title}.", "duration": 2000, "active": active, "paths": listed,
                "state": state}

    steps = [
        step("The user asks to sign in", ["user", "browser"], ["login"], {"holds": "nothing yet"}),
        step("The browser is sent to the authorization endpoint", ["browser", "auth"], ["authorize"],
             {"holds": "code_challenge at the auth server"}),
        step("The user logs in and consents", ["auth", "user"], ["consent", "approve"], {"holds": "consent"}),
        step("The code comes back through the browser", ["auth", "browser"], ["redirect", "callback"],
             {"holds": "authorization code at the app"}),
        step("The app finds its verifier", ["app"], ["verifier"], {"holds": "code and code_verifier"}),
        step("Code and verifier are exchanged for tokens", ["app", "auth"], ["token", "tokens"],
             {"holds": "access and refresh tokens"}),
        step("The app calls the API", ["app", "api"], ["call", "data"], {"holds": "the user's profile"}),
    ]
    return {
        "version": 1, "language": "en", "title": "OAuth 2.0 authorization code with PKCE",
        "description": "How a web app gets an access token for a user without ever seeing the password.",
        "caption": "The code travels through the browser; the tokens never do. Step lengths are for reading.",
        "alt": "Five participants, user, browser, client app, auth server and resource server, exchange eleven "
               "messages in seven steps, from sign-in to the API call.",
        "sources": [], "limitations": ["Errors, scopes and refresh are left out."],
        "layout": {"view": "sequence", "order": ["user", "browser", "app", "auth", "api"]},
        "targets": {**nodes, **paths}, "stateLabels": {"holds": "What is held"},
        "scenarios": [
            {"id": "sign-in", "title": "Sign in and call the API", "description": "The whole flow.",
             "initial": {"holds": "nothing"}, "unselected": [], "steps": steps},
            {"id": "tokens-only", "title": "Until the tokens", "description": "Without the API call.",
             "initial": {"holds": "nothing"}, "unselected": ["api", "call", "data"], "steps": steps[:6]},
        ],
    }


def tcp_spec() -> dict:
    """A TCP connection (RFC 9293) as a sequence: the three-way handshake, then two segments of which the first
    is lost, a duplicate ACK, the retransmission timeout and the retransmitted segment; three participants, eleven
    messages, two self-messages, replies, labels of a sentence."""
    paths = dict([
        _path("syn", "client", "server", "SYN seq=1000"),
        _path("synack", "server", "client", "SYN-ACK seq=5000 ack=1001", reply=True),
        _path("ack", "client", "server", "ACK ack=5001"),
        _path("estab", "client", "client", "ESTABLISHED: start the retransmission timer"),
        _path("data1", "client", "server", "segment seq=1001, 500 bytes (lost on the way)"),
        _path("data2", "client", "server", "segment seq=1501, 500 bytes"),
        _path("dupack", "server", "client", "duplicate ACK ack=1001: still waiting for 1001", reply=True),
        _path("rto", "client", "client", "retransmission timeout expires"),
        _path("retx", "client", "server", "retransmit seq=1001, 500 bytes"),
        _path("deliver", "server", "app", "deliver bytes 1001-2000 in order"),
        _path("cumack", "server", "client", "ACK ack=2001 (both segments)", reply=True),
    ])
    nodes = {"client": {"id": "client", "kind": "node", "label": "Client"},
             "server": {"id": "server", "kind": "node", "label": "Server"},
             "app": {"id": "app", "kind": "node", "label": "Server application"}}

    def step(title: str, active: list[str], listed: list[str], phase: str) -> dict:
        return {"title": title, "description": f"{title}.", "duration": 2000, "active": active, "paths": listed,
                "state": {"phase": phase}}

    steps = [
        step("The client opens", ["client"], ["syn"], "SYN-SENT"),
        step("The server answers", ["server"], ["synack"], "SYN-RECEIVED"),
        step("The client acknowledges", ["client"], ["ack", "estab"], "ESTABLISHED"),
        step("Two segments go out; the first is lost", ["client"], ["data1", "data2"], "two segments in flight"),
        step("The server asks again for 1001", ["server"], ["dupack"], "waiting for 1001"),
        step("The timer fires and the client resends", ["client"], ["rto", "retx"], "retransmitting"),
        step("The server delivers and acknowledges both", ["server", "app"], ["deliver", "cumack"], "all acknowledged"),
    ]
    return {
        "version": 1, "language": "en", "title": "TCP handshake and a retransmitted segment",
        "description": "The three-way handshake, then a lost segment recovered by the retransmission timer.",
        "caption": "The receiver holds out-of-order bytes until the gap is filled. Step lengths are for reading.",
        "alt": "Client, server and server application as columns; the handshake, two segments, a duplicate ACK, a "
               "timeout and a retransmission run down in seven steps.",
        "sources": [], "limitations": ["Window sizes, SACK and fast retransmit are left out."],
        "layout": {"view": "sequence", "order": ["client", "server", "app"]},
        "targets": {**nodes, **paths}, "stateLabels": {"phase": "Client state"},
        "scenarios": [{"id": "main", "title": "Handshake and retransmission", "description": "The whole exchange.",
                       "initial": {"phase": "CLOSED"}, "unselected": [], "steps": steps}],
    }


def as_graph(data: dict) -> dict:
    """``data`` without its sequence view (``layout.view`` and ``layout.order``): the same targets drawn as a layered
    graph, as the gallery's web-worker figure was before it became a sequence (the graph layout's tests keep it)."""
    layout = {k: v for k, v in data.get("layout", {}).items() if k not in ("view", "order")}
    graph = {k: v for k, v in data.items() if k != "layout"}
    return {**graph, "layout": layout} if layout else graph
