"""Defaults and fixed limits of the engine, as the reference contract lists them."""

DEFAULT_FAST_MODEL = "gemini-3.1-flash-lite"
DEFAULT_SLOW_MODEL = "gemini-3.5-flash"
DEFAULT_MAX_TOKENS = 1024
DEFAULT_REPORT_MAX_TOKENS = 8192

# The offline analyst's model name. It lives here, not in engine.offline, so the cost module
# can price it (free) without importing the analyst and its pandas and BM25 dependencies.
OFFLINE_MODEL_NAME = "aeko-offline-analyst"

# Provider calls built from a model id string get these unless Aeko.config says otherwise.
DEFAULT_REQUEST_TIMEOUT_S = 60.0
DEFAULT_MAX_RETRIES = 2

GUARD_RAIL_MAX_RETRIES = 3
PLAN_FORMAT_MAX_RETRIES = 4
SESSION_HISTORY_USAGE = 10

# An agent with tools may call them over this many model round-trips; the round after the
# last one is made without tools, so the agent has to answer.
MAX_TOOL_ROUNDS = 4

# The characters of an inventory's digest the agents read (its table is behind a tool).
DEFAULT_DIGEST_CHARS = 12_000
