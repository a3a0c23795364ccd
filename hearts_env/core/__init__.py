"""The core every game family is built on, and that knows none of them: cards and card sets,
the bit helpers, the phases of a deal, observation layouts and formats, the batch state and the
engine shell, the rules record, the world sampler, the family record's type and text helpers.

Nothing here imports :mod:`hearts_env.games` or names a family; each family's folder under
``hearts_env/games/`` imports only this package (docs/architecture.md).
"""
