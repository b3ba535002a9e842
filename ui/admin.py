"""Who may change the corpus. The app is read-only unless an administrator configured a secret:
`JUDGE_ADMIN_TOKEN` in the environment, or `judge_admin_token` in Streamlit's secrets
(.streamlit/secrets.toml). A session that typed that secret is unlocked until it ends; the state
lives in `st.session_state` only (never in the address), and holds a digest of the secret, not
the secret, so that a session unlocked with an old secret is locked again when it changes."""

from __future__ import annotations

import hashlib
import hmac
import os

import streamlit as st

ENV = "JUDGE_ADMIN_TOKEN"
SECRET = "judge_admin_token"
STATE = "admin-unlocked"


def configured() -> str | None:
    """The admin secret, or None when none is configured (the app is then read-only)."""
    token = os.environ.get(ENV, "").strip()
    if token:
        return token
    try:  # without any secrets file, reading st.secrets raises (StreamlitSecretNotFoundError)
        value = st.secrets.get(SECRET)
    except Exception:
        return None
    token = str(value).strip() if value is not None else ""
    return token or None


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def unlocked() -> bool:
    """True when this session typed the secret configured now."""
    token = configured()
    held = st.session_state.get(STATE)
    if token is None or not isinstance(held, str):
        return False
    return hmac.compare_digest(held, _digest(token))


def unlock(typed: str) -> bool:
    """Unlock this session if `typed` is the configured secret (compared in constant time)."""
    token = configured()
    if token is None:
        return False
    if not hmac.compare_digest(typed.strip().encode("utf-8"), token.encode("utf-8")):
        return False
    st.session_state[STATE] = _digest(token)
    return True


def lock() -> None:
    st.session_state.pop(STATE, None)
