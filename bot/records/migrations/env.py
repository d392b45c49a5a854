"""Alembic's entry point for the store's migrations: run on the connection the store hands over.

``bot.records.store`` applies the migrations at start-up inside a transaction that holds the
database's lock, and passes that connection here (``config.attributes["connection"]``), so two
replicas starting at once migrate one after the other on the same lock.
"""

from __future__ import annotations

from alembic import context

from bot.records.tables import metadata

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=connection.dialect.name == "sqlite",  # SQLite alters tables by copying them
)
with context.begin_transaction():
    context.run_migrations()
