"""Graphs that test whether arrows and labels read right (issue 27), made in code: protocols drawn as graphs
(3 to 5 boxes with 8 to 12 arrows among them in both directions, such as an OAuth flow), fan-out and fan-in of
six with labels, a cycle of five, chains of twelve and twenty, a lane grid with skip edges and long labels."""

from __future__ import annotations

from support.topologies import with_graph


def oauth() -> dict:
    """The authorization code flow of OAuth 2.0 (RFC 6749, section 4.1): 4 boxes, 11 arrows among them."""
    names = {"user": "Browser", "app": "Client app", "auth": "Authorization server", "api": "Resource server"}
    edges = [("user", "app", "sign in"), ("app", "user", "redirect to auth"), ("user", "auth", "authorize"),
             ("auth", "user", "login page"), ("user", "auth", "credentials"), ("auth", "user", "redirect + code"),
             ("user", "app", "code"), ("app", "auth", "code + secret"), ("auth", "app", "access token"),
             ("app", "api", "call + token"), ("api", "app", "data")]
    return with_graph(names, edges)


def handshake() -> dict:
    """A TLS 1.3 handshake with a cache: 3 boxes, 8 arrows among them."""
    names = {"client": "Client", "server": "Server", "cache": "Session cache"}
    edges = [("client", "server", "ClientHello"), ("server", "client", "ServerHello"),
             ("server", "cache", "look up"), ("cache", "server", "ticket"), ("server", "client", "Finished"),
             ("client", "server", "Finished"), ("client", "server", "data"), ("server", "client", "data")]
    return with_graph(names, edges)


def five_services() -> dict:
    """Five services and 12 arrows among them both ways (a checkout)."""
    names = {"web": "Web", "cart": "Cart", "pay": "Payments", "stock": "Inventory", "mail": "Mailer"}
    edges = [("web", "cart", "add"), ("cart", "web", "total"), ("cart", "stock", "reserve"),
             ("stock", "cart", "held"), ("web", "pay", "pay"), ("pay", "web", "receipt"), ("pay", "cart", "paid"),
             ("cart", "mail", "order mail"), ("mail", "web", "sent"), ("stock", "pay", "price"),
             ("pay", "mail", "invoice"), ("web", "stock", "browse")]
    return with_graph(names, edges)


def fan_out() -> dict:
    """One source fanning out to six labelled targets."""
    return with_graph({"lb": "load balancer"} | {f"w{i}x": f"worker {i}" for i in range(6)},
                      [("lb", f"w{i}x", f"shard {i}") for i in range(6)])


def fan_in() -> dict:
    """Six labelled sources fanning in to one target."""
    return with_graph({f"w{i}x": f"worker {i}" for i in range(6)} | {"agg": "aggregator"},
                      [(f"w{i}x", "agg", f"result {i}") for i in range(6)])


def cycle_of_five() -> dict:
    """Five boxes in a ring, each arrow labelled."""
    keys = ["fetch", "decode", "issue", "execute", "retire"]
    return with_graph({key: key for key in keys}, [(a, b, f"{a} done") for a, b in zip(keys, keys[1:] + keys[:1])])


def chain(count: int) -> dict:
    """A chain of ``count`` boxes."""
    return with_graph({f"n{i}x": f"stage {i}" for i in range(count)},
                      [(f"n{i}x", f"n{i + 1}x", f"hop {i}") for i in range(count - 1)])


def lanes_with_skips() -> dict:
    """A lane grid of three lanes and four columns, with arrows along the lanes, across them, and skipping."""
    grid = {f"{lane}{i}": f"{lane} step {i}" for lane in ("a", "b", "c") for i in range(4)}
    edges = [("a0", "a1", "next"), ("a1", "a2", None), ("a0", "a3", "skip two"), ("a1", "b1", "hand over"),
             ("b1", "b3", "skip"), ("b3", "c3", None), ("c0", "c2", "skip one"), ("c2", "a2", "report")]
    return with_graph(grid, edges)


def long_labels() -> dict:
    """A small flow whose arrows have long labels."""
    names = {"req": "Request", "plan": "Planner", "run": "Executor", "out": "Result"}
    edges = [("req", "plan", "parse the query and resolve every table name it mentions"),
             ("plan", "run", "a physical plan with the join order chosen by cost"),
             ("run", "out", "rows streamed back in batches of a thousand"),
             ("run", "plan", "re-plan when the estimates were wrong by ten times")]
    return with_graph(names, edges)


def edge_topologies() -> dict[str, dict]:
    """Every graph above by name."""
    return {"oauth": oauth(), "handshake": handshake(), "five-services": five_services(), "fan-out": fan_out(),
            "fan-in": fan_in(), "cycle-of-five": cycle_of_five(), "chain-12": chain(12), "chain-20": chain(20),
            "lanes-with-skips": lanes_with_skips(), "long-labels": long_labels()}
