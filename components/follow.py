"""Following a run from a page: what keeps the follower responsive, and whether its tab is
still there to be shown how the run ended.

Streamlit keeps running a script after its tab was closed or reloaded; a follower in such a
script must not mark a run's outcome as shown (the next tab would then never show it), and
it may as well stop following.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st


class TabGone(Exception):
    """The tab that followed the run is gone: leave the run to the next one."""


def tab_connected() -> bool:
    """Whether this script's browser tab is connected. True when it cannot be told (an
    AppTest, another runtime): then the page behaves as if it were."""
    try:
        from streamlit.runtime import Runtime
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        context = get_script_run_ctx()
        if context is None or not Runtime.exists():
            return True
        return Runtime.instance().is_active_session(context.session_id)
    except Exception:  # internals moved in another Streamlit: never block the page on them
        return True


def heartbeat() -> Callable[[], None]:
    """For ``Run.follow``: while nothing new comes, touch the page (so a rerun request is
    noticed at once) and leave if the tab is gone."""
    slot = st.empty()

    def beat() -> None:
        if not tab_connected():
            raise TabGone
        slot.empty()

    return beat
