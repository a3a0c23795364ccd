"""Adapters for third-party RL libraries. Each submodule imports its library (an optional
extra) and nothing here is imported by ``import hearts_env``: ``hearts_env.integrations.rllib``
needs ``pip install -e ".[rllib]"`` in the hearts-env checkout. Tested examples: ``examples/``
(``make integration``)."""
